// The review in the replay viewer (the server: GET /api/tables/CODE/review?seat=N,
// docs/protocol.md "Coach and review"; the engine: bots/review.py, docs/review.md). A button per
// person's seat asks the server for that seat's review (computed in its bot pool, from the
// seat's own view; the progress shows while it runs); then the seat's accuracy, the costly
// decisions marked on the list of decisions and on the board (the option chosen, the better one,
// the loss with its interval) and a "Next mistake" button that goes to the next marked step.
//
//   replayReview({code, players, seats, nameOf, go, step}) ->
//     {el, decorate(logItems), mark(stepIndex) -> element | null, redraw()}
// `seats`: the table's seats ({seat, kind}); `go(i)` shows step i; `step()` the step shown.
// Decision i of a review (the state after i actions) is step i + 1 (the step that shows it).
// `R`, the review, is what its functions share: {S (its state), el, humans (the persons' seats),
// code, nameOf, go, step}.
import { t, getLang, formatNumber } from "./i18n.js";
import { node } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { plainText } from "./seats.js";

const POLL_MS = 700;

export function replayReview({ code, players, seats, nameOf, go, step }) {
  const S = { reviews: new Map(), running: null, active: null, error: "", alive: true, items: null };
  const humans = (seats || []).filter((s) => s.kind !== "bot").map((s) => s.seat).filter((s) => s < players);
  const el = node("details", "replay-review review-box");
  el.id = "replay-review";
  el.open = true;
  const R = { S, el, humans, code, nameOf, go, step };
  redraw(R);
  return { el, decorate: (items) => decorate(R, items), mark: (i) => mark(R, i), redraw: () => redraw(R),
    destroy: () => { S.alive = false; } };
}

/** Asks the server for seat `seat`'s review until it is done (its progress shown meanwhile). */
async function start(R, seat) {
  const { S, code } = R;
  if (S.running !== null) return;
  S.running = seat; S.error = ""; S.progress = { done: 0, total: 0 };
  redraw(R);
  try {
    for (;;) {
      const out = await api("GET", `/api/tables/${encodeURIComponent(code)}/review?seat=${seat}`);
      if (!S.alive) return;
      if (out.status === "done") { S.reviews.set(seat, out.review); S.active = seat; break; }
      S.progress = { done: out.done, total: out.total };
      redraw(R);
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!S.alive) return;
    }
  } catch (e) {
    S.error = t("review.web_error", { msg: apiMessage(e) });
  } finally {
    S.running = null;
  }
  redraw(R);
  if (S.items) decorate(R, S.items);
}

/** The marked decisions of the active seat: step index -> the review's decision. */
function marks(R) {
  const { S } = R;
  const rv = S.active === null ? null : S.reviews.get(S.active);
  const out = new Map();
  if (!rv) return out;
  rv.seats[0].decisions.forEach((d) => { if (d.marked) out.set(d.index + 1, d); });
  return out;
}

/** The list of decisions' buttons: the marked ones marked. */
function decorate(R, items) {
  R.S.items = items;
  const m = marks(R);
  items.forEach((b, i) => {
    const on = m.has(i);
    b.classList.toggle("is-marked", on);
    if (on) b.setAttribute("aria-description", t("review.web_mark")); else b.removeAttribute("aria-description");
  });
}

/** A share of win chance (0..1) in points (0..100), in the page's language. */
function pct(x) { return x === null || x === undefined ? "?" : formatNumber(100 * x, 1); }

/** The box the step shows when it is a marked decision of the active seat, else null. */
function mark(R, i) {
  const d = marks(R).get(i);
  if (!d) return null;
  const box = node("div", "review-mark");
  box.id = "review-mark";
  box.appendChild(node("p", "review-mark-head", t("review.web_here", { name: R.nameOf(R.S.active) })));
  const chosen = node("p", "review-chosen");
  chosen.append(t("review.web_chosen", { chosen: "" }), words(d.chosen_text, d.chosen));
  const best = node("p", "review-best");
  best.append(t("review.web_best", { best: "" }), words(d.best_text, d.best));
  box.append(chosen, best, node("p", "review-loss", t("review.web_loss", {
    loss: pct(d.loss), low: pct(d.interval[0]), high: pct(d.interval[1]) })));
  return box;
}

