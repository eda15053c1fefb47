// The Kombio table: renderKombio(el, view, opts) draws a seat's view (NOTATION.md) and, unless
// opts.readonly, lets the player decide: buttons for plain decisions, and target picking (click
// the cards) for replace / take / peek / swap / snap / give. Only decisions in opts.decisions
// (the server's, as JSON: text, kind, args.cards = the table cards each names as {seat, slot})
// are offered; none is read from its text. opts as in abluxxen.js (opts.why: the server's "why"
// line), plus opts.state (the
// server's state message: the snap window).
import { t } from "/static/js/i18n.js";
import { h, listText } from "/static/js/dom.js";
import { cardEl } from "/static/js/cards.js";
import { nameOf, plainName, num, signed, seatStatus, seatMarks, withRefs } from "/static/js/seats.js";

const G = "kombio";
export { renderKombio as render };            // the table and the replay draw through games.js
/** How cards.js draws this game's cards: no joker; the action marks of 7 to 14 (look, swap). */
export const cards = { joker: null, marks: { 7: "◉", 8: "◉", 9: "◉", 10: "◉", 11: "⇄", 12: "⇄", 13: "◉⇄", 14: "◉◉" } };
const TARGET_VERBS = ["replace", "take", "peek", "swap", "snap", "give"];
const MEMORY_SECS = 5;
const firstSeen = new Map();     // "table|round|P.S|value" -> ms when this client first saw it

/** Memory mode is a setting of the table, the same for every player (the lobby sets it). */
export function memoryOn(opts) {
  return !!(opts && opts.table && opts.table.memory);
}

function cardsN(n) { return t("ko.cards", { n }); }


/** A table card of a decision ({seat, slot}) as the key the grid's cards carry: "P.S". */
const posKey = (c) => `${c.seat}.${c.slot}`;

/** The decisions as the picking reads them: {text, verb, args: ["P.S", ...]} (an own-slot
 * decision's card is the deciding seat's, as the server gives it). */
function pickable(decisions) {
  return decisions.map((d) => ({ text: d.text, verb: d.kind, args: (d.args.cards || []).map(posKey) }));
}

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export function renderKombio(el, view, opts = {}) {
  opts = Object.assign({ decisions: [], ui: {}, readonly: false }, opts);
  if (!opts.names) opts.names = Array.from({ length: view.players }, (_, i) => t("seat.name", { n: i + 1 }));
  if (!opts.plainNames) opts.plainNames = opts.names;
  const K = context(view, opts);
  const { ui, me } = K;

  el.classList.add("ko-table");
  el.classList.toggle("no-me", me === null);
  el.classList.toggle("snap-window", view.awaiting === "snap" && !view.over);
  el.innerHTML = "";
  const summary = opts.summary || (view.over && view.last_round ? { final: true } : null);
  if (view.over) el.appendChild(scores(view, opts, true));
  if (summary && view.last_round) el.appendChild(roundSummary(view, opts, summary));
  if (me === null && !view.over) el.appendChild(prompt(view, opts, false));
  el.appendChild(opponents(K));
  el.appendChild(centre(K));
  if (me !== null) el.appendChild(myArea(K));
  ui.nextHide = K.nextHide;
}

/** What the drawing of a view shares (`K`): the view, opts and its ui (the picking mode and
 * the cards picked), the seat drawn for (me), the decisions offered and what can be picked now,
 * memory mode, and the time the next remembered card hides (nextHide). */
