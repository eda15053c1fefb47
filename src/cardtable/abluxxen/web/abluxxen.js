// The Abluxxen table: renderAbluxxen(el, view, opts) draws a seat's view (NOTATION.md) and, unless
// opts.readonly, lets the player decide by clicking: only decisions in opts.decisions are offered.
//
// opts: {readonly, seat (the viewer's seat or null), decisions: [the server's decisions as JSON:
//        {text, kind, args}, docs/notation.md], names: [seat names], why: whose turn and why
//        (the server's line: the state message's or the replay step's), decide(text),
//        rerender(), ui: {} (kept between renders: the selected hand cards)}. A decision is read
//        from its kind and args and sent as its text; no text is taken apart or put together here.
import { t } from "/static/js/i18n.js";
import { h, listText } from "/static/js/dom.js";
import { cardEl, cardsText } from "/static/js/cards.js";
import { nameOf, plainName, num, seatStatus, seatMarks, ruleRef, withRefs } from "/static/js/seats.js";
import { setValue, sortCards, onesBeatTop, beats, wouldAbluxx, shadowPartial, shadowOptions, playedSize } from "./abluxxen-rules.js";
export { setValue, beats, wouldAbluxx, shadowOptions } from "./abluxxen-rules.js";   // the rules the client reads (AB-5, AB-8, AB-9, AB-20, DU-4)

const G = "abluxxen";
export { renderAbluxxen as render };          // the table and the replay draw through games.js
/** How cards.js draws this game's cards: a top layer of jokers alone has the value 14 (AB-9), no value has an action mark. */
export const cards = { joker: 14, marks: {} };

/** What a shadowluxx of `n` cards from stack `st` takes: "2× 5 (of 3)". */
function shadowTakeText(st, n) {
  return n < st.length ? t("ab.shadow_part", { n, v: st[0], m: st.length }) : `${st.length}× ${st[0]}`;
}

