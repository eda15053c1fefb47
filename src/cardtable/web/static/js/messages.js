// ICU MessageFormat, the subset of the shared catalog (src/cardtable/i18n/en.json, de.json;
// the Python side is cardtable/i18n/__init__.py, and tests/test_i18n.py checks that both give
// the same text for every message):
//   {name}                                      a placeholder
//   {n, plural, one {# card} other {# cards}}   plural forms by Intl.PluralRules; # = the number
//   {kind, select, bot {...} other {...}}       a choice by a word
// Apostrophes are plain text (no catalog message quotes a brace).

const CATEGORIES = new Set(["zero", "one", "two", "few", "many", "other"]);
const parsed = new Map();
const rules = new Map();

function pluralRules(lang) {
  let r = rules.get(lang);
  if (!r) { r = new Intl.PluralRules(lang); rules.set(lang, r); }
  return r;
}

// Parse msg from i up to an unmatched "}" (or the end): [parts, end index].
function parseFrom(msg, i, depth, inPlural) {
  const parts = [];
  let buf = "";
  const n = msg.length;
  while (i < n) {
    const c = msg[i];
    if (c === "}") {
      if (depth === 0) throw new SyntaxError(`unmatched } in ${msg}`);
      break;
    }
    if (c === "#" && inPlural) {
      if (buf) { parts.push(buf); buf = ""; }
      parts.push({ pound: true });
      i += 1;
      continue;
    }
    if (c !== "{") { buf += c; i += 1; continue; }
    if (buf) { parts.push(buf); buf = ""; }
    let close = i + 1;
    while (close < n && !"{},".includes(msg[close])) close += 1;
    const name = msg.slice(i + 1, close).trim();
    if (close < n && msg[close] === "}") {
      parts.push({ arg: name });
      i = close + 1;
      continue;
    }
    const kindEnd = msg.indexOf(",", close + 1);
    if (close >= n || kindEnd < 0) throw new SyntaxError(`bad argument in ${msg}`);
    const kind = msg.slice(close + 1, kindEnd).trim();
    if (kind !== "plural" && kind !== "select") throw new SyntaxError(`unknown type ${kind}`);
    let j = kindEnd + 1;
    const branches = {};
    for (;;) {
      while (j < n && /\s/.test(msg[j])) j += 1;
      if (j < n && msg[j] === "}") { j += 1; break; }
      let k = j;
      while (k < n && !/\s/.test(msg[k]) && msg[k] !== "{") k += 1;
      const selector = msg.slice(j, k);
      while (k < n && /\s/.test(msg[k])) k += 1;
      if (!selector || k >= n || msg[k] !== "{") throw new SyntaxError(`bad branch in ${msg}`);
      if (kind === "plural" && !CATEGORIES.has(selector) && !/^=\d+$/.test(selector)) {
        throw new SyntaxError(`unknown plural category ${selector}`);
      }
      const [body, end] = parseFrom(msg, k + 1, depth + 1, kind === "plural" || inPlural);
      if (end >= n || msg[end] !== "}") throw new SyntaxError(`unclosed branch in ${msg}`);
      branches[selector] = body;
      j = end + 1;
    }
    if (!("other" in branches)) throw new SyntaxError(`no "other" in ${msg}`);
    parts.push({ kind, name, branches });
    i = j;
  }
  if (buf) parts.push(buf);
  return [parts, i];
}

export function parseMessage(msg) {
  let p = parsed.get(msg);
  if (!p) { p = parseFrom(msg, 0, 0, false)[0]; parsed.set(msg, p); }
  return p;
}

function render(parts, lang, params, number) {
  let out = "";
  for (const p of parts) {
    if (typeof p === "string") out += p;
    else if (p.pound) out += String(number);
    else if (p.arg !== undefined) {
      out += Object.prototype.hasOwnProperty.call(params, p.arg) ? String(params[p.arg])
        : `{${p.arg}}`;
    } else {
      const value = params[p.name];
      let body;
      if (p.kind === "plural") {
        body = p.branches[`=${value}`] || p.branches[pluralRules(lang).select(Math.abs(value))]
          || p.branches.other;
        out += render(body, lang, params, value);
      } else {
        body = Object.prototype.hasOwnProperty.call(p.branches, String(value))
          ? p.branches[String(value)] : p.branches.other;
        out += render(body, lang, params, number);
      }
    }
  }
  return out;
}

// msg (ICU MessageFormat) with params filled in, plural forms chosen for lang.
export function formatMessage(msg, lang, params = {}) {
  return render(parseMessage(msg), lang, params, undefined);
}