function context(view, opts) {
  const ui = opts.ui;
  const me = (opts.seat === null || opts.seat === undefined) ? null : opts.seat;
  const decisions = opts.readonly ? [] : (opts.decisions || []);
  const parsed = pickable(decisions);
  const verbs = new Set(parsed.map((d) => d.verb));
  const targetVerbs = [...new Set(parsed.filter((d) => d.args.length && TARGET_VERBS.includes(d.verb)).map((d) => d.verb))];
  // the picking mode: chosen by a button, or the only target verb (take needs its button);
  // in a snap window a click on a card snaps it at once (as a hand slaps it at a real table)
  if (ui.mode && !targetVerbs.includes(ui.mode)) { ui.mode = null; ui.picks = []; }
  if (!ui.mode && targetVerbs.length === 1 && targetVerbs[0] !== "take") ui.mode = targetVerbs[0];
  if (!ui.picks) ui.picks = [];
  const modeDecisions = ui.mode ? parsed.filter((d) => d.verb === ui.mode && d.args.length) : [];
  const clickable = new Set();
  for (const d of modeDecisions) {
    if (ui.picks.every((p) => d.args.includes(p))) for (const a of d.args) if (!ui.picks.includes(a)) clickable.add(a);
  }
  return {
    view, opts, ui, me, decisions, parsed, verbs, targetVerbs, modeDecisions, clickable,
    memory: !opts.readonly && me !== null && memoryOn(opts), now: Date.now(),
    tableKey: (opts.table && opts.table.code) || "", st: opts.state, snapping: ui.mode === "snap",
    peeked: new Set(view.peeked || []), nextHide: null, canTake: targetVerbs.includes("take"),
  };
}

/** A card picked ("P.S"): the decision it completes is made, else the picking goes on. */
function pick(K, ps) {
  const { ui, modeDecisions, opts } = K;
  ui.picks.push(ps);
  const done = modeDecisions.find((d) => sameSet(d.args, ui.picks));
  const more = modeDecisions.some((d) => d.args.length > ui.picks.length && ui.picks.every((p) => d.args.includes(p)));
  if (done && !more) {
    ui.picks = [];
    ui.mode = null;
    opts.decide(done.text);
  } else opts.rerender();
}

/** What a grid's card shows: its value, or (memory mode, its time over) hidden. */
function remembered(K, ps, v) {
  const { view, memory, peeked, now } = K;
  if (!memory || v === "?" || v === null) return { shown: v, memCls: null };
  const key = `${K.tableKey}|${view.round}|${ps}|${v}`;
  // a new look (a peek of this card now) starts its time again, as in the terminal
  if (!firstSeen.has(key) || peeked.has(ps)) firstSeen.set(key, now);
  const until = firstSeen.get(key) + MEMORY_SECS * 1000;
  if (until <= now && !peeked.has(ps)) return { shown: "?", memCls: "is-memory" };
  K.nextHide = Math.min(K.nextHide || until, until);
  return { shown: v, memCls: null };
}

/** Seat s's grid of cards (big: the player's own). */
function gridEl(K, s, big) {
  const { view, opts, ui, me, clickable, snapping, peeked } = K;
  const g = view.grids[s];
  const owner = s === me ? t("ko.your_grid") : t("ko.grid_of", { name: plainName(opts, s) });
  const wrap = h("div", { class: "ko-grid", role: "group", "aria-label": owner });
  const target = view.awaiting === "give" && !view.over && view.snap ? view.snap.card : null;
  g.forEach((v, i) => {
    const ps = `${s}.${i + 1}`;
    const { shown, memCls } = remembered(K, ps, v);
    const can = clickable.has(ps);
    const what = v === null ? t("card.empty") : v === "?" || memCls ? t("card.hidden") : num(v);
    const label = `${owner}, ${t("ko.slot", { s: i + 1 })}: ${what}` + (can && snapping ? ` – ${t("ko.snap_it")}` : "")
      + (ps === target ? ` – ${t("ko.give_target")}` : "");
    const c = cardEl(G, shown, { size: big ? "lg" : "sm", button: can, label,
      cls: [can ? "can-pick" : null, ps === target ? "is-target" : null, peeked.has(ps) ? "is-peeked" : null, ui.picks.includes(ps) ? "is-picked" : null, memCls],
      data: { slot: ps, region: `slot-${s}-${i + 1}`, key: `slot-${ps}` }, onClick: can ? () => pick(K, ps) : null });
    const slot = h("div", { class: "slot" }, c, h("span", { class: "slot-n", "aria-hidden": "true" }, String(i + 1)));
    // a card keeps its place (a memory game): the first four in two rows of two, a penalty
    // card or a handed-over one in a new column to the right, never in another card's place
    const [col, row] = i < 4 ? [1 + (i % 2), 1 + Math.floor(i / 2)] : [3 + Math.floor((i - 4) / 2), 1 + ((i - 4) % 2)];
    slot.style.gridColumn = String(col);               // CSSOM: no inline style attribute (CSP)
    slot.style.gridRow = String(row);
    wrap.appendChild(slot);
  });
  return wrap;
}

