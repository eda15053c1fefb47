// The identity on a player's profile page (/players/NAME, ratings.js): their avatar, flag and
// profile line (GET /api/identity/NAME), and on the logged-in player's own page the form that
// changes them (GET and PUT /api/me/profile): one of the generated avatars (person.js), a line
// of plain text with its characters counted, a country from the server's list (its flag).
import { t } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { account, onAccount } from "./account.js";
import { avatarEl, flagEl, countryName } from "./person.js";

/** A refused field in the player's language: `err.api.bad_profile.<field>.<why>`. */
function refusal(e) {
  if (e.code === "bad_profile") {
    const text = t(`err.api.bad_profile.${e.params.field}.${e.params.why}`, e.params);
    if (!text.startsWith("err.api.")) return text;
  }
  return apiMessage(e);
}

/** The identity block of `name`'s profile page (drawn again when the session changes). */
export function identityBlock(name) {
  const box = h("div", { class: "id-block", id: "identity" });
  let shown = null;
  const show = () => {
    clear(box);
    const mine = account() && account().name === name;
    if (shown) box.append(identityLine(shown, name));
    if (mine) box.append(h("button", { type: "button", class: "btn btn-small", id: "id-edit",
      onclick: () => editor(box, name, (p) => { if (p) shown = p; show(); }) }, t("id.edit")));
  };
  api("GET", `/api/identity/${encodeURIComponent(name)}`).then((p) => { shown = p; show(); }).catch(() => {});
  const off = onAccount(() => { if (box.isConnected) show(); else off(); });
  show();
  return box;
}

function identityLine(p, name) {
  if (p.avatar === null && !p.country && !p.line) return h("span");
  return h("div", { class: "id-show" }, avatarEl(p.avatar, name, "lg"), flagEl(p.country),
    p.line ? h("p", { class: "id-line", id: "id-line" }, p.line) : null);
}

/** The form that changes the account's identity, in place of the block's contents. */
async function editor(box, name, done) {
  let p;
  try { p = await api("GET", "/api/me/profile"); } catch (e) { box.append(h("p", { class: "error", role: "alert" }, refusal(e))); return; }
  const err = h("p", { class: "error", id: "id-error", role: "alert" });
  const count = h("span", { class: "id-count muted small", id: "id-count", "aria-live": "polite" });
  const counted = () => { count.textContent = t("id.count", { n: [...line.value].length, most: p.line_max }); };
  const line = h("input", { type: "text", id: "id-line-input", value: p.line, autocomplete: "off", "aria-describedby": "id-line-hint id-count",
    oninput: counted });
  counted();
  const radio = (i) => h("label", { title: i === null ? t("id.no_avatar") : t("id.avatar_n", { n: i + 1 }) },
    h("input", { type: "radio", name: "id-avatar", value: i === null ? "" : String(i), id: `id-avatar-${i === null ? "none" : i}`,
      checked: p.avatar === i, "aria-label": i === null ? t("id.no_avatar") : t("id.avatar_n", { n: i + 1 }) }),
    i === null ? h("span", { class: "avatar avatar-round avatar-none", "aria-hidden": "true" }, "—") : avatarEl(i, name));
  const byName = p.countries.map((c) => [c, countryName(c)]).sort((a, b) => a[1].localeCompare(b[1]));
  const country = h("select", { id: "id-country" }, h("option", { value: "" }, t("id.no_country")),
    byName.map(([c, n]) => h("option", { value: c, selected: c === p.country }, `${n}`)));
  const form = h("form", { class: "id-form", "aria-labelledby": "id-h", onsubmit: async (e) => {
    e.preventDefault();
    const picked = form.querySelector('input[name="id-avatar"]:checked');
    const body = { avatar: picked && picked.value !== "" ? Number(picked.value) : null, line: line.value, country: country.value || null };
    try {
      const out = await api("PUT", "/api/me/profile", body);
      announce(t("id.saved"));
      done(out);
    } catch (ex) { err.textContent = refusal(ex); }
  } },
  h("h2", { id: "id-h" }, t("id.title")),
  h("fieldset", {}, h("legend", {}, t("id.avatar")),
    h("div", { class: "id-avatars", role: "radiogroup" }, radio(null), Array.from({ length: p.avatars }, (_, i) => radio(i)))),
  h("div", { class: "field" }, h("label", { for: "id-line-input" }, t("id.line")), line,
    h("p", { class: "muted small", id: "id-line-hint" }, t("id.line_hint", { most: p.line_max }), " ", count)),
  h("div", { class: "field" }, h("label", { for: "id-country" }, t("id.country")), country),
  err,
  h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-primary", id: "id-save" }, t("id.save")),
    h("button", { type: "button", class: "btn", id: "id-cancel", onclick: () => done(null) }, t("id.cancel"))));
  clear(box).append(form);
  line.focus();
}
