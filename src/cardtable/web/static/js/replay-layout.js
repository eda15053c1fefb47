// The replay's layout (replay.js), built once per language (replay-step.js's `show` updates it
// for each step): the header (title, the game's facts, links), the seat selector, the
// controls (first / back / play / forward / last, the slider), the step in words, the board,
// and aside the list of decisions (each one a button), the review, the result and the table
// talk. `P.ui` holds the elements `show` updates. `P` is the page (replay.js).
import { t } from "./i18n.js";
import { node } from "./dom.js";
import { resultTable } from "./replay-result.js";
import { replayChat } from "./chat.js";
import { seatKey } from "./replay-load.js";
import { nameOf, fillLog, show } from "./replay-step.js";
import { go, switchSeat, togglePlay } from "./replay-play.js";

/** The page's layout, built (again) for the current seat's replay. */
export function build(P) {
  const { st, root } = P;
  const ui = P.ui = {};
  const head = header(P);
  const mainCol = node("div", "replay-main");
  const parts = [seatSelect(P), controls(P), sliderBox(P), infoBox(ui), boardBox(ui)];
  const side = node("aside", "replay-side");
  const log = logBox(P), result = resultBox(P);
  const keys = node("p", "replay-keys", t("replay.keys"));
  keys.id = "replay-keys";
  root.setAttribute("aria-describedby", "replay-keys");
  side.append(log, st.review.el, result, replayChat(st.code));   // review, table talk
  st.review.redraw();
  mainCol.append(...parts, keys);
  const layout = node("div", "replay-layout");
  layout.append(mainCol, side);
  root.replaceChildren(head, layout);
  fillLog(P);
  st.review.decorate(ui.logItems);
  show(P);
}

/** A word of the catalog, or `word` itself when the catalog has none. */
function known(key, word) {
  return t(key) === key ? word : t(key);
}

/** The title, the game's facts (game, players, variant) and the links (table, rules, record). */
function header(P) {
  const { st } = P;
  const d = st.data;
  const el = node("header", "replay-header");
  const h1 = node("h1", null, t("replay.title", { code: st.code }));
  h1.id = "replay-title";
  el.appendChild(h1);
  const facts = [known(`game.${d.game}`, d.game), t("replay.players", { n: d.players })];
  if (d.variant) facts.push(t("replay.variant", { v: known(`variant.${d.variant}`, d.variant) }));
  el.appendChild(node("p", "replay-facts", facts.join(" · ")));
  const links = node("p", "replay-links");
  const back = node("a", null, t("replay.to_table"));
  back.href = `/t/${encodeURIComponent(st.code)}`;
  const rules = node("a", null, t("replay.rules"));
  rules.href = `/rules/${d.game}`;
  const dl = node("a", null, t("replay.download"));
  dl.href = `/api/tables/${encodeURIComponent(st.code)}/record`;
  dl.setAttribute("download", `cardtable-${st.code}.json`);
  links.append(back, rules, dl);
  el.appendChild(links);
  return el;
}

/** The seat selector (the full view, each seat's) and the note on the view shown. */
function seatSelect(P) {
  const { st, ui } = P;
  const seatBox = node("div", "replay-seat-select");
  const lab = node("label", null, t("replay.seat_select"));
  lab.htmlFor = "replay-seat";
  const sel = node("select");
  sel.id = "replay-seat";
  const optFull = node("option", null, t("replay.full_view"));
  optFull.value = "full";
  sel.appendChild(optFull);
  for (let s = 0; s < st.data.players; s++) {
    const o = node("option", null, t("replay.seat_view", { name: nameOf(P, s) }));
    o.value = String(s);
    sel.appendChild(o);
  }
  sel.value = seatKey(st.seat);
  sel.addEventListener("change", () => switchSeat(P, sel.value === "full" ? null : parseInt(sel.value, 10)));
  seatBox.append(lab, sel);
  ui.viewNote = node("p", "replay-view-note");
  seatBox.appendChild(ui.viewNote);
  return seatBox;
}

/** A control's button: its icon, its words (the label), `fn` on a press. */
function button(cls, icon, label, fn) {
  const b = node("button", `replay-btn ${cls}`);
  b.type = "button";
  b.setAttribute("aria-label", label);
  b.title = label;
  const i = node("span", "replay-btn-icon", icon);
  i.setAttribute("aria-hidden", "true");
  b.appendChild(i);
  b.appendChild(node("span", "replay-btn-text", label));
  b.addEventListener("click", fn);
  return b;
}

/** The toolbar: first, back, play / pause, forward, last. */
function controls(P) {
  const { st, ui } = P;
  const bar = node("div", "replay-controls");
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", t("replay.controls"));
  bar.setAttribute("aria-controls", "replay-board");
  ui.first = button("replay-first", "⇤", t("replay.first"), () => go(P, 0));
  ui.back = button("replay-back", "◀", t("replay.back"), () => go(P, st.step - 1));
  ui.play = button("replay-play", "▷", t("replay.play"), () => togglePlay(P));
  ui.forward = button("replay-forward", "▶", t("replay.forward"), () => go(P, st.step + 1));
  ui.last = button("replay-last", "⇥", t("replay.last"), () => go(P, st.data.actions));
  bar.append(ui.first, ui.back, ui.play, ui.forward, ui.last);
  return bar;
}

/** The slider over the steps and its counter. */
function sliderBox(P) {
  const { st, ui } = P;
  const box = node("div", "replay-slider-box");
  ui.slider = node("input", "replay-slider");
  Object.assign(ui.slider, { type: "range", min: "0", max: String(st.data.actions), step: "1", id: "replay-slider" });
  ui.slider.setAttribute("aria-label", t("replay.slider"));
  ui.slider.addEventListener("input", () => go(P, parseInt(ui.slider.value, 10), { fromSlider: true }));
  ui.counter = node("output", "replay-counter");
  ui.counter.htmlFor = "replay-slider";
  box.append(ui.slider, ui.counter);
  return box;
}

/** The step in words (read out as it changes). */
function infoBox(ui) {
  ui.info = node("div", "replay-info");
  ui.info.setAttribute("aria-live", "polite");
  ui.info.setAttribute("aria-atomic", "true");
  ui.info.id = "replay-info";
  return ui.info;
}

function boardBox(ui) {
  ui.board = node("div", "replay-board");
  ui.board.id = "replay-board";
  ui.board.setAttribute("role", "region");
  ui.board.setAttribute("aria-label", t("replay.seat_select"));
  return ui.board;
}

/** The list of decisions, each one a button to its step (open on wide screens). */
function logBox(P) {
  const { st, ui } = P;
  const box = node("details", "replay-log-box");
  box.open = window.matchMedia ? window.matchMedia("(min-width: 900px)").matches : true;
  box.appendChild(node("summary", null, t("replay.log")));
  ui.log = node("ol", "replay-log");
  ui.log.start = 0;
  ui.logItems = Array.from({ length: st.data.actions + 1 }, (_, i) => {
    const li = node("li");
    const b = node("button", "replay-log-btn");
    b.type = "button";
    b.dataset.step = String(i);
    li.value = i;
    li.appendChild(b);
    ui.log.appendChild(li);
    b.addEventListener("click", () => go(P, i));
    return b;
  });
  box.appendChild(ui.log);
  return box;
}

/** The result, folded (it opens at the last step). */
function resultBox(P) {
  const { ui } = P;
  ui.result = node("details", "replay-result");
  ui.result.appendChild(node("summary", null, t("replay.show_result")));
  ui.result.appendChild(resultTable(P.st.data, P.nameOf, Boolean(P.st.table && P.st.table.annulled)));
  return ui.result;
}