/** Seat s's flags: its cards, its total, (own) the known cards' sum, the caller's mark. */
function flags(K, s) {
  const { view, me, memory } = K;
  // in memory mode the sum of the known cards would give away the hidden ones: not shown
  const known = memory ? [] : view.grids[s].filter((v) => typeof v === "number");
  return h("div", { class: "ko-flags" },
    h("span", { class: "flag flag-count" }, cardsN(view.counts[s])),
    h("span", { class: "flag" }, t("ko.total", { total: num(view.totals[s]) })),
    s === me && known.length ? h("span", { class: "flag" }, t("ko.known_sum", { sum: num(known.reduce((a, b) => a + b, 0)) })) : null,
    view.caller === s ? h("span", { class: "flag flag-caller" }, "◆ ", t("ko.called"), view.players > 2 ? [" · ", withRefs(t("ko.taboo"))] : "") : null);
}

function isActive(K, s) {
  const { view, st } = K;
  return !view.over && (st ? (st.waiting_for || []).includes(s) && view.awaiting !== "snap" : view.to_move === s);
}

/** A seat's head: whose turn, its name, its status, its flags. */
function seatHead(K, s) {
  const { opts, me } = K;
  return h("header", { class: "seat-head" }, isActive(K, s) ? h("span", { class: "turn-dot" }, "▶") : null,
    seatMarks(opts, s), h(s === me ? "h2" : "span", { class: s === me ? "seat-name my-name" : "seat-name" }, nameOf(opts, s)), seatStatus(opts, s), flags(K, s));
}

/** The other seats: clockwise from my left neighbour (every seat when there is no me). */
function opponents(K) {
  const { view, opts, me } = K;
  const n = view.players;
  const order = [];
  if (me === null) for (let s = 0; s < n; s++) order.push(s);
  else for (let k = 1; k < n; k++) order.push((me + k) % n);
  const seats = h("div", { class: "opps", role: "list", "aria-label": t("table.others") });
  for (const s of order) {
    seats.appendChild(h("section", { class: "seat-panel" + (isActive(K, s) ? " is-active" : "") + (view.winners && view.winners.includes(s) ? " is-winner" : ""),
      role: "listitem", "aria-label": nameOf(opts, s), data: { seat: s } }, seatHead(K, s), gridEl(K, s, false)));
  }
  return seats;
}

