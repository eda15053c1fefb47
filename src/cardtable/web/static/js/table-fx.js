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
  if (layer) { clipCaptions(layer, root); followWhileFlying(layer, root); }
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

/** The words on the page's table (the status bar, names, counts, slot numbers, the "why" line,
 * headings: every text outside a card) as boxes of the window, each a little larger. */
export function captionBoxes(root) {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.data.trim() && !n.parentElement.closest(".card, .sr-only") && shown(n.parentElement)
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  const range = document.createRange();
  for (let n = walker.nextNode(); n && out.length < 400; n = walker.nextNode()) {
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) {
      if (r.width && r.height && r.bottom > 0 && r.top < innerHeight) out.push({ left: r.left - 2, top: r.top - 1, right: r.right + 2, bottom: r.bottom + 1 });
    }
  }
  return out;
}

/** Whether an element is seen (a closed panel's words, hidden or transparent, need no hole). */
function shown(el) {
  return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) : true;
}

/** The union of boxes as boxes that do not overlap (an even-odd clip would paint where two
 * holes overlap): bands between the boxes' edges, the overlapping spans of each band merged. */
export function disjoint(boxes) {
  const ys = [...new Set(boxes.flatMap((b) => [b.top, b.bottom]))].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i + 1 < ys.length; i++) {
    const top = ys[i], bottom = ys[i + 1];
    const spans = boxes.filter((b) => b.top <= top && b.bottom >= bottom).sort((a, b) => a.left - b.left);
    let cur = null;
    for (const b of spans) {
      if (cur && b.left <= cur.right) cur.right = Math.max(cur.right, b.right);
      else { if (cur) out.push(cur); cur = { left: b.left, right: b.right, top, bottom }; }
    }
    if (cur) out.push(cur);
  }
  return out;
}

/** While cards fly, the clip follows the words on every frame (the board may scroll to the
 * player's decision, the status bar's clock may change its height: the words move without a
 * drawing). */
function followWhileFlying(layer, root) {
  if (layer.dataset.following) return;
  layer.dataset.following = "1";
  const frame = () => {
    if (root.isConnected) clipCaptions(layer, root);
    if (layer.childElementCount && root.isConnected) requestAnimationFrame(frame);
    else delete layer.dataset.following;
  };
  requestAnimationFrame(frame);
}

/** Cards in flight never cover words: the animation layer is clipped to the window with a hole
 * at each caption (even-odd: the holes must not overlap), so a card passes under the text, which
 * stays readable. */
export function clipCaptions(layer, root) {
  const px = (x) => Math.round(x * 10) / 10;      // a path's coordinate (CSS: never a locale's)
  const box = (r) => `M${px(r.left)} ${px(r.top)}H${px(r.right)}V${px(r.bottom)}H${px(r.left)}Z`;
  const d = [box({ left: 0, top: 0, right: innerWidth, bottom: innerHeight }), ...disjoint(captionBoxes(root)).map(box)].join("");
  layer.style.clipPath = `path(evenodd, "${d}")`;
}
