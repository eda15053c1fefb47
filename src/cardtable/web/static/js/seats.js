// What the two game tables share about seats and words: names as players count them (seat 1 is
// the first seat), the presence of a seat's player, links to a rule, and numbers with a real
// minus sign.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { CLAUSE_ALT, gameOfClause } from "./games.js";
import { personMarks } from "./person.js";

/** Display names of the seats (the server's event texts use the same): the player's name,
 * "Bot 2" or "Seat 3"; seats are counted from 1. */
export function seatNames(seats) {
  return seats.map((s) => {
    if (s.kind === "bot") return t("seat.bot", { n: s.seat + 1 });
    return s.name || t("seat.name", { n: s.seat + 1 });
  });
}

export function nameOf(opts, s) { return (opts.names && opts.names[s]) || t("seat.name", { n: s + 1 }); }

/** A name without the "(You)" suffix, for sentences. */
export function plainName(opts, s) { return (opts.plainNames && opts.plainNames[s]) || nameOf(opts, s); }

/** The avatar and flag of a seat's person (opts.people: {seat: identity}; null: none). */
export function seatMarks(opts, s) {
  return personMarks(opts.people && opts.people[s], plainName(opts, s));
}

/** A number as text, negative ones with a minus sign (U+2212), as in print. */
export function num(n) {
  return typeof n === "number" && n < 0 ? `−${-n}` : String(n);
}

/** A signed number: "+3", "−2", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : num(n);
}

/** The line under a seat's name: a bot's level, or where its player is (never colour alone:
 * a word and a symbol). `opts.seats`: the state's seats; nothing in a replay. */
export function seatStatus(opts, s) {
  const info = opts.seats && opts.seats[s];
  if (!info) return null;
  if (info.kind === "bot") return h("span", { class: "seat-level" }, t("level." + info.bot));
  if (info.away) return h("span", { class: "presence presence-away", data: { presence: "away" } }, "◐ ", t("presence.away"));
  if (info.online === false) return h("span", { class: "presence presence-offline", data: { presence: "offline" } }, "○ ", t("presence.offline"));
  if (info.online) return h("span", { class: "presence presence-online", data: { presence: "online" }, title: t("presence.online") }, "●", h("span", { class: "sr-only" }, " " + t("presence.online")));
  return null;
}

// the clause references of every game known (CLAUSE_ALT grows as games.js learns of games)
let refAlt = null;
let refRe = null;
function refRE() {
  if (refAlt !== CLAUSE_ALT) {
    const CLAUSE = `(?:${CLAUSE_ALT})-\\d+(?:\\.\\d+)?`;
    refRe = new RegExp(`\\s*\\((${CLAUSE})(?:\\.\\.${CLAUSE})?\\)|, (${CLAUSE})(?:\\.\\.${CLAUSE})?\\)`, "g");
    refAlt = CLAUSE_ALT;
  }
  return refRe;
}

/** A catalog text's clause references, the one form every catalog text uses for them: a
 * parenthesis of ids at a sentence's end ("… (AB-11)", "(KO-8..KO-10)") or the ids closing a
 * parenthesis ("(…, KO-16)", "(…, KO-8..KO-10)"). The terminal prints them as they are; the
 * browser never prints a bare id: withRefs() makes each a small link to the rules page where
 * a link can stand, plainText() leaves it out where none can (buttons, tooltips, read aloud). */

/** A text without its clause references (for a button, a tooltip, a screen reader). */
export function plainText(text) {
  return String(text).replace(refRE(), (m, a, b) => (b ? ")" : ""));
}

/** A text whose clause ids become small links to the rules: players read the words, the id is
 * only the link's address. Returns nodes. */
export function withRefs(text) {
  text = String(text);
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(refRE())) {
    let end = m.index + m[0].length;
    const stop = /^[.:;,]/.test(text.slice(end)) ? text[end++] : "";      // "… (AB-7)." -> "…. [rule]"
    out.push(text.slice(last, m.index) + (m[2] ? ")" : "") + stop);
    const id = m[1] || m[2];
    out.push(" ", ruleRef(gameOfClause(id), id));
    last = end;
  }
  out.push(text.slice(last));
  return out.filter((x) => x !== "");
}

/** A small link to a rule of the rules page (the clause id is only its address). */
export function ruleRef(game, id) {
  if (!id) return null;
  return h("a", { class: "rule-ref", href: `/rules/${game}#${id}`, target: "_blank", rel: "noopener",
    title: t("rule.link", { id }), "aria-label": t("rule.link", { id }), data: { clause: id } }, t("rule.short"));
}
