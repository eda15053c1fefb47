// The replay's step (replay.js): what the page shows of the current step — the controls' state
// and the counter, the step in words (the server's words in the page's language; the record's
// notation only in the folded "Notation" detail), the review's mark, the board (drawn by the
// game's own module, read-only) and the list of decisions. `P` is the page (replay.js).
import { t, getLang } from "./i18n.js";
import { withRefs, plainText } from "./seats.js";
import { node } from "./dom.js";
import { PAGE, seatKey, ensure, message, stepFromHash } from "./replay-load.js";

/** Seat s's name in the page's language, as at the table ("Bot 3", "Platz 2"). */
export function nameOf(P, s) {
  const d = P.st.data;
  const byLang = d.names_by_lang && d.names_by_lang[getLang()];
  return (byLang && byLang[s]) || d.names[s];
}

/** A step in words: the server's words in `lang`, else (nothing it could say) who decided. */
function stepText(P, s, lang) {
  if (s.index === 0) return t("replay.start");
  const words = s.text && s.text[lang];
  return words || t("replay.decided", { name: nameOf(P, s.seat) });
}

/** The list of decisions' buttons get their steps' words (those loaded). */
export function fillLog(P, steps = P.st.data.steps) {
  const lang = getLang();
  steps.forEach((s) => {
    const i = s.index;
    const b = P.ui.logItems[i];
    if (!b) return;
    const text = plainText(stepText(P, s, lang));  // a button: clause ids left out
    const first = text.split("\n")[0];          // a round's end: its first line in the list
    b.textContent = i === 0 ? t("replay.start_short") : first;
    if (first !== text) b.title = text; else b.removeAttribute("title");
  });
}

/** The page shows the current step (on a page not loaded yet: when it is there). */
export function show(P) {
  const { st, ui } = P;
  const s = st.data.steps[st.step];
  if (!s) {                         // on a page not loaded yet: show it when it is there
    const want = st.step, seat = st.seat;
    ui.info.replaceChildren(node("p", "replay-loading", t("replay.loading")));
    ensure(P, want).then(() => {
      if (st.alive && st.step === want && st.seat === seat) show(P);
    }).catch((e) => message(P, t("replay.error", { msg: e.message }), { alert: true, retry: true }));
    return;
  }
  if (st.step % PAGE > PAGE - 50) ensure(P, st.step);          // the next page, ahead of time
  const counter = showControls(P);
  showInfo(P, s, counter);
  const marked = st.review.mark(st.step);         // a costly decision (the review's mark)
  if (marked) ui.info.appendChild(marked);
  ui.board.classList.toggle("is-marked", !!marked);
  showBoard(P, s.view);
  showList(P);
}

/** The slider, the counter, the buttons (none past the ends) and the view's note; returns the
 * counter's words. */
function showControls(P) {
  const { st, ui } = P;
  const last = st.data.actions;
  ui.slider.value = String(st.step);
  const counter = t("replay.step_of", { i: st.step, n: last });
  ui.counter.textContent = counter;
  ui.slider.setAttribute("aria-valuetext", counter);
  ui.first.disabled = ui.back.disabled = st.step === 0;
  ui.forward.disabled = ui.last.disabled = st.step === last;
  if (st.step === last && st.timer) P.stopPlay();
  ui.viewNote.textContent = st.seat === null ? t("replay.view_full_note")
    : t("replay.view_seat_note", { name: nameOf(P, st.seat) });
  return counter;
}

/** The step in words: its number, the decision (and its notation, folded), who is next. */
function showInfo(P, s, counter) {
  const { ui } = P;
  ui.info.replaceChildren();
  ui.info.appendChild(node("p", "replay-step-no", counter));
  if (s.index === 0) {
    ui.info.appendChild(node("p", "replay-step-text", t("replay.start")));
  } else {
    const p = node("p", "replay-step-text");
    p.appendChild(node("strong")).append(...withRefs(stepText(P, s, getLang())));
    ui.info.appendChild(p);
    // the record's own line, for those who read records (seats counted from 0 there)
    const n = node("details", "replay-notation");
    n.appendChild(node("summary", null, t("replay.notation")));
    const line = node("p");
    line.appendChild(node("code", null, s.decision));
    line.appendChild(document.createTextNode(" " + t("replay.notation_note")));
    n.appendChild(line);
    ui.info.appendChild(n);
  }
  const v = s.view;
  if (v.over) {
    ui.info.appendChild(node("p", "replay-next", t("replay.game_over")));
  } else if (v.to_move !== null && v.to_move !== undefined) {
    const what = t(`replay.awaiting.${v.awaiting}`);
    ui.info.appendChild(node("p", "replay-next", t("replay.next", {
      name: nameOf(P, v.to_move), what: what.startsWith("replay.") ? v.awaiting : what,
    })));
  }
}

/** The table: its label names the view, the game's module draws it. */
function showBoard(P, view) {
  const { st, ui } = P;
  ui.board.setAttribute("aria-label", st.seat === null ? t("replay.full_view")
    : t("replay.seat_view", { name: nameOf(P, st.seat) }));
  ui.board.dataset.seat = seatKey(st.seat);
  ui.board.dataset.step = String(st.step);
  drawBoard(P, view);
}

function drawBoard(P, view) {
  const { st, ui } = P;
  const inner = node("div", "replay-board-inner game");   // the table's felt, as at the table
  inner.dataset.renderer = st.data.game;
  ui.board.replaceChildren(inner);
  // the first step of a new round shows the round's summary (a view with `last_round`), as
  // the table does
  const prev = st.step > 0 ? st.data.steps[st.step - 1] : null;
  const summary = view.last_round && prev && prev.view && prev.view.round < view.round
    ? { final: true } : null;
  const names = Array.from({ length: st.data.players }, (_, s) => nameOf(P, s));
  const step = st.data.steps[st.step];                     // the server's "why" line of the step
  const why = (step && step.why && step.why[getLang()]) || "";
  st.render(inner, view, { readonly: true, seat: st.seat, names, summary, why });
}

/** The list's current decision, the result (open at the end) and the address (#step=N). */
function showList(P) {
  const { st, ui } = P;
  ui.logItems.forEach((b, i) => {
    if (i === st.step) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  });
  const cur = ui.logItems[st.step];
  if (cur && cur.scrollIntoView && ui.log.closest("details")?.open) cur.scrollIntoView({ block: "nearest" });
  if (st.step === st.data.actions) ui.result.open = true;
  if (!/step=\d+/.test(location.hash) || stepFromHash() !== st.step) {
    history.replaceState(history.state, "", `#step=${st.step}`);
  }
}
