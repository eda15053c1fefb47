// Tiny DOM helpers.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "data") for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = dv;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function announce(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  const p = document.createElement("p");
  p.textContent = text;
  live.appendChild(p);
  while (live.childNodes.length > 5) live.removeChild(live.firstChild);
}

export function listText(names, and) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + and + names[names.length - 1];
}

export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Animate a ghost copy of `node` (or a fresh element) from rect `from` to rect `to`. */
export function fly(node, from, to, ms = 380) {
  if (!from || !to || reducedMotion() || document.hidden) return;
  const layer = document.getElementById("fx-layer");
  if (!layer || layer.childNodes.length > 8) return;
  const g = node.cloneNode(true);
  g.classList.add("fx-ghost");
  g.removeAttribute("id");
  for (const c of g.querySelectorAll(".card-count, .card-check")) c.remove();
  // a ghost is a picture: no ids, data or names of the real cards
  for (const e of [g, ...g.querySelectorAll("*")]) {
    for (const a of [...e.attributes]) if (a.name.startsWith("data-") || a.name === "id" || a.name.startsWith("aria-")) e.removeAttribute(a.name);
  }
  const w = from.width || 40, hgt = from.height || 56;
  Object.assign(g.style, { left: from.left + "px", top: from.top + "px", width: w + "px", height: hgt + "px" });
  layer.appendChild(g);
  const dx = to.left + to.width / 2 - (from.left + w / 2);
  const dy = to.top + to.height / 2 - (from.top + hgt / 2);
  const anim = g.animate([
    { transform: "translate(0,0) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px,${dy}px) scale(0.9)`, opacity: 0.85 },
  ], { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  anim.onfinish = () => g.remove();
  anim.oncancel = () => g.remove();
  setTimeout(() => g.remove(), ms + 200);
}

/** A bare element with a class and a text (the replay builds with it). */
export function node(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined && text !== null) el.textContent = text;
  return el;
}
