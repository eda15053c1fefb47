// What GET /api/games declares of each game, as the lobby (lobby.js) offers it: the chosen
// game's rule sets (variants) and numbers of players, its rule options (tick boxes with their
// clauses, at the variant's defaults), its own settings and table settings (a tick box, a
// choice or a number box) at their declared defaults, and what of them a new table's request
// carries. `L` is the lobby (lobby.js): L.games (null until the server has answered), L.form.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { field, select } from "./lobby-fields.js";

/** What GET /api/games says of the chosen game (null until it has answered). */
export function info(L) {
  return (L.games && L.games.find((x) => x.game === L.form.game)) || null;
}

/** The chosen game's rule sets (the server's; none offered before it answers): one rule set
 * is not chosen. */
export function variants(L) {
  const g = info(L);
  return g && Array.isArray(g.variants) ? g.variants : [];
}

export function variant(L) {
  const vs = variants(L);
  return vs.length > 1 ? L.form.variant : vs[0];
}

export function playerRange(L) {
  const g = info(L);
  return (g && g.players[variant(L)]) || [2, 6];
}

/** A game's declared settings and table settings (GET /api/games), each offered by the
 * lobby: a tick box (bool), a choice (`choices`) or a number box (its bounds). */
export function settingsOf(L, game) {
  const g = L.games && L.games.find((x) => x.game === game);
  return g ? [...(g.settings || []), ...(g.table_settings || [])] : [];
}

/** The games' settings at their declared defaults (once GET /api/games has answered), by
 * "game:name" in L.form.set, and the chosen game's first rule set. */
export function useDefaults(L) {
  const { form } = L;
  for (const g of L.games || []) {
    for (const o of settingsOf(L, g.game)) {
      const d = o.default;
      form.set[`${g.game}:${o.name}`] = o.type === "bool" ? !!d : (d === null || d === undefined ? (o.choices ? o.choices[0] : "") : d);
    }
  }
  const g = info(L);
  const first = g && g.rule_sets && g.rule_sets[0];
  if (first) { form.variant = first.name; form.players = first.default_players; }
}

/** The rule options of the chosen variant a player may tick: [{name, clause, def, value}].
 * The declaration (GET /api/games: `rule_options` with their clauses, the variant's
 * `defaults`) says which apply. */
export function ruleOptions(L) {
  const g = info(L);
  if (!g || !Array.isArray(g.rule_options)) return [];
  const defs = (g.defaults && g.defaults[variant(L)]) || {};
  return g.rule_options.filter((o) => o.type === "bool" && o.name in defs)
    .map((o) => ({ name: o.name, clause: o.clause, def: !!defs[o.name],
      value: o.name in L.form.options ? L.form.options[o.name] : !!defs[o.name] }));
}

/** What a new table's request carries of them: the variant (if there is a choice), the rule
 * options set differently from the variant's defaults, the settings (an empty or bad number:
 * the server's default). */
export function declaredBody(L, body) {
  const { form } = L;
  if (variants(L).length > 1) body.variant = form.variant;
  const changed = ruleOptions(L).filter((o) => o.value !== o.def);
  if (changed.length) body.options = Object.fromEntries(changed.map((o) => [o.name, o.value]));
  for (const o of settingsOf(L, form.game)) {
    const x = form.set[`${form.game}:${o.name}`];
    if (o.type === "bool") { if (x) body[o.name] = true; continue; }
    const v = o.type === "str" ? x : Number(x);
    if (x !== "" && x !== undefined && (o.type === "str" || Number.isFinite(v))) body[o.name] = v;
  }
}

/** A setting's label: its catalog key, else its declared description. */
const settingLabel = (o) => (o.label ? t(o.label) : o.doc);

/** The chosen game's own settings that are not tick boxes, as fields: a choice of its
 * `choices` (a length of time, a name ending in `_seconds`, shown in seconds) or a number box
 * with its bounds. */
export function settingFields(L) {
  return settingsOf(L, L.form.game).filter((o) => o.type !== "bool").map((o) => gameField(L, o));
}

function gameField(L, o) {
  const { form } = L;
  const id = `f-${o.name}`;
  const key = `${form.game}:${o.name}`;
  const control = o.choices
    ? select(id, form.set[key], o.choices.map((c) => [c, /_seconds$/.test(o.name) ? `${c} s` : String(c)]),
      (v) => { form.set[key] = o.type === "str" ? v : Number(v); })
    : h("input", { id, type: "number", min: o.min ?? undefined, max: o.max ?? undefined, value: form.set[key] ?? "",
      oninput: (e) => { form.set[key] = e.target.value; } });
  return field(settingLabel(o), control, id);
}

/** The chosen game's own settings that are tick boxes. */
export function settingChecks(L) {
  const { form } = L;
  return settingsOf(L, form.game).filter((o) => o.type === "bool").map((o) => h("label", { class: "check" }, h("input", { type: "checkbox", id: `f-${o.name}`,
    checked: !!form.set[`${form.game}:${o.name}`], onchange: (e) => { form.set[`${form.game}:${o.name}`] = e.target.checked; } }), " ", settingLabel(o)));
}

/** The rule options' box (null: the variant has none): each a tick box with its clause's link
 * and whether it is the variant's default. */
export function ruleOptionsBox(L) {
  const { form } = L;
  if (!ruleOptions(L).length) return null;
  return h("fieldset", { class: "rule-options", id: "rule-options" }, h("legend", {}, t("lobby.options")),
    h("p", { class: "muted small" }, t("lobby.options_hint", { variant: t("variant." + form.variant) })),
    h("ul", { class: "option-list" }, ruleOptions(L).map((o) => h("li", { class: "option-row" },
      h("label", { class: "check" }, h("input", { type: "checkbox", id: `opt-${o.name}`, name: o.name, checked: o.value,
        data: { default: o.def ? "true" : "false" },
        onchange: (e) => {
          if (e.target.checked === o.def) delete form.options[o.name]; else form.options[o.name] = e.target.checked;
          L.draw();
        } }), " ", t("opt." + o.name)),
      h("span", { class: "opt-meta" },
        o.clause ? h("a", { class: "clause-ref", href: `/rules/${form.game}#${o.clause}`, target: "_blank", rel: "noopener",
          title: t("lobby.option_clause", { id: o.clause }) }, o.clause) : null,
        o.value !== o.def ? h("span", { class: "chip chip-changed" }, t("lobby.option_changed")) : h("span", { class: "muted small" }, t("lobby.option_default")))))));
}
