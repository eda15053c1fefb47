// The rules of Abluxxen the browser reads to offer and explain a decision (the same reading as
// the engine, src/cardtable/abluxxen): a set's value, which top layers a set abluxxes (AB-8,
// AB-9, AB-20), which shadow stacks it may take (DU-4). No drawing here (abluxxen.js draws), and
// no notation: the decisions come from the server as JSON (docs/notation.md).
export function setValue(cards) {
  const nums = cards.filter((c) => c !== "X");
  return nums.length ? nums[0] : 14;
}

export function sortCards(cards) {
  return cards.slice().sort((a, b) => (a === "X" ? 99 : a) - (b === "X" ? 99 : b));
}

export function onesBeatTop(view, opts) {
  const o = (opts.table && opts.table.options) || {};
  if (o.ones_beat_top !== undefined && o.ones_beat_top !== null) return !!o.ones_beat_top;
  return view.variant === "expert";
}

/** Does a set of (size, value) abluxx a top layer? */
export function beats(size, value, layer, ones) {
  if (!layer || !layer.length || layer.length !== size) return false;
  const lv = setValue(layer);
  if (value > lv) return true;
  return ones && value === 1 && (lv === 13 || lv === 14);
}

/** The seats a set played by `seat` would abluxx, clockwise from the left neighbour (AB-8). */
export function wouldAbluxx(view, seat, cards, ones) {
  const out = [];
  const n = view.players;
  const size = cards.length;
  const value = setValue(cards);
  for (let k = 1; k < n; k++) {
    const s = (seat + k) % n;
    const layers = view.displays[s];
    if (!layers.length) continue;
    if (beats(size, value, layers[layers.length - 1], ones)) out.push(s);
  }
  return out;
}

/** DU-4 `shadow_partial` (on by default in the duel): from the view's options, else the
 * table's, else the default. */
export function shadowPartial(view, opts) {
  if (view.options && typeof view.options.shadow_partial === "boolean") return view.options.shadow_partial;
  const o = (opts.table && opts.table.options) || {};
  if (typeof o.shadow_partial === "boolean") return o.shadow_partial;
  return view.variant === "duel";
}

/** DU-4: the shadow stacks a set would shadowluxx: a lower number lying at least as many times
 * as the set has cards (`partial` off: exactly as many, a stack being taken whole). */
export function shadowOptions(view, cards, partial) {
  if (!view.shadow) return [];
  const value = setValue(cards);
  const n = cards.length;
  return view.shadow.filter((st) => st[0] < value && (st.length === n || (partial && st.length > n)));
}

/** The size of the set the active player just played (what a shadowluxx takes, DU-4). */
export function playedSize(view) {
  const layers = view.displays[view.active] || [];
  return layers.length ? layers[layers.length - 1].length : 1;
}
