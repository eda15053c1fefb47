// The replay viewer of a finished game: /replay/CODE.
//
//   render(el, {code}) -> fetches GET /api/tables/CODE (names), then the game's steps page by
//   page from GET /api/tables/CODE/replay?seat=&from=&count= (the server replays the table's
//   own record: the record's 128-bit seed never passes through JavaScript's numbers) for the
//   chosen seat (none: the full view), and shows the game step by step. A page holds PAGE
//   steps; pages are loaded when a step on them is shown, so games of any length replay.
//
// Controls: first / back / forward / last buttons, a slider, autoplay, the list of all
// decisions (each one a button), keys ← → (one step), PageUp / PageDown (ten), Home / End,
// Space (play / pause). A seat selector switches between each player's view and the full view
// and keeps the current step. The table is drawn by the game's own module, as at the table
// (games.js: `render(el, view, {readonly: true, seat})`). Texts: i18n.js (keys "replay.*"); each decision
// in words comes from the server in both languages (the words of the table's log, server/tables/views.py
// describe, with the table's seat names counted from 1): the list of decisions and the step show
// those words in the page's language; the record's notation (seats counted from 0, as in a
// record) only in the step's folded "Notation" detail.
//
// This module builds the page and its state and ties its parts together; each is a module:
//   replay-load.js     loading the table and a seat's steps page by page, the page's messages
//   replay-layout.js   the layout: header, seat selector, controls, slider, board, the list,
//                      the result, the review (replay-review.js) and the table talk (chat.js)
//   replay-step.js     showing the current step: the controls' state, its words, the board
//   replay-play.js     going to a step, switching the seat, autoplay, the keys
// `P`, the page, is what they share: {st (the page's state), root, ui (the layout's elements),
// and start, build, fillLog, nameOf, go, stopPlay, destroy}.
import { onLang } from "./i18n.js";
import { node } from "./dom.js";
import { start } from "./replay-load.js";
import { build } from "./replay-layout.js";
import { fillLog, nameOf } from "./replay-step.js";
import { go, stopPlay, onKey } from "./replay-play.js";

/** The page's state: the table, the replays loaded (by seat), the seat and step shown. */
function pageState(code) {
  return {
    code: String(code || "").toUpperCase(),
    table: null, record: null, names: [], seat: null,
    replays: new Map(),          // seat key -> replay response
    data: null, step: 0, timer: null, alive: true,
  };
}

// -- the page -------------------------------------------------------------------------------------
export function render(el, { code } = {}) {
  const st = pageState(code);
  const root = node("div", "replay-page");
  root.setAttribute("aria-labelledby", "replay-title");
  el.replaceChildren(root);
  const P = { st, root, ui: null };     // ui: the layout (built once per language)
  P.start = () => start(P);
  P.build = () => build(P);
  P.fillLog = (steps) => fillLog(P, steps);
  P.nameOf = (s) => nameOf(P, s);
  P.go = (i) => go(P, i);
  P.stopPlay = () => stopPlay(P);

  const keydown = (ev) => onKey(P, ev);
  const offLang = onLang(() => {
    if (!st.alive) return;
    if (!root.isConnected) { destroy(); return; }
    if (st.data) build(P); else start(P);
  });
  document.addEventListener("keydown", keydown);

  function destroy() {
    st.alive = false;
    if (st.review) st.review.destroy();
    stopPlay(P);
    offLang();
    document.removeEventListener("keydown", keydown);
  }
  P.destroy = destroy;

  start(P);
  return { destroy };
}
