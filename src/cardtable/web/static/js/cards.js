// Card elements drawn with CSS (no images). Shared with the replay viewer.
//
//   cardEl(game, value, opts) -> HTMLElement
//     game:  a game of games.js (Abluxxen: value 1..13 or "X" for a joker; Kombio: value -1..14,
//            "?" hidden, null an empty slot)
//     opts:  {size: "sm" | "md" | "lg", label: aria label (default: the card in words),
//             button: true -> a focusable <button>, onClick, selected, highlight, disabled,
//             back: true -> face down, count: a number shown on a face-down pile, cls: extra
//             classes, data: {key: value} data attributes, title}
import { t } from "./i18n.js";
import { GAMES } from "./games.js";

/** The action mark of a card value in its game (games.js `marks`), or undefined. */
const markOf = (game, value) => (GAMES[game] ? GAMES[game].marks[value] : undefined);

export function cardText(game, value) {
  if (value === "X" || (GAMES[game] && GAMES[game].joker !== null && value === GAMES[game].joker)) return t("card.joker");
  if (value === "?") return t("card.hidden");
  if (value === null || value === undefined) return t("card.empty");
  return String(value);
}

export function cardEl(game, value, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  if (opts.button) el.type = "button";
  el.classList.add("card", `card-${game}`, `card-${opts.size || "md"}`);
  const hidden = opts.back || value === "?";
  const empty = value === null || value === undefined;
  if (empty && !opts.back) {
    el.classList.add("card-empty");
  } else if (hidden) {
    el.classList.add("card-back");
    if (opts.count !== undefined) {
      const c = document.createElement("span");
      c.className = "card-count";
      c.textContent = String(opts.count);
      el.appendChild(c);
    }
  } else {
    const joker = value === "X";
    const v = joker ? "X" : String(value);
    el.classList.add(joker ? "card-joker" : `card-v${String(value).replace("-", "m")}`);
    // a 6 and a 9 are told apart upside down (the turned corner, a card seen across the table)
    if (value === 6 || value === 9) el.classList.add("card-under");
    el.dataset.value = v;
    const corner = document.createElement("span");
    corner.className = "card-corner";
    corner.textContent = joker ? "★" : v;
    const mid = document.createElement("span");
    mid.className = "card-num";
    mid.textContent = joker ? "X" : v;
    el.append(corner, mid);
    if (joker) {
      const s = document.createElement("span");
      s.className = "card-sub";
      s.textContent = t("card.joker");
      el.appendChild(s);
    } else if (markOf(game, value)) {
      const s = document.createElement("span");
      s.className = "card-sub card-action";
      s.textContent = markOf(game, value);
      s.setAttribute("aria-hidden", "true");
      el.appendChild(s);
    }
    const corner2 = corner.cloneNode(true);
    corner2.classList.add("card-corner-br");
    el.appendChild(corner2);
  }
  if (opts.selected) {
    el.classList.add("is-selected");
    const chk = document.createElement("span");
    chk.className = "card-check";
    chk.textContent = "✓";
    chk.setAttribute("aria-hidden", "true");
    el.appendChild(chk);
  }
  if (opts.highlight) el.classList.add("is-highlight");
  if (opts.cls) for (const c of [].concat(opts.cls)) if (c) el.classList.add(c);
  if (opts.data) for (const [k, v] of Object.entries(opts.data)) el.dataset[k] = v;
  const label = opts.label || (empty && !opts.back ? t("card.empty") : hidden ? t("card.hidden")
    : cardText(game, value));
  el.setAttribute("aria-label", opts.selected ? `${label}, ${t("card.selected")}` : label);
  if (opts.button) {
    if (opts.selected !== undefined) el.setAttribute("aria-pressed", opts.selected ? "true" : "false");
    if (opts.disabled) el.disabled = true;
    if (opts.onClick) el.addEventListener("click", opts.onClick);
  } else {
    el.setAttribute("role", "img");
  }
  if (opts.title) el.title = opts.title;
  return el;
}


/** "7 7 X" in words for screen readers and logs. */
export function cardsText(game, values) {
  return values.map((v) => cardText(game, v)).join(" ");
}
