// A player's identity as the pages show it (the server's side: http/profile.py): the generated
// avatar (no picture is uploaded: avatar i is colour i % 8 and shape i / 8, with the name's
// initials), the country's flag (the code as two regional-indicator symbols) and the profile
// line; and the identities of the people at tables (GET /api/people), asked once per table
// and set of seated names.
import { t, getLang } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";

/** How many colours the avatars have (css: .avatar-c0 ... .avatar-c7; white initials on each
 * keep a contrast of 4.5:1 at least). */
export const COLOURS = 8;
/** The avatars' shapes (css: .avatar-<shape>). */
export const SHAPES = ["round", "square", "leaf"];

/** The initials of a name: the first letters of its first two words (one for one word). */
export function initials(name) {
  const words = String(name || "?").trim().split(/\s+/).filter(Boolean);
  return words.slice(0, 2).map((w) => [...w][0]).join("").toUpperCase() || "?";
}

/** Avatar `i` with the initials of `name` (decoration: the name is beside it). */
export function avatarEl(i, name, size = "sm") {
  if (typeof i !== "number" || i < 0) return null;
  return h("span", { class: `avatar avatar-${size} avatar-c${i % COLOURS} avatar-${SHAPES[Math.floor(i / COLOURS) % SHAPES.length]}`,
    "aria-hidden": "true", data: { avatar: String(i) } }, initials(name));
}

/** A country code's flag emoji ("" for none). */
export function flagOf(code) {
  if (!code || !/^[A-Z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code].map((c) => 0x1F1E6 + c.charCodeAt(0) - 65));
}

/** A country's name in the page's language (the code when the browser knows none). */
export function countryName(code) {
  try { return new Intl.DisplayNames([getLang()], { type: "region" }).of(code) || code; } catch (e) { return code; }
}

/** The flag of a country, its name read out and shown on hover. */
export function flagEl(code) {
  const f = flagOf(code);
  if (!f) return null;
  const name = countryName(code);
  return h("span", { class: "person-flag", title: name, data: { country: code } },
    h("span", { "aria-hidden": "true" }, f), h("span", { class: "sr-only" }, " " + t("person.country", { country: name })));
}

/** The marks a seated person's name goes with: avatar and flag (null: the person chose none).
 * The profile line is the avatar's tooltip. */
export function personMarks(p, name) {
  if (!p || (p.avatar === null && !p.country)) return null;
  const box = h("span", { class: "person", title: p.line || null }, avatarEl(p.avatar, name), flagEl(p.country));
  return box;
}

// -- the people at tables ------------------------------------------------------------------------
const known = new Map();        // code -> {key: the seated names when asked, seats: {seat: identity}}

/** The seated names of a table's seats, as the key its people were asked for. */
function seatKey(seats) {
  return (seats || []).map((s) => (s.kind === "human" && s.name ? s.name : "")).join("\u0000");
}

/** The people at a table as known now: {seat: identity} (empty until asked). */
export function peopleAt(code) {
  const k = known.get(code);
  return k ? k.seats : {};
}

/** Ask for the people of the tables [{code, seats}] whose seated names changed since they
 * were last asked; `then()` runs when an answer brought something new. */
export function askPeople(tables, then) {
  const ask = tables.filter((tb) => tb.code && (!known.has(tb.code) || known.get(tb.code).key !== seatKey(tb.seats))
    && (tb.seats || []).some((s) => s.kind === "human" && s.name));
  if (!ask.length) return;
  for (const tb of ask) known.set(tb.code, { key: seatKey(tb.seats), seats: (known.get(tb.code) || {}).seats || {} });
  const codes = ask.slice(0, 100).map((tb) => tb.code);
  api("GET", `/api/people?tables=${codes.join(",")}`).then((out) => {
    let news = false;
    for (const code of codes) {
      const seats = (out && out[code]) || {};
      const k = known.get(code);
      if (k && JSON.stringify(k.seats) !== JSON.stringify(seats)) { k.seats = seats; news = true; }
    }
    if (news && then) then();
  }).catch(() => { for (const code of codes) known.delete(code); });
}
