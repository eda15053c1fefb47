// i18n: the shared message catalog (src/cardtable/i18n/en.json and de.json, served at
// /i18n/<lang>.json), the same texts the terminal and the server's event words use, formatted
// by messages.js (ICU MessageFormat: placeholders and CLDR plural forms via Intl.PluralRules).
// API: t, getLang, setLang, onLang, addStrings. Both catalogs load before any module renders
// (a top-level await), so t() stays synchronous.
import { formatMessage } from "./messages.js";

const KEY = "cardtable.lang";
const LANGS = ["en", "de"];
const listeners = [];
let lang = null;

async function load(l) {
  const r = await fetch(`/i18n/${l}.json`, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`catalog ${l}: HTTP ${r.status}`);
  return r.json();
}

const STRINGS = {};
{
  const tables = await Promise.all(LANGS.map(load));
  LANGS.forEach((l, i) => { STRINGS[l] = tables[i]; });
}

function detect() {
  try {
    const stored = localStorage.getItem(KEY);
    if (LANGS.includes(stored)) return stored;
  } catch (e) { /* storage unavailable */ }
  const nav = (navigator.language || "en").toLowerCase();
  return nav.startsWith("de") ? "de" : "en";
}

export function getLang() {
  if (!lang) lang = detect();
  return lang;
}

export function setLang(next) {
  if (!LANGS.includes(next)) return;
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

// More texts at run time ({en: {...}, de: {...}}); the catalog is the place for new ones.
export function addStrings(table) {
  for (const l of Object.keys(table || {})) {
    STRINGS[l] = Object.assign(STRINGS[l] || {}, table[l]);
  }
}

export function t(key, params = {}) {
  const l = getLang();
  let s = STRINGS[l] && STRINGS[l][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  try {
    return formatMessage(String(s), l, params);
  } catch (e) {
    console.error(key, e);
    return String(s);
  }
}

// Numbers in the page's language (Intl.NumberFormat: "71,1" in German, "71.1" in English), one
// formatter per language and form, kept; a negative number with a real minus sign.
const numberFormats = new Map();
function numberFormat(lang, digits, style) {
  const k = `${lang}|${digits}|${style}`;
  let f = numberFormats.get(k);
  if (!f) {
    f = new Intl.NumberFormat(lang, { style, minimumFractionDigits: digits, maximumFractionDigits: digits });
    numberFormats.set(k, f);
  }
  return f;
}

/** `x` with `digits` decimals in the page's language ("−3,5" in German). */
export function formatNumber(x, digits = 0) {
  return numberFormat(getLang(), digits, "decimal").format(x).replace("-", "−");
}

/** A share (0..1) as a percentage in the page's language ("71,1 %" in German, "71.1%" in English). */
export function formatPercent(share, digits = 1) {
  return numberFormat(getLang(), digits, "percent").format(share).replace("-", "−");
}

// Dates and times in the page's language (Intl.DateTimeFormat: "Di., 14:00" in German, "Tue
// 14:00" in English), one formatter per language and form, kept.
const dateFormats = new Map();

/** A moment (epoch milliseconds or a Date) as the reader's weekday and time; with `far` its day
 * and month too. */
export function formatDateTime(at, far = false) {
  const l = getLang();
  const k = `${l}|${far}`;
  let f = dateFormats.get(k);
  if (!f) {
    const opts = far ? { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }
      : { weekday: "short", hour: "2-digit", minute: "2-digit" };
    f = new Intl.DateTimeFormat(l === "de" ? "de-DE" : "en-GB", opts);
    dateFormats.set(k, f);
  }
  return f.format(at);
}

// An engine's refusal (the server's error with reason_code and params) in the player's language;
// the server's English message when the catalog has no such code.
export function refusal(err) {
  if (err && err.reason_code && STRINGS.en["err." + err.reason_code] !== undefined) {
    return t("err." + err.reason_code, err.params || {});
  }
  return err ? err.message : "";
}
