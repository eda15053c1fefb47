// "Leave the game" (the table's ♪ menu): a seated player of a game being played hands the seat
// to a bot for the rest of the game (the `leave` message, docs/protocol.md); at a rated table
// the game counts as the player's loss (docs/ratings.md). Asked once more before it is sent.
import { t } from "./i18n.js";
import { h } from "./dom.js";

/** The menu's leave button (null for a spectator, or when no game is being played). */
export function leaveItem(S) {
  const st = S.state;
  if (!st || st.seat === null || st.seat === undefined || st.status !== "playing") return null;
  const rated = !!(S.table && S.table.rated);
  return h("div", { class: "leave-item" },
    h("button", { type: "button", class: "btn btn-small btn-danger", id: "leave-game", onclick: () => {
      if (!window.confirm(t(rated ? "leave.confirm_rated" : "leave.confirm"))) return;
      S.signalsOpen = false;
      if (S.conn) S.conn.send({ type: "leave" });
    } }, t("leave.button")),
    h("p", { class: "muted small" }, t(rated ? "leave.hint_rated" : "leave.hint")));
}