/** Two card lists alike, in the same order. */
function sameCards(a, b) {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** The decisions of a kind (and, for a draw, from "deck" or "pool"). */
function ofKind(decisions, kind, from) {
  return decisions.filter((d) => d.kind === kind && (from === undefined || d.args.from === from));
}

function handCount(view, s) {
  const hd = view.hands[s];
  if (Array.isArray(hd)) return hd.length;
  if (view.hand_counts) return view.hand_counts[s];
  return hd;
}

function displayCount(view, s) {
  return view.displays[s].reduce((a, l) => a + l.length, 0);
}

// -- who decides and why: the server's words (narration `web_why`), in opts.why ------------------
function prompt(view, opts, me) {
  const whoYou = me !== null && view.to_move === me && !view.over;
  return h("p", { class: "why" + (whoYou ? " why-you" : ""), id: "why" },
    whoYou ? h("span", { class: "why-mark", "aria-hidden": "true" }, "▶ ") : null, withRefs(opts.why || ""));
}

// -- rendering -----------------------------------------------------------------------------------------
export function renderAbluxxen(el, view, opts = {}) {
  opts = Object.assign({ decisions: [], ui: {}, readonly: false }, opts);
  if (!opts.names) opts.names = Array.from({ length: view.players }, (_, i) => t("seat.name", { n: i }));
  if (!opts.plainNames) opts.plainNames = opts.names;
  const ui = opts.ui;
  if (!ui.sel) ui.sel = [];
  const me = (opts.seat === null || opts.seat === undefined) ? null : opts.seat;
  const decisions = opts.readonly ? [] : (opts.decisions || []);
  const plays = ofKind(decisions, "play");
  const myHand = me !== null && Array.isArray(view.hands[me]) ? view.hands[me] : null;
  const canPlay = plays.length > 0;
  // keep the selection valid
  if (!canPlay || !myHand) ui.sel = [];
  ui.sel = ui.sel.filter((i) => myHand && i < myHand.length);
  const selCards = sortCards(ui.sel.map((i) => myHand[i]));
  const selDecision = selCards.length ? plays.find((d) => sameCards(sortCards(d.args.cards), selCards)) : null;
  const selText = selDecision ? selDecision.text : "";
  const selLegal = !!selDecision;
  const ones = onesBeatTop(view, opts);
  const victims = selLegal ? wouldAbluxx(view, me, selCards, ones) : [];
  const endsGame = selLegal && myHand && selCards.length === myHand.length;

  el.classList.add("ab-table");
  if (view.variant === "duel") el.classList.add("ab-duel");
  el.innerHTML = "";

  if (view.over) el.appendChild(result(view, opts));
  if (me === null) el.appendChild(prompt(view, opts, me));

  // the opponents, clockwise from my left neighbour (everyone in seat order for a spectator)
  const n = view.players;
  const order = [];
  if (me === null) for (let s = 0; s < n; s++) order.push(s);
  else for (let k = 1; k < n; k++) order.push((me + k) % n);
  const opp = h("div", { class: "opps", role: "list", "aria-label": t("table.others") });
  for (const s of order) opp.appendChild(seatPanel(view, s, opts, victims.includes(s)));
  el.appendChild(opp);

  // the middle: pool, deck, discard, shadow display
  el.appendChild(centre(view, opts, decisions));

  // my area: the prompt, my display, my hand and the decision's controls, together at the bottom
  if (me !== null) el.appendChild(myArea(view, me, opts, { decisions, myHand, selCards, selText, selLegal, victims, endsGame }));
}

function seatPanel(view, s, opts, wouldHit) {
  const active = !view.over && view.to_move === s;
  const pend = view.pending && view.pending.victim === s ? view.pending : null;
  const hc = handCount(view, s);
  const dc = displayCount(view, s);
  const panel = h("section", {
    class: "seat-panel" + (active ? " is-active" : "") + (wouldHit ? " would-hit" : "") + (view.winners && view.winners.includes(s) ? " is-winner" : ""),
    role: "listitem", "aria-label": nameOf(opts, s), data: { seat: s },
  },
  h("header", { class: "seat-head" },
    active ? h("span", { class: "turn-dot", title: t("table.turn_of", { name: plainName(opts, s) }) }, "▶") : null,
    seatMarks(opts, s), h("span", { class: "seat-name" }, nameOf(opts, s)),
    seatStatus(opts, s),
    h("span", { class: "hand-badge", data: { region: `hand-${s}` }, title: t("ab.hand_count", { n: hc }) },
      h("span", { class: "mini-back", "aria-hidden": "true" }), h("span", { class: "hand-n", "aria-hidden": "true" }, String(hc)),
      h("span", { class: "sr-only" }, t("ab.hand_count", { n: hc })))),
  );
  if (wouldHit) panel.appendChild(h("p", { class: "hit-flag" }, "⚡ ", t("ab.beats")));
  panel.appendChild(h("div", { class: "seat-body" }, displayEl(view, s, opts, "sm"), pend ? pendingEl(pend) : null));
  // a full view (replay) shows every hand
  if (Array.isArray(view.hands[s]) && s !== opts.seat) {
    panel.appendChild(h("div", { class: "seat-hand", role: "group", "aria-label": t("ab.hand_of", { name: plainName(opts, s) }) },
      view.hands[s].map((c) => cardEl(G, c, { size: "xs" }))));
  }
  panel.appendChild(h("p", { class: "seat-score muted" }, t("ab.score_now", { d: dc, h: hc, s: num(dc - hc) })));
  return panel;
}

function pendingEl(p) {
  return h("div", { class: "pending", role: "group", "aria-label": cardsText(G, p.cards) },
    h("span", { class: "pending-label" }, "⚡"), p.cards.map((c) => cardEl(G, c, { size: "sm", cls: "card-pending" })));
}

/** A display: its top layer (the only one that counts for abluxxing) and, under it, the edge of
 * the older layers with their number. */
function displayEl(view, s, opts, size) {
  const layers = view.displays[s];
  const box = h("div", { class: "display", data: { region: `display-${s}` }, role: "group",
    "aria-label": layers.length ? `${t("ab.display_of", { name: plainName(opts, s) })}: ${t("ab.top_layer", { cards: cardsText(G, layers[layers.length - 1]) })}, ${t("ab.layers", { n: layers.length })}`
      : `${t("ab.display_of", { name: plainName(opts, s) })}: ${t("ab.empty_display")}` });
  if (!layers.length) {
    box.appendChild(h("div", { class: "display-empty" }, t("ab.empty_display")));
    return box;
  }
  const top = layers[layers.length - 1];
  const v = setValue(top);
  box.appendChild(h("div", { class: "layer layer-top" }, top.map((c) => cardEl(G, c, { size }))));
  const under = layers.length - 1;
  box.appendChild(h("span", { class: "layer-under", "aria-hidden": "true" },
    under ? h("span", { class: "pile-edge" }) : null,
    h("span", {}, h("span", { class: "top-tag" }, `${top.length}×${v === 14 ? "X" : v}`),
      under ? h("br") : null, under ? t("ab.under", { n: under }) : null)));
  return box;
}

function centre(view, opts, decisions) {
  const fromPool = ofKind(decisions, "draw", "pool");
  const mid = h("div", { class: "centre ab-centre" });
  const pool = h("section", { class: "pool", "aria-labelledby": "pool-h" },
    h("h3", { id: "pool-h", class: "zone-h" }, t("ab.pool")));
  const items = h("div", { class: "pool-items" });
  view.pool.forEach((item, i) => {
    const d = fromPool.find((x) => sameCards(x.args.cards, item));
    const can = !!d;
    const label = `${t("ab.pool")}: ${cardsText(G, item)}`;
    if (item.length === 1) {
      items.appendChild(cardEl(G, item[0], { size: "md", button: can, cls: can ? "can-pick" : null, label,
        data: { region: `pool-${i}`, key: `pool-${i}`, decision: can ? d.text : "" },
        onClick: can ? () => opts.decide(d.text) : null }));
    } else {
      const grp = h(can ? "button" : "div", { type: can ? "button" : null, class: "pool-group" + (can ? " can-pick" : ""), "aria-label": label,
        data: { region: `pool-${i}`, key: `pool-${i}`, decision: can ? d.text : "" },
        onclick: can ? () => opts.decide(d.text) : null },
      item.map((c) => cardEl(G, c, { size: "sm" })));
      items.appendChild(grp);
    }
  });
  if (!view.pool.length) items.appendChild(h("p", { class: "muted" }, "—"));
  pool.appendChild(items);
  mid.appendChild(pool);

  const deckD = ofKind(decisions, "draw", "deck")[0];
  const canDeck = !!deckD;
  const deck = h("section", { class: "piles" },
    h("div", { class: "pile" },
      h("h3", { class: "zone-h" }, t("ab.deck")),
      view.deck > 0 ? cardEl(G, "?", { back: true, size: "md", count: view.deck, button: canDeck, cls: canDeck ? "can-pick" : null,
        label: `${t("ab.deck")}: ${t("ab.cards_n", { n: view.deck })}`, data: { region: "deck", key: "deck", decision: canDeck ? deckD.text : "" },
        onClick: canDeck ? () => opts.decide(deckD.text) : null }) : h("div", { class: "card card-md card-empty", data: { region: "deck" }, "aria-label": `${t("ab.deck")}: 0` }),
      h("span", { class: "pile-n pile-deck-n" }, t("ab.cards_n", { n: view.deck })),
      h("span", { class: "pile-n pile-discard-n" }, t("ab.discarded", { n: view.discard }))),
    h("div", { class: "pile pile-discard" },
      h("h3", { class: "zone-h" }, t("ab.discard")),
      h("div", { class: "card card-md " + (view.discard ? "card-back card-discard" : "card-empty"), data: { region: "discard" }, role: "img",
        "aria-label": `${t("ab.discard")}: ${t("ab.cards_n", { n: view.discard })}` }, view.discard ? h("span", { class: "card-count" }, String(view.discard)) : null),
      h("span", { class: "pile-n" }, t("ab.cards_n", { n: view.discard }))));
  mid.appendChild(deck);

  if (view.shadow) {
    const shadowBy = new Map(ofKind(decisions, "shadow").map((d) => [d.args.value, d]));
    const sh = h("section", { class: "shadow", "aria-labelledby": "shadow-h", data: { region: "shadow" } },
      h("h3", { id: "shadow-h", class: "zone-h" }, t("ab.shadow")));
    const stacks = h("div", { class: "shadow-stacks" });
    for (const st of view.shadow) {
      const sd = shadowBy.get(st[0]);
      const can = !!sd;
      const d = can ? sd.text : "";
      const label = `${t("ab.shadow")}: ${can ? shadowTakeText(st, Math.min(playedSize(view), st.length)) : `${st.length}× ${st[0]}`}`;
      stacks.appendChild(h(can ? "button" : "div", { type: can ? "button" : null, class: "shadow-stack" + (can ? " can-pick" : ""),
        "aria-label": label, data: { key: `sh-${st[0]}`, decision: can ? d : "" }, onclick: can ? () => opts.decide(d) : null },
      st.map((c) => cardEl(G, c, { size: "xs" })), h("span", { class: "stack-n" }, `${st.length}×`)));
    }
    sh.appendChild(stacks);
    mid.appendChild(sh);
  }
  // the rule newcomers get wrong, always in sight (short on a phone)
  mid.appendChild(h("p", { class: "rule-hint", id: "rule-hint" },
    h("span", { class: "rule-icon", "aria-hidden": "true" }, "i"), " ",
    h("strong", { class: "rule-long" }, t("ab.rule_hint")), h("strong", { class: "rule-short" }, t("ab.rule_short")), ruleRef(G, "AB-8")));
  return mid;
}

function myArea(view, me, opts, c) {
  const { decisions, myHand, selCards, selText, selLegal, victims, endsGame } = c;
  const has = (kind) => decisions.some((d) => d.kind === kind);
  const ui = opts.ui;
  const active = view.to_move === me && !view.over;
  const area = h("section", { class: "my-area" + (active ? " is-active" : ""), "aria-label": t("ab.your_area"), id: "my-area", tabindex: "-1" });
  const hc = handCount(view, me);
  const dc = displayCount(view, me);
  // the head: my name, my display (its top layer) and my score in one line
  const disp = h("div", { class: "my-display" }, h("h3", { class: "zone-h" }, t("ab.your_display")), displayEl(view, me, opts, "sm"),
    view.pending && view.pending.victim === me ? pendingEl(view.pending) : null);
  area.appendChild(h("div", { class: "my-head" },
    h("h2", { class: "my-name" }, nameOf(opts, me)), disp,
    h("span", { class: "muted my-score" }, h("span", { class: "score-long" }, t("ab.score_now", { d: dc, h: hc, s: num(dc - hc) })),
      h("span", { class: "score-short", "aria-hidden": "true" }, `= ${num(dc - hc)}`))));
  area.appendChild(prompt(view, opts, me));
  const row = h("div", { class: "my-row" });

  // the hand, grouped by number, jokers last; the cards of a group fanned
  const canPlay = has("play");
  const hand = h("div", { class: "hand", data: { region: `hand-${me}` }, role: "group", "aria-label": `${t("ab.your_hand")}: ${t("ab.hand_count", { n: hc })}` });
  const groups = [];
  (myHand || []).forEach((v, i) => {
    const g = groups.length && groups[groups.length - 1].v === v ? groups[groups.length - 1] : null;
    if (g) g.idx.push(i); else groups.push({ v, idx: [i] });
  });
  for (const g of groups) {
    const ge = h("div", { class: "hand-group" + (g.v === "X" ? " hand-jokers" : ""), role: "group",
      "aria-label": `${g.idx.length}× ${g.v === "X" ? t("card.joker") : g.v}` });
    if (g.idx.length > 4) ge.style.setProperty("--fan", "12px");      // CSSOM: no inline style attribute (CSP)
    for (const i of g.idx) {
      const sel = ui.sel.includes(i);
      ge.appendChild(cardEl(G, g.v, {
        size: "lg", button: true, selected: canPlay ? sel : undefined, disabled: !canPlay,
        label: g.v === "X" ? t("card.joker_hand") : t("card.of_hand", { v: g.v }),
        data: { key: `h-${i}`, idx: String(i) },
        onClick: () => {
          const k = ui.sel.indexOf(i);
          if (k >= 0) ui.sel.splice(k, 1); else ui.sel.push(i);
          opts.rerender();
        },
      }));
    }
    if (g.idx.length > 1) ge.appendChild(h("span", { class: "group-n", "aria-hidden": "true" }, `${g.idx.length}×`));
    hand.appendChild(ge);
  }
  if (!myHand || !myHand.length) hand.appendChild(h("p", { class: "muted" }, "—"));
  row.appendChild(h("div", { class: "my-hand" }, h("h3", { class: "zone-h" }, `${t("ab.your_hand")} · ${t("ab.hand_count", { n: hc })}`), hand));
  area.appendChild(row);

  // the decision's controls
  const bar = h("div", { class: "action-bar", id: "action-bar" });
  if (canPlay) {
    let info;
    if (!selCards.length) info = h("p", { class: "sel-info muted", id: "sel-info" }, h("span", { class: "hint-long" }, t("ab.select_hint")),
      h("span", { class: "hint-short" }, t("ab.select_hint_short")));
    else if (!selLegal) info = h("p", { class: "sel-info sel-bad", role: "status", id: "sel-info" }, "✗ ", t("ab.sel_illegal", { set: cardsText(G, selCards) }));
    else {
      const v = setValue(selCards);
      const parts = [t("ab.sel_legal", { set: cardsText(G, selCards), size: selCards.length, value: v === 14 ? "14 (" + t("card.joker") + ")" : v })];
      if (endsGame) parts.push(t("ab.would_end"));
      else {
        const sh = shadowOptions(view, selCards, shadowPartial(view, opts));
        if (sh.length) parts.push(t("ab.would_shadow", { options: listText(sh.map((st) => shadowTakeText(st, selCards.length)), t("list.or")) }));
        parts.push(victims.length ? t("ab.would_abluxx", { names: listText(victims.map((s) => plainName(opts, s)), t("list.and")) })
          : t("ab.would_abluxx_none"));
      }
      info = h("p", { class: "sel-info sel-ok", role: "status", id: "sel-info", data: { ends: endsGame ? "1" : "" } }, "✓ ", withRefs(parts.join(" ")));
    }
    bar.append(info, h("div", { class: "btns" },
      h("button", { type: "button", class: "btn btn-primary", id: "play-btn", disabled: !selLegal, data: { key: "play" },
        onclick: () => { if (selLegal) { opts.decide(selText); opts.ui.sel = []; } } }, t("ab.play"), h("kbd", {}, "P")),
      h("button", { type: "button", class: "btn", id: "clear-btn", disabled: !selCards.length, data: { key: "clear" },
        onclick: () => { ui.sel = []; opts.rerender(); } }, t("ab.clear"), h("kbd", {}, "C"))));
  }
  const deckD = ofKind(decisions, "draw", "deck")[0];
  if (has("draw")) {
    bar.append(h("p", { class: "sel-info draw-hint" }, t("ab.draw_hint")), h("div", { class: "btns" },
      deckD ? h("button", { type: "button", class: "btn btn-primary", id: "draw-deck-btn", data: { key: "draw-deck", decision: deckD.text },
        onclick: () => opts.decide(deckD.text) }, t("ab.draw_deck"), h("kbd", {}, "D")) : null,
      has("pass") ? h("button", { type: "button", class: "btn", id: "pass-btn", data: { key: "pass", decision: "pass" },
        onclick: () => opts.decide("pass") }, t("ab.pass"), h("kbd", {}, "N")) : null));
  } else if (has("pass")) {
    bar.append(h("div", { class: "btns" }, h("button", { type: "button", class: "btn", id: "pass-btn", data: { key: "pass", decision: "pass" },
      onclick: () => opts.decide("pass") }, t("ab.pass"), h("kbd", {}, "N"))));
  }
  if (has("take") || has("keep") || has("shadow")) {
    bar.appendChild(dialog(view, opts, decisions));
  }
  if (!opts.readonly && bar.childNodes.length) {
    area.appendChild(bar);
    area.appendChild(h("p", { class: "keys-help muted" }, t("ab.keys")));
  }
  return area;
}

function dialog(view, opts, decisions) {
  const p = view.pending;
  const box = h("div", { class: "dialog", role: "dialog", "aria-modal": "false", "aria-labelledby": "dlg-text", id: "decision-dialog" });
  if (ofKind(decisions, "take").length) {
    box.append(h("p", { id: "dlg-text" }, t("ab.dlg.take", { victim: plainName(opts, p.victim), cards: cardsText(G, p.cards), n: p.cards.length })),
      h("div", { class: "dlg-cards" }, p.cards.map((c) => cardEl(G, c, { size: "md" }))),
      h("div", { class: "btns" },
        h("button", { type: "button", class: "btn btn-primary", id: "take-btn", data: { key: "take", decision: "take" }, onclick: () => opts.decide("take") }, t("ab.take"), h("kbd", {}, "T")),
        h("button", { type: "button", class: "btn", id: "leave-btn", data: { key: "leave", decision: "leave" }, onclick: () => opts.decide("leave") }, t("ab.leave"), h("kbd", {}, "L"))));
  } else if (ofKind(decisions, "keep").length) {
    box.append(h("p", { id: "dlg-text" }, t("ab.dlg.keep", { cards: cardsText(G, p.cards), n: p.cards.length })),
      h("div", { class: "dlg-cards" }, p.cards.map((c) => cardEl(G, c, { size: "md" }))),
      h("div", { class: "btns" },
        h("button", { type: "button", class: "btn btn-primary", id: "keep-btn", data: { key: "keep", decision: "keep" }, onclick: () => opts.decide("keep") }, t("ab.keep"), h("kbd", {}, "K")),
        h("button", { type: "button", class: "btn", id: "discard-btn", data: { key: "discard", decision: "discard" }, onclick: () => opts.decide("discard") }, t("ab.discard_btn"), h("kbd", {}, "X"))));
  } else {
    // DU-4: as many cards of the chosen number as the set just played has (maybe part of a stack)
    const n = playedSize(view);
    box.append(h("p", { id: "dlg-text" }, withRefs(t("ab.dlg.shadow", { n }))),
      h("div", { class: "btns" }, ofKind(decisions, "shadow").map(({ text: d, args }) => {
        const v = args.value;
        const st = (view.shadow || []).find((x) => x[0] === v) || [v];
        const take = Math.min(n, st.length);
        const what = shadowTakeText(st, take);
        return h("button", { type: "button", class: "btn shadow-btn", "aria-label": what, title: what,
          data: { key: d, decision: d, take: String(take) }, onclick: () => opts.decide(d) },
        st.slice(0, take).map((c) => cardEl(G, c, { size: "xs" })),
        take < st.length ? h("span", { class: "stack-n" }, t("ab.of_n", { m: st.length })) : null);
      })));
  }
  return box;
}

function result(view, opts) {
  const n = view.players;
  const scores = view.scores || [];
  const winners = view.winners || [];
  const rows = [];
  for (let s = 0; s < n; s++) {
    const d = displayCount(view, s), hc = handCount(view, s);
    rows.push(h("tr", { class: winners.includes(s) ? "is-winner" : "", data: { seat: s } },
      h("th", { scope: "row" }, nameOf(opts, s), winners.includes(s) ? h("span", { class: "win-badge" }, " ★ ", t("ab.sum.winner")) : null),
      h("td", {}, `+${d}`), h("td", {}, hc ? `−${hc}` : "0"), h("td", { class: "score", data: { score: scores[s] } }, num(scores[s]))));
  }
  const wn = winners.map((s) => plainName(opts, s));
  const lines = [];
  if (view.ended_by === "hand") {
    let who = view.active;
    if (who === null || who === undefined) for (let s = 0; s < n; s++) if (handCount(view, s) === 0) who = s;
    lines.push(t("web.ab.sum.end_hand", { name: plainName(opts, who) }));
  } else if (view.ended_by === "supply") lines.push(t("web.ab.sum.end_supply"));
  const best = Math.max(...scores);
  const tied = [];
  for (let s = 0; s < n; s++) if (scores[s] === best) tied.push(s);
  let tie = null;
  if (tied.length > 1) {
    const tiedText = listText(tied.map((s) => t("ab.sum.with_hand", { name: plainName(opts, s), n: handCount(view, s) })), t("list.and"));
    if (winners.length < tied.length) tie = t("ab.sum.tie_fewer", { score: best, tied: tiedText });
    else if (view.variant === "classic") tie = t("ab.sum.tie_shared", { score: best, tied: listText(tied.map((s) => plainName(opts, s)), t("list.and")) });
    else tie = t("ab.sum.tie_still", { score: best, tied: tiedText });
  }
  return h("section", { class: "result panel", id: "result", "aria-labelledby": "result-h" },
    h("h2", { id: "result-h" }, t("ab.sum.title")),
    h("p", { class: "winners", id: "winners" }, t("ab.sum.winners", { n: wn.length, names: listText(wn, t("list.and")) })),
    h("table", { class: "score-table", id: "score-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("ab.sum.player")), h("th", { scope: "col" }, t("ab.sum.display")),
        h("th", { scope: "col" }, t("ab.sum.hand")), h("th", { scope: "col" }, t("ab.sum.score")))),
      h("tbody", {}, rows)),
    tie ? h("p", { class: "tiebreak", id: "tiebreak" }, "⚖ ", withRefs(tie)) : null,
    lines.map((l) => h("p", { class: "muted" }, withRefs(l))),
    h("p", { class: "muted" }, withRefs(t("ab.sum.scoring"))));
}

