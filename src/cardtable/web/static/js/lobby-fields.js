// The lobby's form pieces (lobby.js): a labelled field, a choice (<select>) and the two name
// boxes (the create form's and the join form's) kept the same; a logged-in player has no name
// box: the account's name is theirs (`nameField`, `playerName`; the table's join form too).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { account } from "./account.js";

export function field(label, control, id) {
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

export function select(id, value, options, onchange) {
  const s = h("select", { id, onchange: (e) => onchange(e.target.value) });
  for (const [v, label] of options) {
    const o = h("option", { value: v }, label);
    if (String(v) === String(value)) o.selected = true;
    s.appendChild(o);
  }
  return s;
}

/** The other form's name box says what this one says. */
export function syncName(id, value) {
  const other = document.getElementById(id);
  if (other) other.value = value;
}

/** The name a seat is taken under: the account's when logged in, else the one typed. */
export function playerName(typed) {
  const me = account();
  return me ? me.name : (typed || "");
}

/** The name box `id` (its `oninput` keeps the typed name), or for a logged-in player one line
 * that says under which name they play. */
export function nameField(id, value, oninput, extra = {}) {
  const me = account();
  if (me) return h("p", { class: "muted small as-account", id: `${id}-as` }, t("lobby.as_account", { name: me.name }));
  return field(t("lobby.name"), h("input", Object.assign({ id, type: "text", maxlength: 32, autocomplete: "nickname",
    placeholder: t("lobby.name_ph"), value, oninput }, extra)), id);
}