/** The centre: deck, discard pile (with a snap window's time), drawn card, the round. */
function centre(K) {
  const { view, opts, ui, verbs, st, canTake } = K;
  const canDraw = verbs.has("draw");
  const win = st && st.window && view.awaiting === "snap" && !view.over ? st : null;   // (turn-based: the table clock tells the window's deadline, pace.js)
  return h("div", { class: "centre ko-centre" },
    h("p", { class: "round-info", id: "round-info" }, h("strong", {}, t("ko.round", { round: view.round, target: view.target })),
      view.caller !== null && view.caller !== undefined && view.turns_left !== null
        ? h("span", {}, " · ", withRefs(t("web.ko.turns_left", { name: plainName(opts, view.caller), n: view.turns_left }))) : null),
    h("div", { class: "pile" }, h("h3", { class: "zone-h" }, t("web.ko.deck")),
      cardEl(G, "?", { back: true, count: view.deck, size: "lg", button: canDraw, cls: canDraw ? "can-pick" : null,
        label: `${t("web.ko.deck")}: ${cardsN(view.deck)}`, data: { region: "deck", key: "deck", decision: canDraw ? "draw" : "" },
        onClick: canDraw ? () => opts.decide("draw") : null })),
    h("div", { class: "pile", id: "discard-pile" }, h("h3", { class: "zone-h" }, t("ko.discard")),
      cardEl(G, view.top === null ? null : view.top, { size: "lg", button: canTake, cls: [canTake ? "can-pick" : null, ui.mode === "take" ? "is-picked" : null],
        label: `${t("ko.discard")}: ${view.top === null ? t("card.empty") : num(view.top)}`, data: { region: "discard", key: "discard" },
        onClick: canTake ? () => { ui.mode = "take"; ui.picks = []; opts.rerender(); } : null }),
      win && !win.pace ? windowTime(win) : h("span", { class: "pile-n" }, cardsN(view.discard))),
    view.drawn !== null && view.drawn !== undefined ? h("div", { class: "pile" }, h("h3", { class: "zone-h" }, t("ko.drawn")),
      cardEl(G, view.drawn, { size: "lg", cls: "is-highlight", label: `${t("ko.drawn")}: ${num(view.drawn)}`, data: { region: "drawn" } })) : null,
    view.top_snapped ? h("p", { class: "pile-note" }, "⚠ ", withRefs(t("ko.snapped_top"))) : null);
}

/** My area: my grid, and beside it the prompt and the decision's controls. */
function myArea(K) {
  const { view, opts, me, decisions, memory } = K;
  const area = h("section", { class: "my-area" + (isActive(K, me) ? " is-active" : "") + (view.winners && view.winners.includes(me) ? " is-winner" : ""),
    "aria-label": t("ko.your_area"), data: { seat: me }, id: "my-area", tabindex: "-1" },
  seatHead(K, me));
  const side = h("div", { class: "ko-me-side" });
  if (!view.over) side.appendChild(prompt(view, opts, decisions.length > 0));
  if (!opts.readonly && !view.over && decisions.length) side.appendChild(actionBar(view, opts, K));
  if (memory) side.appendChild(h("p", { class: "keys-help muted", id: "memory-note" }, t("ko.memory_on", { s: MEMORY_SECS })));
  if (!opts.readonly && decisions.length) side.appendChild(h("p", { class: "keys-help muted" }, t("ko.keys")));
  area.appendChild(h("div", { class: "ko-me" }, gridEl(K, me, true), side));
  return area;
}

function prompt(view, opts, you) {
  return h("p", { class: "why" + (you ? " why-you" : ""), id: "why" },
    you ? h("span", { "aria-hidden": "true" }, "▶ ") : null, withRefs(opts.why || ""));
}

/** The snap window's time on the discard pile: a bar that empties, and the seconds left. */
function windowTime(st) {
  const left = Math.max(0, st.deadline - st.server_time);
  const total = Math.max(left, st.snap_seconds || left);
  const bar = h("span", {});
  bar.style.transform = `scaleX(${total ? left / total : 0})`;
  if (left > 0 && bar.animate) {
    try { bar.animate([{ transform: `scaleX(${left / total})` }, { transform: "scaleX(0)" }], { duration: left * 1000, fill: "forwards" }); } catch (e) { /* ignore */ }
  }
  return h("span", { class: "pile-n window-secs", id: "window-time", role: "timer", "aria-live": "off" },
    h("span", { class: "window-time", "aria-hidden": "true" }, bar), t("ko.window_left", { s: Math.ceil(left) }));
}