// -- animations: where the cards of an event come from and go to (regions of the page) ----------
export function animHints(view, ev, me) {
  const m = ev.move;
  if (!m) return [];
  const s = ev.seat;
  // `cards`: what flies, when it is known (a played set is public; another seat's draw is not)
  if (m.kind === "play") return [{ from: `hand-${s}`, to: `display-${s}`, cards: m.args.cards }];
  if (m.kind === "draw" && m.args.from === "deck") return [{ from: "deck", to: `hand-${s}`, back: true }];
  if (m.kind === "draw") {
    const i = view.pool.findIndex((it) => sameCards(it, m.args.cards));
    return [{ from: i >= 0 ? `pool-${i}` : "deck", to: `hand-${s}`, cards: m.args.cards }];
  }
  if (m.kind === "shadow") return [{ from: "shadow", to: `hand-${s}` }];
  const p = view.pending;
  if (p) {
    if (m.kind === "take") return [{ from: `display-${p.victim}`, to: `hand-${s}`, cards: p.cards }];
    if (m.kind === "keep") return [{ from: `display-${p.victim}`, to: `hand-${p.victim}`, cards: p.cards }];
    if (m.kind === "discard") return [{ from: `display-${p.victim}`, to: "discard", cards: p.cards }];
  }
  return [];
}

// -- keyboard shortcuts ---------------------------------------------------------------------------------
export function onKey(ev, ctx) {
  const st = ctx.state;
  const decisions = st.decisions || [];
  // a key's decision: the one of its kind (a draw from the deck), sent as its text
  const send = (kind, from) => {
    const d = ofKind(decisions, kind, from)[0];
    if (d) ctx.decide(d.text);
    return !!d;
  };
  const k = ev.key.toLowerCase();
  const click = (id) => { const b = document.getElementById(id); if (b && !b.disabled) { b.click(); return true; } return false; };
  if (k === "escape" || k === "c") { if (ctx.ui.sel && ctx.ui.sel.length) { ctx.ui.sel = []; ctx.rerender(); return true; } return false; }
  if (k === "p") return click("play-btn");
  if (k === "d") return send("draw", "deck");
  if (k === "n") return send("pass");
  if (k === "t") return send("take");
  if (k === "l") return send("leave");
  if (k === "k") return send("keep");
  if (k === "x") return send("discard");
  return false;
}
