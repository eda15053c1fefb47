// The lobby's form pieces (lobby.js): a labelled field, a choice (<select>) and the two name
// boxes (the create form's and the join form's) kept the same.
import { h } from "./dom.js";

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