function actionBar(view, opts, c) {
  const { parsed, verbs, targetVerbs, modeDecisions, canTake } = c;
  const ui = opts.ui;
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  const hint = {
    replace: t("ko.pick.replace"), take: t("ko.pick.take"), give: t("ko.pick.give"), snap: t("ko.pick.snap"),
  };
  if (ui.mode && !["snap", "replace", "give"].includes(ui.mode)) {          // the prompt says how
    let text = hint[ui.mode];
    const arity = Math.max(...modeDecisions.map((d) => d.args.length));
    if (ui.mode === "peek") text = arity > 1 ? t("ko.pick.peek2", { k: ui.picks.length }) : t("ko.pick.peek");
    if (ui.mode === "swap") text = view.awaiting === "action_swap" ? t("ko.pick.swap13") : t("ko.pick.swap", { k: ui.picks.length });
    bar.appendChild(h("p", { class: "sel-info", id: "pick-hint" }, "→ ", text));
  }
  const btn = (id, label, key, onclick, cls = "btn") => h("button", { type: "button", class: cls, id, data: { key: id }, onclick }, label, key ? h("kbd", {}, key) : null);
  const btns = h("div", { class: "btns" });
  if (verbs.has("draw")) btns.appendChild(btn("ko-draw", t("ko.btn.draw"), "D", () => opts.decide("draw"), "btn btn-primary"));
  if (canTake && ui.mode !== "take") btns.appendChild(btn("ko-take", t("ko.btn.take"), "T", () => { ui.mode = "take"; ui.picks = []; opts.rerender(); }));
  if (verbs.has("discard")) btns.appendChild(btn("ko-discard", t("ko.btn.discard"), "X", () => opts.decide("discard")));
  if (verbs.has("swap") && parsed.some((d) => d.verb === "swap" && !d.args.length)) btns.appendChild(btn("ko-swap", t("ko.btn.swap"), null, () => opts.decide("swap"), "btn btn-primary"));
  if (verbs.has("keep")) btns.appendChild(btn("ko-keep", t("ko.btn.keep"), null, () => opts.decide("keep")));
  if (verbs.has("skip")) btns.appendChild(btn("ko-skip", t("ko.btn.skip"), "N", () => opts.decide("skip")));
  if (verbs.has("pass")) btns.appendChild(btn("ko-pass", t("ko.btn.pass"), "N", () => opts.decide("pass"), "btn btn-primary"));
  if (verbs.has("hand-over")) btns.appendChild(btn("ko-hand-over", t("ko.btn.hand_over"), null, () => opts.decide("hand-over"), "btn btn-primary"));
  if (verbs.has("penalty")) btns.appendChild(btn("ko-penalty", t("ko.btn.penalty"), null, () => opts.decide("penalty")));
  if (verbs.has("kombio")) btns.appendChild(btn("ko-kombio", "◆ " + t("ko.btn.kombio"), "K", () => opts.decide("kombio")));
  if (ui.mode && ui.mode !== "snap" && (ui.picks.length || ui.mode === "take")) btns.appendChild(btn("ko-cancel", t("ko.btn.cancel"), "Esc", () => { ui.mode = null; ui.picks = []; opts.rerender(); }));
  if (btns.childNodes.length) bar.appendChild(btns);
  return bar;
}

/** The end of a round (KO-15): every grid revealed, each score explained, the totals; at a
 * table the next round waits for the players' "ready" (`summary.ready`, app.js). */
