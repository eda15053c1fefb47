// The table page's board (table.js): the page's layout, and on it the waiting room
// (table-seats.js), or the game as its own module draws it (games.js) with the player's
// decisions (a click or a key: sent to the server unless a lesson's step asks for another),
// the "away" banner, a lesson's panel (learn.js) and the end's actions; the table's animations
// after each redraw (table-fx.js). `P` is the page (table.js).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { seatNames, plainText } from "./seats.js";
import { peopleAt, askPeople } from "./person.js";
import { captureRects, runFx } from "./table-fx.js";
import { drawWaiting, endActions } from "./table-seats.js";
import { lessonPanel, lessonRefusal, sayRefusal } from "./learn.js";
import { breakSummary } from "./table-summary.js";
import { focusInBoard, restoreFocus } from "./table-focus.js";
import { labelSide, drawScores } from "./table-log.js";

export function boardElement() {
  return h("div", { class: "board", id: "board" });
}

/** Sends the player's decision (a lesson's step that asks for another refuses it here). */
export function decide(P, text) {
  const { S } = P;
  if (!S.conn || !S.state) return;
  S.lessonNote = lessonRefusal(S.state, text);      // a lesson's step asks for another
  if (S.lessonNote) { S.ui = {}; P.draw(); sayRefusal(plainText(S.lessonNote)); return; }
  S.conn.send({ type: "decide", decision: text, index: S.state.index });
}

/** The whole page drawn again for the page's state: its layout once, the status bar, the board. */
export function drawTable(P) {
  const { S, root } = P;
  if (!S.table) return;
  if (!root.contains(P.statusEl)) {
    clear(root);
    root.append(P.statusEl, h("div", { class: "table-layout" }, P.boardEl, P.sideEl), P.talk.panel, P.coach.panel);
  }
  P.coach.redraw();
  labelSide(P);
  P.drawStatus();
  const st = S.state;
  document.body.classList.toggle("fit", !!st && st.status === "playing" && !S.gone && !S.cancelled);
  if (S.gone || S.cancelled) { drawGone(P); return; }
  if (!st) {
    clear(P.boardEl).appendChild(h("p", { class: "muted loading" }, t("table.connecting")));
    return;
  }
  drawBoard(P, st);
}

/** The table is gone (or was cancelled): the way back to the lobby. */
function drawGone(P) {
  const { S, code } = P;
  const back = h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"));
  if (S.cut && !S.cancelled) {                   // a ban or suspension closed the connection
    clear(P.boardEl).appendChild(h("div", { class: "panel", id: "table-cut" },
      h("p", { class: "error", role: "alert" }, t("table.cut." + S.cut.code, S.cut.params || {})),
      h("p", {}, t("table.cut.note")), back));
    return;
  }
  clear(P.boardEl).appendChild(h("div", { class: "panel" }, h("p", { class: "error" }, S.cancelled ? t("table.cancelled") : t("table.not_found", { code })), back));
}

/** The board for a state; the keyboard stays in the table, the cards that moved fly. */
function drawBoard(P, st) {
  const { S, root, boardEl } = P;
  boardEl.dataset.index = String(st.index);
  boardEl.dataset.status = st.status;
  boardEl.dataset.seat = st.seat === null ? "" : String(st.seat);
  const before = captureRects(root);
  const { hadFocus, focusKey } = focusInBoard(P);
  clear(boardEl);
  askPeople([{ code: P.code, seats: st.seats }], () => { if (P.alive) P.draw(); });   // avatars, flags
  if (st.status === "waiting") drawWaiting(P);
  else drawGame(P, st);
  if (hadFocus && !boardEl.contains(document.activeElement)) restoreFocus(P, focusKey);
  revealDecision(boardEl, st);
  runFx(root, S, before);
}

/** A new decision of the player on a board taller than its window (a phone): the board scrolls
 * so that the cards the decision acts on outside the own area (the pool, the shadow display, a
 * pending set, a grid's card) lie between what stays pinned at its top (a lesson's panel) and
 * at its foot (the own area with the decision's buttons); with none, to its foot, where the
 * centre of the table lies just above the own area. Once per decision: the player's own
 * scrolling is left alone. */
function revealDecision(boardEl, st) {
  const mine = st.status === "playing" && (st.decisions || []).length > 0 && !st.round_break;
  const key = mine ? String(st.index) : "";
  if (!mine || boardEl.dataset.revealed === key || boardEl.scrollHeight <= boardEl.clientHeight + 1) return;
  boardEl.dataset.revealed = key;
  const box = boardEl.getBoundingClientRect();
  const area = boardEl.querySelector(".game > .my-area");
  const panel = boardEl.querySelector(":scope > .learn-step");
  const pinned = (el) => el && getComputedStyle(el).position === "sticky";
  const band = () => [pinned(panel) ? panel.getBoundingClientRect().bottom : box.top,
    pinned(area) ? area.getBoundingClientRect().top : box.bottom];
  const targets = [...boardEl.querySelectorAll(".game [data-decision]:not([data-decision='']), .game .can-pick, .game .pending")]
    .filter((e) => !e.closest(".my-area") && e.getBoundingClientRect().height > 0);
  if (!targets.length) { boardEl.scrollTop = boardEl.scrollHeight; return; }
  const rs = targets.map((e) => e.getBoundingClientRect());
  const top = Math.min(...rs.map((r) => r.top)), bottom = Math.max(...rs.map((r) => r.bottom));
  const [lo, hi] = band();
  if (bottom - top > hi - lo) boardEl.scrollTop += top - lo;          // too many: the first ones
  else if (bottom > hi) boardEl.scrollTop += bottom - hi;
  else if (top < lo) boardEl.scrollTop += top - lo;
}

/** A game being played or over: the away banner, a lesson's panel, the game's module's drawing
 * (with the player's decisions), the end's actions and the scores. */
function drawGame(P, st) {
  const { S, boardEl } = P;
  if (st.away) {
    boardEl.appendChild(h("div", { class: "banner", id: "away-banner" }, t("table.away"), " ",
      h("button", { type: "button", class: "btn btn-small", id: "im-back", onclick: () => S.conn.send({ type: "back" }) }, t("table.im_back"))));
  }
  const lesson = lessonPanel(st, S.table.game, S.lessonNote);
  if (lesson) boardEl.appendChild(lesson);
  const gameEl = h("div", { class: "game" });
  boardEl.appendChild(gameEl);
  const opts = {
    readonly: st.seat === null, seat: st.seat, names: P.names(), state: st,
    decisions: st.round_break ? [] : (st.decisions || []),
    plainNames: seatNames(st.seats), seats: st.seats, people: peopleAt(P.code),
    why: st.why || "",
    ui: S.ui, decide: P.decide, rerender: P.draw, table: S.table, summary: breakSummary(P, st),
  };
  S.mod.render(gameEl, st.view, opts);
  if (st.status === "over") (gameEl.querySelector("#result") || boardEl).appendChild(endActions(P));
  drawScores(P, st.view, opts);
}

/** The game's keys (its module's onKey) while the player may decide. */
export function boardKey(P, ev) {
  const { S } = P;
  if (!S.mod || !S.state || ev.target.closest("input, select, textarea, summary")) return;
  if (S.status !== "open" || S.state.round_break) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (S.mod.onKey && S.mod.onKey(ev, { state: S.state, ui: S.ui, decide: P.decide, rerender: P.draw, root: P.boardEl })) ev.preventDefault();
}
