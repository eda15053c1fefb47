// The table page (/t/CODE[#token=...]): a player's or a spectator's table. It asks for a seat
// when there is one to take, connects, and draws each state. This module builds the page and
// its state and ties its regions together; each region is a module of its own:
//   table-conn.js     loading the table, asking for a seat, the connection and its messages
//   table-status.js   the status bar (title, connection, whose turn, error line)
//   table-clock.js    the bar's clock and the game's own timers
//   table-menu.js     the bar's controls (the ♪ menu: signals.js, leave.js; log, coach, chat)
//   table-board.js    the board: the game's drawing (games.js) and the player's decisions
//   table-focus.js    where the keyboard is, kept in the table across redraws
//   table-log.js      the side panel: scores and the log of the game's events
//   table-summary.js  a round's summary between rounds and the player's "ready"
//   table-seats.js    the panels around a game (taking a seat, the waiting room, the end)
// `P`, the page, is what they share: {S (the page's state), code, root, the regions' elements,
// talk, coach, and connect, names, myInfo, draw, drawStatus, decide}.
import { onLang } from "./i18n.js";
import { h } from "./dom.js";
import { loadSeat } from "./store.js";
import { tableChat } from "./chat.js";
import { tableCoach } from "./coach.js";
import { drawLinkConfirm, drawJoin } from "./table-seats.js";
import { start, connect, restartForLang } from "./table-conn.js";
import { statusBar, drawStatus, names } from "./table-status.js";
import { tick } from "./table-clock.js";
import { closeSignalsOutside, menuKey } from "./table-menu.js";
import { boardElement, drawTable, decide, boardKey } from "./table-board.js";
import { onFocusIn } from "./table-focus.js";
import { sidePanel } from "./table-log.js";

/** The page's state: the table, its last state, the connection's status and what the player
 * has open or chose (S.ui: the game's selections, kept until the state moves on). */
function pageState(code) {
  return {
    code, table: null, state: null, status: "connecting",
    mod: null, ui: {}, pendingFx: [], conn: null, error: "", joinError: "", gone: false,
    sideOpen: false, wasTurn: false, readySent: null, linkToken: null,
  };
}

/** A link with a seat's token (/t/CODE#token=...): never taken silently, the visitor is asked
 * first (a crafted link would otherwise seat them in somebody else's seat); the token leaves
 * the address bar at once. */
function takeLinkToken(S, code) {
  const hm = location.hash.match(/token=([^&]+)/);
  if (hm) {
    try { S.linkToken = decodeURIComponent(hm[1]); } catch (e) { S.linkToken = null; }
    history.replaceState({}, "", `/t/${code}`);
  }
}

/** The page and its regions' elements: status bar, board, side panel (scores, log; a drawer on
 * small screens), the table talk's and the coach's panels. */
function makePage(el, code) {
  const S = pageState(code);
  takeLinkToken(S, code);
  const root = h("div", { class: "table-page" });
  el.appendChild(root);
  const P = { S, code, root, alive: true };
  P.myInfo = () => loadSeat(code);
  P.statusEl = statusBar();
  P.boardEl = boardElement();
  Object.assign(P, sidePanel(P));
  // table talk: its button in the status bar, its drawer (chat.js)
  P.talk = tableChat({ code, send: (m) => S.conn && S.conn.send(m), state: () => S.state, table: () => S.table });
  // the coach at a bot table: its button in the status bar, its panel (coach.js)
  P.coach = tableCoach({ code, state: () => S.state, table: () => S.table, token: () => (P.myInfo() || {}).token });
  P.connect = (token) => connect(P, token);
  P.names = () => names(P);
  P.draw = () => drawTable(P);
  P.drawStatus = () => drawStatus(P);
  P.decide = (text) => decide(P, text);
  return P;
}

/** The page's listeners on the document, the language and the clock; returns their removal. */
function listen(P) {
  const { S } = P;
  const outside = (ev) => closeSignalsOutside(P, ev);
  document.addEventListener("pointerdown", outside, true);
  // where the keyboard is: in the table (kept across redraws) or elsewhere on the page (left there)
  P.boardEl.setAttribute("tabindex", "-1");
  const focusin = (ev) => onFocusIn(P, ev);
  document.addEventListener("focusin", focusin);
  const keydown = (ev) => { if (!menuKey(P, ev)) boardKey(P, ev); };
  document.addEventListener("keydown", keydown);
  const offLang = onLang((lang) => {
    restartForLang(P, lang);
    if (S.table && !S.conn) { if (S.linkToken) drawLinkConfirm(P, P.myInfo()); else drawJoin(P); }
    else P.draw();
  });
  const timer = setInterval(() => tick(P), 500);
  return () => {
    offLang();
    P.talk.destroy();
    P.coach.destroy();
    clearInterval(timer);
    document.removeEventListener("keydown", keydown);
    document.removeEventListener("focusin", focusin);
    document.removeEventListener("pointerdown", outside, true);
  };
}

export function renderTablePage(el, code) {
  document.title = `${code} · cardtable`;
  el.className = "page-table";
  document.body.classList.add("route-table");
  const P = makePage(el, code);
  const stop = listen(P);
  start(P);
  return () => {
    P.alive = false;
    stop();
    document.body.classList.remove("route-table", "fit");
    if (P.S.conn) P.S.conn.close();
  };
}
