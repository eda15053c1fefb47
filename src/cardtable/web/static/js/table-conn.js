// The table page's connection (table.js): loading the table, asking for a seat when there is
// one to take (table-seats.js), the connection (net.js: it reconnects by itself; its status
// is shown in the status bar) and what the server sends on it: the welcome, each state, the
// game's events (the log), refusals, a rematch, a table cancelled. `P` is the page (table.js).
import { t, getLang, refusal } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { TableConnection } from "./net.js";
import { plainText } from "./seats.js";
import { api, apiMessage, clientId } from "./api.js";
import { saveSeat, dropSeat } from "./store.js";
import { signalTurn } from "./signals.js";
import { loadGame } from "./games.js";
import { drawLinkConfirm, drawJoin } from "./table-seats.js";
import { appendLog, clearLog } from "./table-log.js";

/** Loads the table and its game's module, then asks for a seat or connects. */
export async function start(P) {
  const { S, code, root } = P;
  try {
    S.table = await api("GET", `/api/tables/${code}`);
  } catch (e) {
    // no such table, or another reason (too many requests, the server unreachable) in words
    const why = e.status === 404 ? null : apiMessage(e);
    clear(root).appendChild(h("div", { class: "panel" }, h("h1", {}, why ? t("lobby.error", { msg: why }) : t("table.not_found", { code })),
      h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
    return;
  }
  S.mod = await loadGame(S.table.game);
  if (!P.alive) return;                        // left while loading: open no connection
  const mine = P.myInfo();
  if (S.linkToken && !(mine && mine.token === S.linkToken)) {
    drawLinkConfirm(P, mine);
    return;
  }
  if (!mine && S.table.status === "waiting" && S.table.free_seats.length) {
    drawJoin(P);
    return;
  }
  P.connect(mine && mine.token);
}

/** Connects with a seat's token (none: as a spectator); a token the server refuses is dropped
 * and the page connects again as a spectator. */
export function connect(P, token) {
  const { S, code } = P;
  if (!P.alive) return;
  S.conn = new TableConnection(code, {
    token, lang: getLang(), client: clientId(),
    onMessage: (msg) => onMessage(P, msg), onStatus: (st) => { S.status = st; P.drawStatus(); },
    onClose: (c) => {
      if (c === 4401) {
        dropSeat(code);
        S.error = t("table.bad_token");
        S.conn.restart({ token: null });
      } else { S.gone = true; P.draw(); }     // (4403: a ban, S.cut says why; table-board.js)
    },
  });
  S.conn.connect();
  P.draw();
}

/** Another language: the server sends the log again in it. */
export function restartForLang(P, lang) {
  const { S } = P;
  if (S.conn) {
    clearLog(P);
    S.conn.restart({ lang, resetEvents: true });
  }
}

function onMessage(P, msg) {
  const { S, code } = P;
  if (P.talk.onMessage(msg)) return;                     // table talk (chat.js)
  switch (msg.type) {
    case "welcome":
      if (msg.role === "player") {
        const mine = P.myInfo() || {};
        saveSeat(code, Object.assign(mine, { seat: msg.seat, name: msg.name, game: msg.game }));
      }
      break;
    case "state":
      onState(P, msg);
      break;
    case "event":
      onEvent(P, msg);
      break;
    case "error":
      onError(P, msg);
      break;
    case "rematch":
      if (S.state) S.state.rematch = msg.table;
      P.draw();
      break;
    case "cancelled":
      S.cancelled = true;
      dropSeat(code);
      P.draw();
      break;
    default:
      break;
  }
}

/** A new state: what the player chose is forgotten when the game moves on. */
function onState(P, msg) {
  const { S } = P;
  const prev = S.state;
  S.state = msg;
  msg._recv = Date.now() / 1000;
  if (!prev || prev.seat !== msg.seat) P.talk.redraw();
  if (!prev || prev.index !== msg.index) { S.error = ""; S.lessonNote = null; }
  if (prev && (prev.index !== msg.index || (prev.window && !msg.window))) S.ui = {};
  if (S.table) {
    S.table.status = msg.status;
    S.table.seats = msg.seats;
    if (msg.settings) Object.assign(S.table, msg.settings);
  }
  if (msg.type === "state" && msg.status === "cancelled") { S.gone = true; }
  P.draw();
  signalTurn(S, prev, msg);
}

/** A game's event: its animation (the game module's hints), its line in the log, read aloud. */
function onEvent(P, msg) {
  const { S } = P;
  if (S.mod && S.mod.animHints && S.state) {
    try { S.pendingFx.push(...S.mod.animHints(S.state.view, msg, S.state.seat)); } catch (e) { /* ignore */ }
  }
  if (msg.text && S.mod && S.mod.logText) {
    try { msg.text = S.mod.logText(msg, S.state, S.table) || msg.text; } catch (e) { /* keep the server's */ }
  }
  appendLog(P, msg);
  if (msg.text) announce(plainText(msg.text));    // clause ids are not read aloud
}

/** A refusal, in the status bar's error line (a stale or already answered decision is not); a
 * ban or suspension (the connection closes next, 4403) is kept to be shown instead of the board. */
function onError(P, msg) {
  const { S } = P;
  if (msg.code === "banned" || msg.code === "suspended") { S.cut = msg; return; }
  if (!["stale", "already_answered", "not_your_turn"].includes(msg.code)) {
    S.error = t("table.error", { msg: msg.reason_code ? refusal(msg) : (msg.message || msg.code) });
    P.drawStatus();
    announce(plainText(S.error));
  }
}