export function roundSummary(view, opts, summary = {}) {
  const lr = view.last_round;
  const n = view.players;
  const rows = view.round_scores || [];
  const before = (s) => rows.slice(0, lr.round - 1).reduce((a, r) => a + r[s], 0);
  const low = (s) => lr.caller !== null && lr.caller !== undefined && lr.sums.every((x, o) => o === lr.caller || lr.sums[lr.caller] < x);
  const callerAlone = low();
  const box = h("section", { class: "round-summary panel", id: "round-summary", "aria-labelledby": "rs-h" },
    h("h2", { id: "rs-h" }, t("ko.rs.title", { round: lr.round })),
    lr.caller !== null && lr.caller !== undefined
      ? h("p", { class: "rs-caller" }, withRefs(t(callerAlone ? "ko.rs.caller_low" : "ko.rs.caller_not_low", { name: plainName(opts, lr.caller) })))
      : h("p", { class: "rs-caller" }, withRefs(t("ko.rs.no_caller"))));
  const grids = h("div", { class: "rs-grids" });
  for (let s = 0; s < n; s++) {
    const g = lr.grids[s] || [];
    const cards = g.filter((v) => v !== null);
    const sum = lr.sums[s];
    const score = lr.scores[s];
    let why;
    if (!cards.length) why = t("ko.rs.empty");
    else if (score === sum + 15) why = t("ko.rs.plus15", { sum: num(sum), score: num(score) });
    else if (score === sum + 10) why = t("ko.rs.plus10", { sum: num(sum), score: num(score) });
    else why = t("ko.rs.sum", { sum: num(sum) });
    const total = before(s) + score;
    grids.appendChild(h("div", { class: "rs-seat", data: { seat: s, score, total } },
      h("h3", {}, nameOf(opts, s), s === lr.caller ? " ◆" : ""),
      h("div", { class: "rs-cards", role: "group", "aria-label": t("ko.grid_of", { name: plainName(opts, s) }) },
        cards.length ? cards.map((v) => cardEl(G, v, { size: "sm" })) : h("span", { class: "muted" }, "—")),
      h("p", { class: "rs-why" }, why),
      h("p", { class: "rs-why" }, h("span", { class: "rs-score" }, t("ko.rs.round_score", { score: signed(score) })), " · ",
        t("ko.rs.total", { before: num(before(s)), total: num(total) }))));
  }
  box.appendChild(grids);
  if (summary.final) return box;
  const ready = h("div", { class: "rs-ready" });
  if (summary.onReady) {
    ready.appendChild(h("button", { type: "button", class: "btn btn-primary", id: "ready-btn", onclick: summary.onReady }, t("ko.rs.ready", { round: lr.round + 1 })));
  } else if (summary.mine) {
    ready.appendChild(h("span", { class: "chip" }, "✓ ", t("ko.rs.you_ready")));
  }
  if (summary.waiting && summary.waiting.length) {
    ready.appendChild(h("span", { class: "muted", id: "rs-waiting" }, t("ko.rs.waiting", {
      names: listText(summary.waiting.map((s) => (s === opts.seat ? t("ko.rs.you") : plainName(opts, s))), t("list.and")) })));
  }
  if (summary.left !== undefined) ready.appendChild(h("span", { class: "muted", id: "rs-left" }, t("ko.rs.left", { s: summary.left })));
  if (ready.childNodes.length) box.appendChild(ready);
  return box;
}

/** The scores of every round and the totals: at the end of the game (`final`), or for the side
 * panel during it. */
export function scores(view, opts, final = false) {
  const n = view.players;
  const rounds = view.round_scores || [];
  const winners = view.winners || [];
  const box = h("section", { class: final ? "result panel" : "ko-scores", id: final ? "result" : "ko-scores", "aria-labelledby": final ? "scores-h" : "side-scores-h" });
  box.appendChild(h("h2", { id: final ? "scores-h" : "side-scores-h", class: final ? "" : "zone-h" }, final ? t("web.ko.sum.title") : t("ko.scores")));
  if (final) {
    const wn = winners.map((s) => plainName(opts, s));
    box.appendChild(h("p", { class: "winners", id: "winners" }, withRefs(t("web.ko.sum.winners", { n: wn.length, names: listText(wn, t("list.and")) }))));
  }
  const head = h("tr", {}, h("th", { scope: "col" }, t("ko.sum.player")), rounds.map((_, i) => h("th", { scope: "col" }, t("ko.round_n", { n: i + 1 }))),
    h("th", { scope: "col" }, t("web.ko.totals")));
  const body = [];
  for (let s = 0; s < n; s++) {
    body.push(h("tr", { class: winners.includes(s) ? "is-winner" : "", data: { seat: s } },
      h("th", { scope: "row" }, nameOf(opts, s), winners.includes(s) ? h("span", { class: "win-badge" }, " ★") : null),
      rounds.map((r) => h("td", {}, num(r[s]))),
      h("td", { class: "score", data: { score: view.totals[s] } }, h("strong", {}, num(view.totals[s])))));
  }
  const table = h("table", { class: final ? "score-table" : "", id: final ? "score-table" : "side-score-table" }, h("thead", {}, head), h("tbody", {}, body));
  // many rounds are wider than a phone or the side panel: the rounds scroll sideways, the names,
  // the latest rounds and the totals in view (kombio.css)
  box.appendChild(h("div", { class: "score-scroll", tabindex: "0", role: "region", "aria-labelledby": final ? "scores-h" : "side-scores-h" }, table));
  if (final) {
    const best = Math.min(...view.totals);
    if (view.totals.filter((x) => x === best).length > 1) box.appendChild(h("p", { class: "tiebreak", id: "tiebreak" }, "⚖ ", withRefs(t("ko.sum.tie"))));
  }
  return box;
}

