// i18n: English and German strings for the whole browser client.
// API (shared with replay.js / rules.js): t, getLang, setLang, onLang, addStrings.
import { EN, DE } from "./strings.js";

const KEY = "cardtable.lang";
const STRINGS = { en: Object.assign({}, EN), de: Object.assign({}, DE) };
const listeners = [];
let lang = null;

function detect() {
  try {
    const stored = localStorage.getItem(KEY);
    if (stored === "en" || stored === "de") return stored;
  } catch (e) { /* storage unavailable */ }
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("de") ? "de" : "en";
}

export function getLang() {
  if (!lang) lang = detect();
  return lang;
}

export function setLang(next) {
  if (next !== "en" && next !== "de") return;
  lang = next;
  try { localStorage.setItem(KEY, next); } catch (e) { /* ignore */ }
  document.documentElement.lang = next;
  for (const cb of listeners.slice()) {
    try { cb(next); } catch (e) { console.error(e); }
  }
}

export function onLang(callback) {
  listeners.push(callback);
  return () => {
    const i = listeners.indexOf(callback);
    if (i >= 0) listeners.splice(i, 1);
  };
}

export function addStrings(table) {
  for (const l of Object.keys(table || {})) {
    STRINGS[l] = Object.assign(STRINGS[l] || {}, table[l]);
  }
}

export function t(key, params = {}) {
  const l = getLang();
  let s = (STRINGS[l] && STRINGS[l][key]);
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) s = key;
  return String(s).replace(/\{(\w+)\}/g, (m, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m);
}
