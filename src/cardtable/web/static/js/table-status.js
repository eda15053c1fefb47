// The table page's status bar (table.js): the game's title, the table's code, the spectator's
// chip and the game's own chips on the left; the connection's status (lost: the board takes no
// clicks), whose turn it is, the clock (table-clock.js) and the bar's controls (table-menu.js)
// on the right; a refusal's error line below. `P` is the page (table.js).
import { t } from "./i18n.js";
import { h, clear, listText } from "./dom.js";
import { seatNames, withRefs } from "./seats.js";
import { GAMES } from "./games.js";
import { updateClock } from "./table-clock.js";
import { barControls } from "./table-menu.js";

export function statusBar() {
  return h("div", { class: "status-bar", role: "region", "aria-label": t("table.status") });
}

/** The seats' names, the player's own marked as theirs. */
export function names(P) {
  const { S } = P;
  const seats = (S.state && S.state.seats) || (S.table && S.table.seats) || [];
  const base = seatNames(seats);
  const me = S.state ? S.state.seat : null;
  return base.map((n, i) => (i === me ? `${n} (${t("seat.you")})` : n));
}

/** The bar, drawn again (on every state): what the player had open or focused in it stays so. */
export function drawStatus(P) {
  const { S, statusEl } = P;
  const had = document.activeElement;
  const focusId = had && statusEl.contains(had) && had.id ? had.id : null;
  clear(statusEl);
  if (!S.table) return;
  const conn = connBadge(S);
  markLost(P);
  const turn = turnBadge(P);
  const clock = h("span", { class: "clock", id: "clock", role: "timer", "aria-live": "off" });
  statusEl.append(barLeft(P), h("div", { class: "sb-right" }, conn, turn, clock, ...barControls(P)));
  if (S.error) statusEl.appendChild(h("p", { class: "error sb-error", role: "alert" }, withRefs(S.error)));
  updateClock(P);
  if (focusId && !statusEl.contains(document.activeElement)) {
    const f = document.getElementById(focusId);
    if (f && statusEl.contains(f)) f.focus({ preventScroll: true });
  }
}

/** The game's title (a game with one rule set names none: its tables' variant is null), the
 * table's code, the spectator's chip and the game's own chips. */
function barLeft(P) {
  const { S, code } = P;
  const game = S.table.game;
  const title = S.table.variant ? `${GAMES[game].title} · ${t("variant." + S.table.variant)}` : GAMES[game].title;
  const st = S.state;
  return h("div", { class: "sb-left" }, h("h1", { class: "sb-title" }, title),
    h("span", { class: "sb-code" }, t("table.code", { code })),
    st && st.seat === null ? h("span", { class: "chip chip-spectator" }, "◉ ", t("table.spectator")) : null,
    ...(S.mod && S.mod.statusChips ? S.mod.statusChips(S.table) : []));
}

/** The connection's status while it is not open (connecting, reconnecting, offline). */
function connBadge(S) {
  return S.status === "open" ? null
    : h("span", { class: "conn conn-" + S.status, id: "conn-status", role: "alert" },
      S.status === "connecting" ? null : h("span", { class: "conn-icon", "aria-hidden": "true" }, "⟳ "),
      t({ reconnecting: "table.reconnecting", offline: "table.offline" }[S.status] || "table.connecting"));
}

/** While the connection is lost the board stays visible but takes no clicks (nothing sent
 * could arrive); the state that comes with the reconnect redraws it. */
function markLost(P) {
  const { S, boardEl } = P;
  const lost = S.status === "reconnecting" || S.status === "offline";
  boardEl.classList.toggle("is-disconnected", lost);
  if (lost) boardEl.setAttribute("inert", ""); else boardEl.removeAttribute("inert");
  boardEl.setAttribute("aria-busy", lost ? "true" : "false");
}

/** Whose turn it is (the player's, others', a round break) or that the game is over. */
function turnBadge(P) {
  const st = P.S.state;
  if (st && st.status === "playing") {
    const nm = names(P).map((x, i) => (i === st.seat ? seatNames(st.seats)[i] : x));
    if (st.round_break) return h("span", { class: "turn", id: "turn-badge" }, t("table.round_break"));
    if (st.your_turn) return h("span", { class: "turn turn-you", id: "turn-badge" }, "▶ ", t("table.turn_you"));
    if (st.waiting_for.length) return h("span", { class: "turn", id: "turn-badge" }, t("table.turn_of", { name: listText(st.waiting_for.map((s) => nm[s]), t("list.and")) }));
    return null;
  }
  if (st && st.status === "over") return h("span", { class: "turn turn-over", id: "turn-badge" }, t("table.over"));
  return null;
}
