// The lobby (/): a form to open a table (the games, variants, players, rule options, settings
// and bot levels as GET /api/games declares them; games.js what it does not give), a form to join or
// watch a table by its code or link, and the lists of this browser's, open and running tables.
import { t, onLang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { seatNames } from "./seats.js";
import { api, apiMessage } from "./api.js";
import { saveSeat, dropSeat, mySeats, storedName, storeName } from "./store.js";
import { GAMES, GAME_IDS, rulesLabel } from "./games.js";
import { CODE_IN_TEXT, navigate } from "./router.js";
import { myGamesPanel, account, onAccount } from "./account.js";
import { friendsPanel } from "./friends.js";
import { learnPanel } from "./learn.js";
import { paceFields, paceBody, guestGames, when } from "./pace.js";

export function renderLobby(el) {
  let games = null;
  let tables = [];
  let running = [];
  const myStatus = {};
  let myMoves = {};          // code -> POST /api/my-moves' row (pace.js)
  let alive = true;
  const form = {
    game: GAME_IDS[0], variant: "basic", players: 4,
    seats: [], timer: "", public: true, name: storedName(), rated: false,
    pace: "live", move: "86400", onTimeout: "bot_move",      // pace.js
    options: {},             // rule options set differently from the variant's defaults
  };
  // a game's own settings (GET /api/games: `settings`, `table_settings`), by "game:name", at
  // their declared defaults once it has answered (`useDefaults`)
  form.set = {};
  const learn = learnPanel(() => form.name);     // "Learn to play" (learn.js)
  let joinCode = "";
  let error = "";
  let busy = false;
  let timer = null;

  function fitSeats() {
    const n = form.players;
    while (form.seats.length < n) form.seats.push({ kind: form.seats.length === 0 ? "human" : "bot", bot: "medium" });
    form.seats.length = n;
    form.seats[0] = { kind: "human", bot: null };
  }

  /** What GET /api/games says of the chosen game (null until it has answered). */
  function info() {
    return (games && games.find((x) => x.game === form.game)) || null;
  }

  /** The chosen game's rule sets (the server's; none offered before it answers): one rule set
   * is not chosen. */
  function variants() {
    const g = info();
    return g && Array.isArray(g.variants) ? g.variants : [];
  }

  function variant() {
    const vs = variants();
    return vs.length > 1 ? form.variant : vs[0];
  }

  function playerRange() {
    const g = info();
    return (g && g.players[variant()]) || [2, 6];
  }

  /** A game's declared settings and table settings (GET /api/games), each offered by the
   * lobby: a tick box (bool), a choice (`choices`) or a number box (its bounds). */
  function settingsOf(game) {
    const g = games && games.find((x) => x.game === game);
    return g ? [...(g.settings || []), ...(g.table_settings || [])] : [];
  }

  /** The games' settings at their declared defaults (once GET /api/games has answered). */
  function useDefaults() {
    for (const g of games || []) {
      for (const o of settingsOf(g.game)) {
        const d = o.default;
        form.set[`${g.game}:${o.name}`] = o.type === "bool" ? !!d : (d === null || d === undefined ? (o.choices ? o.choices[0] : "") : d);
      }
    }
    const g = info();
    const first = g && g.rule_sets && g.rule_sets[0];
    if (first) { form.variant = first.name; form.players = first.default_players; }
  }

  /** The rule options of the chosen variant a player may tick: [{name, clause, def, value}].
   * The declaration (GET /api/games: `rule_options` with their clauses, the variant's
   * `defaults`) says which apply. */
  function ruleOptions() {
    const g = info();
    if (!g || !Array.isArray(g.rule_options)) return [];
    const defs = (g.defaults && g.defaults[variant()]) || {};
    return g.rule_options.filter((o) => o.type === "bool" && o.name in defs)
      .map((o) => ({ name: o.name, clause: o.clause, def: !!defs[o.name],
        value: o.name in form.options ? form.options[o.name] : !!defs[o.name] }));
  }

  // The forms are drawn once GET /api/games has answered (their choices of players, levels and
  // options come from it), so they are not drawn again under a click; a failed request leaves
  // the built-in defaults.
  let gamesTried = false;
  async function loadGames() {
    try { games = await api("GET", "/api/games"); useDefaults(); } catch (e) { /* the defaults */ }
    gamesTried = true;
    if (alive) draw();
  }

  async function load() {
    try {
      [tables, running] = await Promise.all([api("GET", "/api/tables?limit=20"), api("GET", "/api/tables?status=playing&limit=20")]);
    } catch (e) { /* keep the old lists */ }
    // the status of my own tables and whose move it is, in one request (pace.js; a table that
    // is gone, or a seat its player was dropped from, is forgotten)
    const seats = mySeats();
    try {
      myMoves = await guestGames(seats);
      for (const s of seats) {
        if (myMoves[s.code]) myStatus[s.code] = myMoves[s.code].status; else if (s.token) dropSeat(s.code);
      }
    } catch (e) { /* keep the old list */ }
    if (alive) drawLists();
  }

  async function create(ev) {
    ev.preventDefault();
    if (busy) return;
    if (!form.name.trim()) { error = t("lobby.name_needed"); draw(); return; }
    storeName(form.name.trim());
    const body = {
      game: form.game, players: form.players, public: form.public, name: form.name.trim(),
      seats: form.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot } : { kind: "human" })),
    };
    if (variants().length > 1) body.variant = form.variant;
    const changed = ruleOptions().filter((o) => o.value !== o.def);
    if (changed.length) body.options = Object.fromEntries(changed.map((o) => [o.name, o.value]));
    for (const o of settingsOf(form.game)) {     // an empty or bad number: the server's default
      const x = form.set[`${form.game}:${o.name}`];
      if (o.type === "bool") { if (x) body[o.name] = true; continue; }
      const v = o.type === "str" ? x : Number(x);
      if (x !== "" && x !== undefined && (o.type === "str" || Number.isFinite(v))) body[o.name] = v;
    }
    if (form.timer) body.turn_seconds = Number(form.timer);
    if (form.rated && account()) body.rated = true;
    paceBody(form, body);
    busy = true;
    try {
      const r = await api("POST", "/api/tables", body);
      const j = r.join;
      saveSeat(r.table.code, { token: j.token, seat: j.seat, name: j.name, game: r.table.game });
      navigate(`/t/${r.table.code}`);
    } catch (e) {
      error = t("lobby.error", { msg: apiMessage(e) });
      busy = false;
      draw();
    }
  }

  async function joinBy(code, name) {
    if (!name.trim()) { error = t("lobby.name_needed"); draw(); return; }
    storeName(name.trim());
    try {
      const j = await api("POST", "/api/join", { table: code, name: name.trim() });
      saveSeat(j.table.code, { token: j.token, seat: j.seat, name: j.name, game: j.table.game });
      navigate(`/t/${j.table.code}`);
    } catch (e) {
      error = t("lobby.error", { msg: apiMessage(e) });
      draw();
    }
  }

  function syncName(id, value) {
    const other = document.getElementById(id);
    if (other) other.value = value;
  }

  function field(label, control, id) {
    return h("div", { class: "field" }, h("label", { for: id }, label), control);
  }

  function select(id, value, options, onchange) {
    const s = h("select", { id, onchange: (e) => onchange(e.target.value) });
    for (const [v, label] of options) {
      const o = h("option", { value: v }, label);
      if (String(v) === String(value)) o.selected = true;
      s.appendChild(o);
    }
    return s;
  }

  /** A setting's label: its catalog key, else its declared description. */
  const settingLabel = (o) => (o.label ? t(o.label) : o.doc);

  /** A game's own setting (declared, not a tick box): a choice of its `choices` (a length of
   * time, a name ending in `_seconds`, shown in seconds) or a number box with its bounds. */
  function gameField(o) {
    const id = `f-${o.name}`;
    const key = `${form.game}:${o.name}`;
    const control = o.choices
      ? select(id, form.set[key], o.choices.map((c) => [c, /_seconds$/.test(o.name) ? `${c} s` : String(c)]),
        (v) => { form.set[key] = o.type === "str" ? v : Number(v); })
      : h("input", { id, type: "number", min: o.min ?? undefined, max: o.max ?? undefined, value: form.set[key] ?? "",
        oninput: (e) => { form.set[key] = e.target.value; } });
    return field(settingLabel(o), control, id);
  }

  function draw() {
    const focusId = document.activeElement && document.activeElement.id;
    clear(el);
    el.className = "page-lobby";
    const hero = h("section", { class: "hero" },
      h("h1", {}, "cardtable"),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("p", { class: "muted" }, t("lobby.intro"),
        ...GAME_IDS.flatMap((g, i) => [i ? " · " : " ", h("a", { href: `/rules/${g}`, "data-link": "" }, rulesLabel(t, g))])),
      h("p", { class: "muted lobby-boards" }, t("rt.leaderboards"), ":",
        ...GAME_IDS.flatMap((g, i) => [i ? " · " : " ", h("a", { href: `/leaderboard/${g}`, "data-link": "", id: `board-link-${g}` }, GAMES[g].title)])));
    if (!gamesTried) { el.append(hero); return; }
    fitSeats();
    const [lo, hi] = playerRange();
    if (form.players < lo) form.players = lo;
    if (form.players > hi) form.players = hi;
    fitSeats();
    const levels = games ? games[0].levels : ["easy", "medium", "hard", "expert"];

    const seatRows = form.seats.map((s, i) => {
      if (i === 0) {
        return h("li", { class: "seat-row" }, h("span", { class: "seat-n" }, t("lobby.seat_n", { n: i + 1 })),
          h("span", { class: "seat-you" }, t("lobby.you_seat")));
      }
      const kind = select(`seat-kind-${i}`, s.kind, [["human", t("lobby.human")], ["bot", t("lobby.bot")]],
        (v) => { s.kind = v; draw(); });
      kind.setAttribute("aria-label", t("lobby.seat_n", { n: i + 1 }));
      const row = h("li", { class: "seat-row" }, h("span", { class: "seat-n" }, t("lobby.seat_n", { n: i + 1 })), kind);
      if (s.kind === "bot") {
        const lv = select(`seat-bot-${i}`, s.bot, levels.map((l) => [l, t("level." + l)]), (v) => { s.bot = v; });
        lv.setAttribute("aria-label", `${t("lobby.seat_n", { n: i + 1 })}: ${t("lobby.bot")}`);
        row.appendChild(lv);
      }
      return row;
    });

    const players = [];
    for (let n = lo; n <= hi; n++) players.push([n, String(n)]);

    const createForm = h("form", { class: "panel create-form", onsubmit: create, "aria-labelledby": "create-h" },
      h("h2", { id: "create-h" }, t("lobby.create")),
      h("div", { class: "field-grid" },
        field(t("lobby.game"), select("f-game", form.game, GAME_IDS.map((g) => [g, GAMES[g].title]),
          (v) => { form.game = v; const rs = info() && info().rule_sets; form.players = rs && rs[0] ? rs[0].default_players : 4; draw(); }), "f-game"),
        variants().length > 1 ? field(t("lobby.variant"), select("f-variant", form.variant,
          variants().map((v) => [v, t("variant." + v)]),
          (v) => { form.variant = v; form.options = {}; draw(); }), "f-variant") : null,
        field(t("lobby.players"), select("f-players", form.players, players, (v) => { form.players = Number(v); draw(); }), "f-players"),
        ...paceFields(form, field, select, draw),
        form.pace === "turn" ? null : field(t("lobby.timer"), select("f-timer", form.timer, [["", t("lobby.timer_none")], ["30", "30 s"], ["60", "60 s"], ["120", "120 s"], ["300", "300 s"]],
          (v) => { form.timer = v; }), "f-timer"),
        ...settingsOf(form.game).filter((o) => o.type !== "bool").map(gameField),
      ),
      ...settingsOf(form.game).filter((o) => o.type === "bool").map((o) => h("label", { class: "check" }, h("input", { type: "checkbox", id: `f-${o.name}`,
        checked: !!form.set[`${form.game}:${o.name}`], onchange: (e) => { form.set[`${form.game}:${o.name}`] = e.target.checked; } }), " ", settingLabel(o))),
      ruleOptions().length ? h("fieldset", { class: "rule-options", id: "rule-options" }, h("legend", {}, t("lobby.options")),
        h("p", { class: "muted small" }, t("lobby.options_hint", { variant: t("variant." + form.variant) })),
        h("ul", { class: "option-list" }, ruleOptions().map((o) => h("li", { class: "option-row" },
          h("label", { class: "check" }, h("input", { type: "checkbox", id: `opt-${o.name}`, name: o.name, checked: o.value,
            data: { default: o.def ? "true" : "false" },
            onchange: (e) => {
              if (e.target.checked === o.def) delete form.options[o.name]; else form.options[o.name] = e.target.checked;
              draw();
            } }), " ", t("opt." + o.name)),
          h("span", { class: "opt-meta" },
            o.clause ? h("a", { class: "clause-ref", href: `/rules/${form.game}#${o.clause}`, target: "_blank", rel: "noopener",
              title: t("lobby.option_clause", { id: o.clause }) }, o.clause) : null,
            o.value !== o.def ? h("span", { class: "chip chip-changed" }, t("lobby.option_changed")) : h("span", { class: "muted small" }, t("lobby.option_default"))))))) : null,
      h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), h("ol", { class: "seat-list" }, seatRows)),
      h("div", { class: "field-grid" },
        field(t("lobby.name"), h("input", { id: "f-name", type: "text", maxlength: 32, required: true, autocomplete: "nickname",
          placeholder: t("lobby.name_ph"), value: form.name, oninput: (e) => { form.name = e.target.value; syncName("j-name", form.name); } }), "f-name"),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-public", checked: form.public,
          onchange: (e) => { form.public = e.target.checked; } }), " ", t("lobby.public")),
      ),
      account() ? h("div", { class: "rated-box" }, h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-rated", checked: form.rated,
        "aria-describedby": "f-rated-hint", onchange: (e) => { form.rated = e.target.checked; } }), " ", t("lobby.rated")),
      h("p", { class: "muted small", id: "f-rated-hint" }, t("lobby.rated_hint"))) : null,
      error ? h("p", { class: "error", role: "alert" }, error) : null,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-primary", id: "create-btn" }, t("lobby.create_btn"))),
    );

    const joinForm = h("form", { class: "panel join-form", "aria-labelledby": "join-h",
      onsubmit: (e) => { e.preventDefault(); joinBy(joinCode || document.getElementById("j-code").value, form.name); } },
      h("h2", { id: "join-h" }, t("lobby.join")),
      field(t("lobby.code"), h("input", { id: "j-code", type: "text", maxlength: 300, placeholder: "K7PQ2MXA", value: joinCode,
        oninput: (e) => { joinCode = e.target.value; } }), "j-code"),
      field(t("lobby.name"), h("input", { id: "j-name", type: "text", maxlength: 32, value: form.name,
        placeholder: t("lobby.name_ph"), oninput: (e) => { form.name = e.target.value; syncName("f-name", form.name); } }), "j-name"),
      h("div", { class: "actions" },
        h("button", { type: "submit", class: "btn btn-primary", id: "join-btn" }, t("lobby.join_btn")),
        h("button", { type: "button", class: "btn", id: "watch-btn", onclick: () => {
          const raw = (document.getElementById("j-code").value || "").trim();
          const m = raw.match(CODE_IN_TEXT);
          if (m) navigate(`/t/${m[1].toUpperCase()}`);
        } }, t("lobby.watch_btn"))),
    );

    learn.redraw();
    el.append(hero, learn.el, myGamesPanel(), friendsPanel(),
      h("div", { class: "lobby-grid" }, createForm, h("div", { class: "lobby-side" }, joinForm, listsBox)),
    );
    drawLists();
    if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
  }

  // The lists (my tables, open and running tables) are redrawn on every refresh, the forms are
  // not: a refresh never loses a click, an open menu or a half-typed table code.
  const listsBox = h("div", { class: "lobby-lists", id: "lobby-lists" });
  function drawLists() {
    const focusId = document.activeElement && listsBox.contains(document.activeElement) && document.activeElement.id;
    const tableItem = (tb, joinable) => h("li", { class: "table-item", data: { code: tb.code } },
      h("div", { class: "ti-main" },
        h("strong", {}, t("game." + tb.game)),
        tb.variant ? h("span", { class: "muted" }, " · " + t("variant." + tb.variant)) : null,
        h("span", { class: "muted" }, ` · ${t("lobby.n_players", { n: tb.players })}` + (joinable ? ` · ${t("lobby.free", { n: tb.free_seats.length })}` : "")),
        tb.rated ? [" ", h("span", { class: "chip chip-rated" }, t("lobby.rated_chip"))] : null,
        h("div", { class: "ti-seats" }, seatNames(tb.seats).map((n, i) => h("span", { class: "chip" + (tb.free_seats.includes(i) ? " chip-free" : "") },
          tb.free_seats.includes(i) ? t("seat.open") : n)))),
      h("div", { class: "ti-actions" },
        joinable ? h("button", { type: "button", class: "btn btn-small btn-primary", onclick: () => joinBy(tb.code, form.name),
          "aria-label": `${t("lobby.join_btn")}: ${t("game." + tb.game)} ${tb.code}` }, t("lobby.join_btn")) : null,
        h("a", { class: "btn btn-small", href: `/t/${tb.code}`, "data-link": "", "aria-label": `${t("lobby.watch_btn")}: ${t("game." + tb.game)} ${tb.code}` }, t("lobby.watch_btn"))));
    const runningEl = h("div", { class: "panel running-tables", "aria-labelledby": "running-h", id: "running-tables" },
      h("h2", { id: "running-h" }, t("lobby.running")),
      running.length === 0 ? h("p", { class: "muted" }, t("lobby.running_none")) :
        h("ul", { class: "table-list" }, running.map((tb) => tableItem(tb, false))));
    const list = h("div", { class: "panel open-tables", "aria-labelledby": "open-h" },
      h("div", { class: "panel-head" }, h("h2", { id: "open-h" }, t("lobby.open")),
        h("button", { type: "button", class: "btn btn-small", id: "refresh-btn", onclick: load }, t("lobby.refresh"))),
      tables.length === 0 ? h("p", { class: "muted" }, t("lobby.none")) :
        h("ul", { class: "table-list" }, tables.map((tb) => tableItem(tb, true))),
    );

    // your moves first (the earliest deadline first), then the latest (pace.js)
    const rank = (s) => (myMoves[s.code] ? myMoves[s.code].rank : 1e9);
    const mine = mySeats().sort((a, b) => rank(a) - rank(b)).slice(0, 6);
    const moveChip = (s) => {
      const m = myMoves[s.code];
      if (!m || !m.your_move) return null;
      return [h("span", { class: "chip chip-your-move" }, t("pace.my_moves")),
        m.deadline ? h("span", { class: "ti-deadline muted" }, t("pace.until", { when: when(m.deadline) })) : null];
    };
    const mineEl = mine.length ? h("div", { class: "panel my-tables" }, h("h2", {}, t("lobby.my_tables")),
      h("ul", { class: "table-list" }, mine.map((s) => h("li", { class: "table-item", data: { code: s.code, status: myStatus[s.code] || "" } },
        h("div", { class: "ti-main" }, h("strong", {}, s.game ? t("game." + s.game) : ""), ` · ${s.code} · ${s.name || ""}`,
          myStatus[s.code] ? h("span", { class: "chip chip-status" }, t("lobby.status." + myStatus[s.code])) : null,
          moveChip(s)),
        h("div", { class: "ti-actions" }, h("a", { class: "btn btn-small", href: myStatus[s.code] === "over" ? `/replay/${s.code}` : `/t/${s.code}`, "data-link": "",
          "aria-label": `${myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume")}: ${s.code}` }, myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume"))))))) : null;

    myGamesPanel();                         // "My games" (logged in): refreshed with the lists
    clear(listsBox).append(...[mineEl, list, runningEl].filter(Boolean));
    if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
  }

  draw();
  loadGames();
  load();
  timer = setInterval(load, 5000);
  const off = onLang(draw);
  const offAccount = onAccount(() => { if (alive && gamesTried) draw(); });   // the rated box
  return () => { alive = false; clearInterval(timer); off(); offAccount(); };
}
