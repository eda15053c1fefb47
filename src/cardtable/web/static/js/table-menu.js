// The table page's controls in the status bar (table.js): the ♪ menu (turn signals, alerts,
// leaving the game: signals.js, push.js, leave.js), the log's button (table-log.js), the
// coach's and the table talk's buttons (coach.js, chat.js) and the rules' link; a press outside
// the ♪ menu closes it, Escape closes what is open. `P` is the page (table.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { signalsMenu, closeSignals } from "./signals.js";
import { toggleSide, sideIsDrawer } from "./table-log.js";

/** The bar's controls, in order (null: not shown). */
export function barControls(P) {
  const { S } = P;
  const st = S.state;
  const playing = st && st.status !== "waiting";
  return [
    playing ? signalsMenu(S, P.drawStatus) : null,
    playing ? h("button", { type: "button", class: "btn btn-small icon-btn log-toggle", id: "log-toggle", "aria-controls": "side",
      "aria-expanded": S.sideOpen ? "true" : "false", onclick: () => toggleSide(P, !S.sideOpen) }, t("table.show_log")) : null,
    st ? P.coach.button() : null,
    st ? P.talk.button() : null,
    h("a", { class: "btn btn-small", href: `/rules/${S.table.game}`, "data-link": "", id: "rules-link" }, t("table.rules")),
  ];
}

/** A press outside the ♪ menu closes it (as a menu does); a press outside the board takes the
 * keyboard's place out of the table (a redraw no longer brings it back). */
export function closeSignalsOutside(P, ev) {
  const { S, boardEl } = P;
  const tgt = ev.target;
  if (S.signalsOpen && !(tgt instanceof Node && tgt.closest && tgt.closest("#signals"))) closeSignals(S);
  if (tgt instanceof Node && !boardEl.contains(tgt)) S.kbInBoard = false;
}

/** Escape closes the chat, the coach, the ♪ menu or the log's drawer, the first one open;
 * true if it did. */
export function menuKey(P, ev) {
  const { S, talk, coach } = P;
  if (ev.key !== "Escape") return false;
  if (!talk.panel.hidden) talk.toggle(false);
  else if (!coach.panel.hidden) coach.toggle(false);
  else if (S.signalsOpen) closeSignals(S, { focus: true });
  else if (sideIsDrawer(P)) toggleSide(P, false);
  else return false;
  ev.preventDefault();
  return true;
}