/** A decision in the table's words (the server's, in the page's language, without their clause
 * references: the step's own text links the rule), its notation as its title; the notation
 * alone where the server has no words for it. */
function words(text, notation) {
  const w = text && text[getLang()];
  if (!w) return node("code", null, notation);
  const el = node("span", "review-words", plainText(w));
  el.title = notation;
  return el;
}

/** Goes to the next marked step after the one shown (or says there is none). */
function next(R) {
  const { S } = R;
  const here = R.step();
  const after = [...marks(R).keys()].sort((a, b) => a - b).find((i) => i > here);
  if (after === undefined) { S.note = t("review.web_no_more"); redraw(R); return; }
  S.note = "";
  R.go(after);
  redraw(R);
  const info = document.getElementById("replay-info");
  if (info && info.scrollIntoView) info.scrollIntoView({ block: "nearest" });
}

/** The box, drawn again: the seats' buttons, the progress, an error, the accuracies, "next". */
function redraw(R) {
  const { S, el } = R;
  el.replaceChildren();
  el.appendChild(node("summary", null, t("review.web_title")));
  el.appendChild(node("p", "review-intro", t("review.web_intro")));
  el.appendChild(seatButtons(R));
  if (S.running !== null) el.append(...progress(R));
  if (S.error) {
    const e = node("p", "replay-error", S.error);
    e.setAttribute("role", "alert");
    el.appendChild(e);
  }
  for (const [s, rv] of S.reviews) {
    const r = rv.seats[0];
    el.appendChild(node("p", "review-acc" + (s === S.active ? " is-active" : ""), r.reviewed
      ? t("review.web_accuracy", { name: R.nameOf(s), accuracy: formatNumber(r.accuracy, 1), marked: r.marked.length, n: r.reviewed })
      : t("review.web_none", { name: R.nameOf(s) })));
  }
  const rv = S.active === null ? null : S.reviews.get(S.active);
  if (rv) el.append(...nextButton(R, rv));
}

/** A button per person's seat: its review asked for, or (there already) shown. */
function seatButtons(R) {
  const { S } = R;
  const buttons = node("div", "review-seats");
  R.humans.forEach((s) => {
    const b = node("button", "replay-btn review-ask", t("review.web_ask", { name: R.nameOf(s) }));
    b.type = "button";
    b.id = `review-seat-${s}`;
    b.disabled = S.running !== null;
    if (S.active === s) b.setAttribute("aria-pressed", "true");
    b.addEventListener("click", () => {
      if (S.reviews.has(s)) { S.active = s; redraw(R); if (S.items) decorate(R, S.items); } else start(R, s);
    });
    buttons.appendChild(b);
  });
  return buttons;
}

/** The running review's progress: its words and its bar. */
function progress(R) {
  const { S } = R;
  const p = S.progress || { done: 0, total: 0 };
  const bar = node("progress", "review-progress");
  bar.id = "review-progress";
  if (p.total) { bar.max = p.total; bar.value = p.done; }    // else: still counting (indeterminate)
  const txt = node("p", "review-running", p.total
    ? t("review.web_running", { name: R.nameOf(S.running), done: p.done, total: p.total })
    : t("review.web_starting", { name: R.nameOf(S.running) }));
  txt.setAttribute("role", "status");
  return [txt, bar];
}

/** The "next mistake" button, the note (no more), the legend. */
function nextButton(R, rv) {
  const b = node("button", "replay-btn review-next", t("review.web_next"));
  b.type = "button";
  b.id = "review-next";
  b.disabled = rv.seats[0].marked.length === 0;
  b.addEventListener("click", () => next(R));
  const out = [b];
  if (R.S.note) out.push(node("p", "review-note", R.S.note));
  out.push(node("p", "review-legend", t("review.web_legend", { rollouts: rv.budget.rollouts })));
  return out;
}
