// The lobby's form to open a table (lobby.js): the game, its variant and number of players,
// the pace (pace.js) and turn timer, the game's own settings and rule options
// (lobby-declared.js), the seats (the player's own, then a person's or a bot's at a level), the
// player's name, a public and a rated table; sent as POST /api/tables, the new seat kept in this
// browser and the table opened. `L` is the lobby (lobby.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";
import { saveSeat, storeName } from "./store.js";
import { GAMES, GAME_IDS } from "./games.js";
import { navigate } from "./router.js";
import { account } from "./account.js";
import { paceFields, paceBody } from "./pace.js";
import { field, select, syncName, nameField, playerName } from "./lobby-fields.js";
import { info, variants, playerRange, declaredBody, settingFields, settingChecks, ruleOptionsBox } from "./lobby-declared.js";
import { nameNeeded, refused, errorLine, inView } from "./lobby-refusal.js";

/** As many seats as players: the first the player's own, a new one a medium bot's. */
function fitSeats(form) {
  const n = form.players;
  while (form.seats.length < n) form.seats.push({ kind: form.seats.length === 0 ? "human" : "bot", bot: "medium" });
  form.seats.length = n;
  form.seats[0] = { kind: "human", bot: null };
}

/** Sends the form (POST /api/tables) and opens the new table. */
async function create(L, ev) {
  const { form } = L;
  ev.preventDefault();
  if (L.busy) return;
  const name = playerName(form.name).trim();
  if (!name) { nameNeeded(L); return; }
  if (!account()) storeName(name);
  const body = {
    game: form.game, players: form.players, public: form.public, name,
    seats: form.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" })),
  };
  declaredBody(L, body);
  if (form.timer) body.turn_seconds = Number(form.timer);
  if (form.rated && account()) body.rated = true;
  paceBody(form, body);
  L.busy = true;
  try {
    const r = await api("POST", "/api/tables", body);
    const j = r.join;
    saveSeat(r.table.code, { token: j.token, seat: j.seat, name: j.name, game: r.table.game });
    navigate(`/t/${r.table.code}`);
  } catch (e) {
    refused(L, e);
    L.busy = false;
    L.draw();
    inView();
  }
}

/** The seats' rows: the player's own, then each a person's or a bot's (with its level). */
function seatRows(L, levels) {
  return L.form.seats.map((s, i) => {
    if (i === 0) {
      return h("li", { class: "seat-row" }, h("span", { class: "seat-n" }, t("lobby.seat_n", { n: i + 1 })),
        h("span", { class: "seat-you" }, t("lobby.you_seat")));
    }
    const kind = select(`seat-kind-${i}`, s.kind, [["human", t("lobby.human")], ["bot", t("lobby.bot")]],
      (v) => { s.kind = v; L.draw(); });
    kind.setAttribute("aria-label", t("lobby.seat_n", { n: i + 1 }));
    const row = h("li", { class: "seat-row" }, h("span", { class: "seat-n" }, t("lobby.seat_n", { n: i + 1 })), kind);
    if (s.kind === "bot") {
      const lv = select(`seat-bot-${i}`, s.bot, levels.map((l) => [l, t("level." + l)]), (v) => { s.bot = v; });
      lv.setAttribute("aria-label", `${t("lobby.seat_n", { n: i + 1 })}: ${t("lobby.bot")}`);
      row.appendChild(lv);
    }
    return row;
  });
}

/** The game, variant, players, pace, timer and the game's own settings. */
function gameFields(L, players) {
  const { form } = L;
  return h("div", { class: "field-grid" },
    field(t("lobby.game"), select("f-game", form.game, GAME_IDS.map((g) => [g, GAMES[g].title]),
      (v) => { form.game = v; const rs = info(L) && info(L).rule_sets; form.players = rs && rs[0] ? rs[0].default_players : 4; L.draw(); }), "f-game"),
    variants(L).length > 1 ? field(t("lobby.variant"), select("f-variant", form.variant,
      variants(L).map((v) => [v, t("variant." + v)]),
      (v) => { form.variant = v; form.options = {}; L.draw(); }), "f-variant") : null,
    field(t("lobby.players"), select("f-players", form.players, players, (v) => { form.players = Number(v); L.draw(); }), "f-players"),
    ...paceFields(form, field, select, L.draw),
    form.pace === "turn" ? null : field(t("lobby.timer"), select("f-timer", form.timer, [["", t("lobby.timer_none")], ["30", "30 s"], ["60", "60 s"], ["120", "120 s"], ["300", "300 s"]],
      (v) => { form.timer = v; }), "f-timer"),
    ...settingFields(L),
  );
}

/** The player's name (a logged-in player's is the account's), a public table, a rated one
 * (signed in only). */
function playerFields(L) {
  const { form } = L;
  const name = nameField("f-name", form.name, (e) => { form.name = e.target.value; syncName("j-name", form.name); syncName("pn-name", form.name); }, { required: true });
  const pub = h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-public", checked: form.public,
    onchange: (e) => { form.public = e.target.checked; } }), " ", t("lobby.public"));
  return [
    // logged in: a line that names the account instead of the name box
    ...(account() ? [name, pub] : [h("div", { class: "field-grid" }, name, pub)]),
    account() ? h("div", { class: "rated-box" }, h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-rated", checked: form.rated,
      "aria-describedby": "f-rated-hint", onchange: (e) => { form.rated = e.target.checked; } }), " ", t("lobby.rated")),
    h("p", { class: "muted small", id: "f-rated-hint" }, t("lobby.rated_hint"))) : null,
  ];
}

/** The form, for the chosen game (its players kept within the variant's range). */
export function createForm(L) {
  const { form } = L;
  fitSeats(form);
  const [lo, hi] = playerRange(L);
  if (form.players < lo) form.players = lo;
  if (form.players > hi) form.players = hi;
  fitSeats(form);
  const levels = L.games ? L.games[0].levels : ["easy", "medium", "hard", "expert"];
  const rows = seatRows(L, levels);
  const players = [];
  for (let n = lo; n <= hi; n++) players.push([n, String(n)]);
  return h("form", { class: "panel create-form", onsubmit: (ev) => create(L, ev), "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, t("lobby.create")),
    gameFields(L, players),
    ...settingChecks(L),
    ruleOptionsBox(L),
    h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), h("ol", { class: "seat-list" }, rows)),
    ...playerFields(L),
    errorLine(L),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-primary", id: "create-btn", "aria-describedby": L.error ? "create-error" : null }, t("lobby.create_btn"))),
  );
}