/** The log line of an event for this page: in memory mode a peek of mine does not write the
 * value into the log (it shows in the grid for a moment only; as the terminal's --memory). */
export function logText(ev, state, table) {
  if (!memoryOn({ table }) || !state || state.seat === null || state.seat === undefined || ev.seat !== state.seat) return null;
  const m = ev.move;
  if (!m || m.kind !== "peek" || !m.args.cards.length) return null;
  const cards = m.args.cards.map(posKey);
  return t(cards.length > 1 ? "ko.log.peek2_memory" : "ko.log.peek_memory", { c1: cards[0], c2: cards[1] });
}

export function animHints(view, ev) {
  const m = ev.move;
  if (!m) return [];
  const c = m.args.cards || [];
  const slot = (x) => `slot-${x.seat}-${x.slot}`;
  switch (m.kind) {
    case "draw": return [{ from: "deck", to: "drawn" }];
    case "replace": return [{ from: "drawn", to: slot(c[0]) }, { from: slot(c[0]), to: "discard" }];
    case "discard": return [{ from: "drawn", to: "discard" }];
    case "take": return [{ from: "discard", to: slot(c[0]) }, { from: slot(c[0]), to: "discard" }];
    case "swap": return c.length === 2 ? [{ from: slot(c[0]), to: slot(c[1]) }, { from: slot(c[1]), to: slot(c[0]) }] : [];
    case "snap": return [{ from: slot(c[0]), to: "discard" }];
    default: return [];
  }
}

export function onKey(ev, ctx) {
  const k = ev.key.toLowerCase();
  const click = (id) => { const b = document.getElementById(id); if (b && !b.disabled) { b.click(); return true; } return false; };
  if (k === "escape") return click("ko-cancel");
  if (k === "d") return click("ko-draw");
  if (k === "t") return click("ko-take");
  if (k === "x") return click("ko-discard");
  if (k === "k") return click("ko-kombio");
  if (k === "n") return click("ko-pass") || click("ko-skip");
  return false;
}

export function onTick(ctx) {
  if (ctx.ui.nextHide && Date.now() >= ctx.ui.nextHide) { ctx.ui.nextHide = null; ctx.rerender(); }
}

/** The status bar's chips of this game (table.js): memory mode is on at this table. */
export function statusChips(table) {
  return memoryOn({ table }) ? [h("span", { class: "chip", id: "memory-chip", title: t("ko.memory_on", { s: MEMORY_SECS }) }, t("table.memory"))] : [];
}

/** Every clock tick (table.js): `left` seconds of the deadline (null: none), `breakLeft` of the
 * round break (null: none) on this game's own timers, the snap window's and the summary's. */
export function onClock({ left, breakLeft }) {
  const r = document.getElementById("rs-left");
  if (r && breakLeft !== null) r.textContent = t("ko.rs.left", { s: breakLeft });
  const w = document.getElementById("window-time");
  if (left !== null && w && w.lastChild && w.lastChild.nodeType === 3) w.lastChild.textContent = t("ko.window_left", { s: left });
}
