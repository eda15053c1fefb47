// The table's animations: cards fly from the place they left to the place they went (the game
// module's animHints name the places of an event, data-region on the board). `S` is the table
// page's state (table.js): its pendingFx, its table's game.
import { h, clear, fly } from "./dom.js";
import { cardEl } from "./cards.js";

/** Where each place of the board ([data-region]) is now, with a copy of the card lying there. */
export function captureRects(root) {
  const out = {};
  for (const n of root.querySelectorAll("[data-region]")) {
    const card = n.classList.contains("card") ? n : n.querySelector(".card");
    out[n.dataset.region] = { rect: n.getBoundingClientRect(), node: card ? card.cloneNode(true) : null };
  }
  return out;
}

/** Cards fly from where they were to where they went: the cards of the event when it names
 * them (a played set, a pool card), else a copy of what lay there. A region is a place, so
 * the flight starts where that place is now: a panel that opened above the board (a round's
 * summary, the final score) moves the board down, and a card must not start from the panel.
 * A place that is gone (the drawn card) starts from where it was, moved as far as the deck;
 * cards still flying from an earlier move land where the board was, so they are put away. */
export function runFx(root, S, before) {
  const deckEl = root.querySelector('[data-region="deck"]');
  const deckNow = deckEl && before.deck ? deckEl.getBoundingClientRect() : null;
  const dx = deckNow ? deckNow.left - before.deck.rect.left : 0;
  const dy = deckNow ? deckNow.top - before.deck.rect.top : 0;
  const layer = document.getElementById("fx-layer");
  if (layer && (dx || dy)) clear(layer);
  const fx = S.pendingFx.splice(0);
  if (!fx.length || !S.table) return;
  for (const f of fx.slice(-4)) {
    const a = before[f.from];
    const bEl = root.querySelector(`[data-region="${CSS.escape(f.to)}"]`);
    if (!a || !bEl) continue;
    let node = a.node || document.createElement("div");
    let size = { w: 44, h: 62 };
    if (f.cards && f.cards.length) {
      node = h("div", {}, f.cards.map((c) => cardEl(S.table.game, c, { size: "sm" })));
      size = { w: f.cards.length * 36, h: 48 };
    } else if (f.back) {
      node = cardEl(S.table.game, "?", { back: true, size: "sm" });
      size = { w: 34, h: 48 };
    }
    const aEl = root.querySelector(`[data-region="${CSS.escape(f.from)}"]`);
    const r = aEl ? aEl.getBoundingClientRect()
      : { left: a.rect.left + dx, top: a.rect.top + dy, width: a.rect.width, height: a.rect.height };
    const from = { left: r.left + r.width / 2 - size.w / 2, top: r.top + r.height / 2 - size.h / 2, width: size.w, height: size.h };
    fly(node, from, bEl.getBoundingClientRect());
  }
}
