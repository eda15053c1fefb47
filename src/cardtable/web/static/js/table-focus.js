// Where the keyboard is on the table page (table.js): in the table (on a control of the board,
// kept there across redraws, on the same control if it is still there) or elsewhere on the page
// (left there). `P` is the page (table.js); S.kbInBoard and S.kbKey remember where it was.

/** Whether the keyboard is in the table before a redraw, and the key (data-key) of its control:
 * on a control of the board, or lost to the page's body by a control that went away since
 * (the player did not go elsewhere: see kbInBoard). */
export function focusInBoard(P) {
  const { S, boardEl } = P;
  const active = document.activeElement;
  const hadFocus = !!active && (boardEl.contains(active)
    || (S.kbInBoard && (active === document.body || active === document.documentElement)));
  const focusKey = hadFocus && boardEl.contains(active) && active.dataset ? active.dataset.key
    : (hadFocus ? S.kbKey : null);
  return { hadFocus, focusKey };
}

/** Keep the keyboard in the table after a redraw: the same control if it is still there and
 * can still take the focus (a pool card is a button only while it may be drawn), else the
 * decision's first control, else the hand, else the player's own area, else the board. */
export function restoreFocus(P, key) {
  const { boardEl } = P;
  const same = key ? [...boardEl.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)] : [];
  const candidates = same.concat(
    [...boardEl.querySelectorAll("#action-bar button:not(:disabled), #ready-btn, .hand button.card:not(:disabled), button.can-pick")],
    [...boardEl.querySelectorAll("#my-area")], [boardEl]);
  for (const el of candidates) {
    if (!canFocus(el)) continue;
    el.focus({ preventScroll: true });
    if (document.activeElement === el) return;
  }
}

/** An element the keyboard can be put on: a control or a tabindex, enabled, shown, not inert. */
function canFocus(el) {
  if (!el || el.disabled || el.closest("[inert], [hidden]")) return false;
  if (!(el.tabIndex >= 0 || el.hasAttribute("tabindex"))) return false;
  return el.getClientRects().length > 0;
}

/** The keyboard moved: into the table (and onto which control) or elsewhere. */
export function onFocusIn(P, ev) {
  const { S, boardEl } = P;
  const inBoard = boardEl.contains(ev.target);
  if (ev.target === document.body) return;
  S.kbInBoard = inBoard;
  S.kbKey = inBoard && ev.target.dataset ? ev.target.dataset.key || null : null;
}
