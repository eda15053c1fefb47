// The table page's side panel (table.js): the game's scores and the log of its events (one line
// each, the player's own marked, the last 400 kept), beside the board on a wide screen, a drawer
// opened from the status bar on a small one. `P` is the page (table.js).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { withRefs } from "./seats.js";

/** The panel's elements: {sideEl, sideScores, sideClose, logList}. */
export function sidePanel(P) {
  const logList = h("ol", { class: "log-list", id: "log-list", "aria-labelledby": "log-h" });
  const sideScores = h("div", { class: "side-scores", id: "side-scores" });
  const sideClose = h("button", { type: "button", class: "btn btn-small side-close", id: "side-close", onclick: () => toggleSide(P, false) }, "✕");
  const sideEl = h("aside", { class: "side", id: "side", "aria-label": t("table.log"), hidden: true },
    sideScores, h("div", { class: "side-head" }, h("h2", { id: "log-h", class: "side-h" }), sideClose), logList);
  return { sideEl, sideScores, sideClose, logList };
}

/** Opens or closes the panel (a drawer on a small screen: the keyboard goes into it and back). */
export function toggleSide(P, open) {
  const { S, sideEl, sideClose } = P;
  S.sideOpen = open;
  sideEl.hidden = !open;
  const b = document.getElementById("log-toggle");
  if (b) b.setAttribute("aria-expanded", open ? "true" : "false");
  if (open && getComputedStyle(sideEl).position === "fixed") sideClose.focus();
  else if (!open && b) b.focus();
}

/** Whether the panel is open as a drawer (a small screen): Escape closes it. */
export function sideIsDrawer(P) {
  return P.S.sideOpen && getComputedStyle(P.sideEl).position === "fixed";
}

/** The panel's words in the page's language. */
export function labelSide(P) {
  P.sideEl.querySelector("#log-h").textContent = t("table.log");
  P.sideClose.setAttribute("aria-label", t("table.close_log"));
}

/** An event's line at the end of the log. */
export function appendLog(P, ev) {
  const { S, logList } = P;
  if (!ev.text) return;
  const li = h("li", { class: "log-item" + (ev.seat === (S.state && S.state.seat) ? " log-mine" : ""), data: { index: ev.index } },
    h("span", { class: "log-n" }, String(ev.index + 1)), " ", h("span", { class: "log-text" }, withRefs(ev.text)));
  logList.appendChild(li);
  while (logList.childNodes.length > 400) logList.removeChild(logList.firstChild);
  logList.scrollTop = logList.scrollHeight;
}

export function clearLog(P) {
  clear(P.logList);
}

/** The game's scores at the panel's top (the game module's, if it has them). */
export function drawScores(P, view, opts) {
  if (P.S.mod.scores) clear(P.sideScores).appendChild(P.S.mod.scores(view, opts));
}
