// The browser client: routing (History API), the page header, the lobby and the table page.
//   /                 lobby            /t/CODE[#token=...]   a table (player or spectator)
//   /replay/CODE      replay.js        /rules/GAME           rules.js
import { t, getLang, setLang, onLang, refusal } from "./i18n.js";
import { h, clear, announce, fly, listText } from "./dom.js";
import { TableConnection } from "./net.js";
import { cardEl } from "./cards.js";
import { seatNames, seatStatus, withRefs } from "./seats.js";
import { api, apiMessage } from "./api.js";
import { signalTurn, signalsMenu, closeSignals } from "./signals.js";
import { loadSeat, saveSeat, dropSeat, mySeats, storedName, storeName } from "./store.js";

const mainEl = () => document.getElementById("main");
let cleanup = null;          // the current page's teardown

// -- header --------------------------------------------------------------------------------------
function renderHeader() {
  const nav = document.getElementById("site-nav");
  clear(nav);
  nav.setAttribute("aria-label", t("nav.lobby"));
  nav.append(
    h("a", { href: "/", "data-link": "" }, t("nav.lobby")),
    h("a", { href: "/rules/abluxxen", "data-link": "" }, t("nav.rules_ab")),
    h("a", { href: "/rules/kombio", "data-link": "" }, t("nav.rules_ko")),
  );
  const sw = document.getElementById("lang-switch");
  clear(sw);
  sw.setAttribute("aria-label", t("nav.lang"));
  for (const [code, label] of [["de", "Deutsch"], ["en", "English"]]) {
    sw.appendChild(h("button", {
      type: "button", class: "lang-btn", lang: code, "aria-pressed": getLang() === code ? "true" : "false",
      "aria-label": label, title: label, "data-lang": code,
      onclick: () => { if (getLang() !== code) setLang(code); },
    }, code.toUpperCase()));
  }
  document.getElementById("skip-link").textContent = t("nav.skip");
  document.documentElement.lang = getLang();
}

// -- routing ---------------------------------------------------------------------------------------
// A table code as the server issues it (server/security.py: public tables 8 letters, private
// tables 26, MAX_CODE_LEN 32): every route and the lobby's code box accept up to 32.
export const MAX_CODE_LEN = 32;
const CODE = `[A-Za-z0-9]{1,${MAX_CODE_LEN}}`;
const TABLE_PATH = new RegExp(`^/t/(${CODE})$`);
const REPLAY_PATH = new RegExp(`^/replay/(${CODE})$`);
// the code at the end of what a person pastes: a code, or a link to a table or its replay
const CODE_IN_TEXT = new RegExp(`([A-Za-z0-9]{4,${MAX_CODE_LEN}})/?([?#].*)?$`);

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}

// A page in a module loaded on demand: its `destroy` becomes the route's cleanup, unless the
// user has navigated on before the module arrived (then the page is not rendered at all).
function lazyPage(loading, render, el) {
  const mine = { destroy: null, gone: false };
  cleanup = () => { mine.gone = true; if (mine.destroy) mine.destroy(); };
  loading.then((mod) => {
    if (mine.gone) return;
    const page = render(mod);
    mine.destroy = page && page.destroy;
  }).catch((e) => el.appendChild(h("p", { class: "error" }, String(e))));
}

function route() {
  if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
  const el = mainEl();
  clear(el);
  el.className = "";
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  if (path === "/") {
    document.title = "cardtable";
    cleanup = renderLobby(el);
  } else if ((m = path.match(TABLE_PATH))) {
    cleanup = renderTablePage(el, m[1].toUpperCase());
  } else if ((m = path.match(REPLAY_PATH))) {
    document.title = `${t("table.replay")} ${m[1]} · cardtable`;
    el.className = "page-replay";
    lazyPage(import("./replay.js"), (mod) => mod.render(el, { code: m[1].toUpperCase() }), el);
  } else if ((m = path.match(/^\/rules\/(abluxxen|kombio)$/))) {
    document.title = `${t("nav.rules")} · ${t("game." + m[1])} · cardtable`;
    el.className = "page-rules";
    lazyPage(import("./rules.js"), (mod) => mod.render(el, { game: m[1] }), el);
  } else {
    document.title = `${t("page.not_found")} · cardtable`;
    el.appendChild(h("div", { class: "panel not-found" }, h("h1", {}, t("page.not_found")), h("p", {}, t("page.not_found_text")),
      h("a", { href: "/", "data-link": "", class: "btn btn-primary" }, t("table.back_lobby"))));
  }
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-link]");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  if (url.pathname + url.hash !== location.pathname + location.hash) navigate(url.pathname + url.hash);
});
window.addEventListener("popstate", route);
onLang(() => {
  renderHeader();
  // lobby and table pages re-render themselves through their own onLang hooks
});

// -- lobby ---------------------------------------------------------------------------------------------
// The Abluxxen rule options (NOTATION.md, `options` of a table) with the clause each one changes,
// and the variants' defaults (src/cardtable/abluxxen/rules.py VARIANTS; GET /api/games lists the
// option names only; a `defaults` map there, if the server ever sends one, wins).
export const AB_OPTIONS = [
  { name: "optional_draw", clause: "AB-15" },
  { name: "ones_beat_top", clause: "AB-20" },
  { name: "shadow_partial", clause: "DU-4", duelOnly: true },
  { name: "tiebreak_fewer_hand", clause: "AB-18" },
];

function renderLobby(el) {
  let games = null;
  let tables = [];
  let running = [];
  const myStatus = {};
  let alive = true;
  const form = {
    game: "abluxxen", variant: "basic", players: 4,
    seats: [], timer: "", target: 100, snap: 5, memory: false, public: true, name: storedName(),
    options: {},             // rule options set differently from the variant's defaults
  };
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

  function playerRange() {
    if (!games) return [2, 6];
    const g = games.find((x) => x.game === form.game);
    const v = form.game === "abluxxen" ? form.variant : "basic";
    return (g && g.players[v]) || [2, 6];
  }

  /** The rule options of the chosen variant: [{name, clause, def, value}]. */
  function ruleOptions() {
    if (form.game !== "abluxxen") return [];
    const g = games && games.find((x) => x.game === "abluxxen");
    const known = g && Array.isArray(g.options) ? g.options : AB_OPTIONS.map((o) => o.name);
    const defs = (g && g.defaults && g.defaults[form.variant]) || {};   // GET /api/games
    return AB_OPTIONS.filter((o) => known.includes(o.name) && (!o.duelOnly || form.variant === "duel") && o.name in defs)
      .map((o) => ({ name: o.name, clause: o.clause, def: !!defs[o.name],
        value: o.name in form.options ? form.options[o.name] : !!defs[o.name] }));
  }

  // The forms are drawn once GET /api/games has answered (their choices of players, levels and
  // options come from it), so they are not drawn again under a click; a failed request leaves
  // the built-in defaults.
  let gamesTried = false;
  async function loadGames() {
    try { games = await api("GET", "/api/games"); } catch (e) { /* the defaults */ }
    gamesTried = true;
    if (alive) draw();
  }

  async function load() {
    try {
      [tables, running] = await Promise.all([api("GET", "/api/tables?limit=20"), api("GET", "/api/tables?status=playing&limit=20")]);
    } catch (e) { /* keep the old lists */ }
    // the status of my own tables (a cancelled one is forgotten)
    await Promise.all(mySeats().slice(0, 6).map(async (s) => {
      try { myStatus[s.code] = (await api("GET", `/api/tables/${s.code}`)).status; } catch (e) { if (e.status === 404) dropSeat(s.code); }
    }));
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
    if (form.game === "abluxxen") {
      body.variant = form.variant;
      const changed = ruleOptions().filter((o) => o.value !== o.def);
      if (changed.length) body.options = Object.fromEntries(changed.map((o) => [o.name, o.value]));
    } else {
      body.target = Number(form.target) || 100;
      body.snap_seconds = Number(form.snap) || 5;
      if (form.memory) body.memory = true;
    }
    if (form.timer) body.turn_seconds = Number(form.timer);
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

  function draw() {
    const focusId = document.activeElement && document.activeElement.id;
    clear(el);
    el.className = "page-lobby";
    const hero = h("section", { class: "hero" },
      h("h1", {}, "cardtable"),
      h("p", { class: "tagline" }, t("app.tagline")),
      h("p", { class: "muted" }, t("lobby.intro"),
        " ", h("a", { href: "/rules/abluxxen", "data-link": "" }, t("nav.rules_ab")),
        " · ", h("a", { href: "/rules/kombio", "data-link": "" }, t("nav.rules_ko"))));
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
        field(t("lobby.game"), select("f-game", form.game, [["abluxxen", "Abluxxen"], ["kombio", "Kombio"]],
          (v) => { form.game = v; form.players = v === "kombio" ? 4 : 4; draw(); }), "f-game"),
        form.game === "abluxxen" ? field(t("lobby.variant"), select("f-variant", form.variant,
          ["basic", "advanced", "expert", "duel", "classic"].map((v) => [v, t("variant." + v)]),
          (v) => { form.variant = v; form.options = {}; form.players = v === "duel" ? 2 : Math.max(form.players, 3); draw(); }), "f-variant") : null,
        field(t("lobby.players"), select("f-players", form.players, players, (v) => { form.players = Number(v); draw(); }), "f-players"),
        field(t("lobby.timer"), select("f-timer", form.timer, [["", t("lobby.timer_none")], ["30", "30 s"], ["60", "60 s"], ["120", "120 s"], ["300", "300 s"]],
          (v) => { form.timer = v; }), "f-timer"),
        form.game === "kombio" ? field(t("lobby.target"), h("input", { id: "f-target", type: "number", min: 1, max: 1000, value: form.target,
          oninput: (e) => { form.target = e.target.value; } }), "f-target") : null,
        form.game === "kombio" ? field(t("lobby.snap"), select("f-snap", form.snap, [[3, "3 s"], [5, "5 s"], [8, "8 s"], [12, "12 s"]],
          (v) => { form.snap = Number(v); }), "f-snap") : null,
      ),
      form.game === "kombio" ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-memory", checked: form.memory,
        onchange: (e) => { form.memory = e.target.checked; } }), " ", t("lobby.memory")) : null,
      form.game === "abluxxen" ? h("fieldset", { class: "rule-options", id: "rule-options" }, h("legend", {}, t("lobby.options")),
        h("p", { class: "muted small" }, t("lobby.options_hint", { variant: t("variant." + form.variant) })),
        h("ul", { class: "option-list" }, ruleOptions().map((o) => h("li", { class: "option-row" },
          h("label", { class: "check" }, h("input", { type: "checkbox", id: `opt-${o.name}`, name: o.name, checked: o.value,
            data: { default: o.def ? "true" : "false" },
            onchange: (e) => {
              if (e.target.checked === o.def) delete form.options[o.name]; else form.options[o.name] = e.target.checked;
              draw();
            } }), " ", t("opt." + o.name)),
          h("span", { class: "opt-meta" },
            h("a", { class: "clause-ref", href: `/rules/abluxxen#${o.clause}`, target: "_blank", rel: "noopener",
              title: t("lobby.option_clause", { id: o.clause }) }, o.clause),
            o.value !== o.def ? h("span", { class: "chip chip-changed" }, t("lobby.option_changed")) : h("span", { class: "muted small" }, t("lobby.option_default"))))))) : null,
      h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), h("ol", { class: "seat-list" }, seatRows)),
      h("div", { class: "field-grid" },
        field(t("lobby.name"), h("input", { id: "f-name", type: "text", maxlength: 32, required: true, autocomplete: "nickname",
          placeholder: t("lobby.name_ph"), value: form.name, oninput: (e) => { form.name = e.target.value; syncName("j-name", form.name); } }), "f-name"),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "f-public", checked: form.public,
          onchange: (e) => { form.public = e.target.checked; } }), " ", t("lobby.public")),
      ),
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

    el.append(hero,
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

    const mine = mySeats().slice(0, 6);
    const mineEl = mine.length ? h("div", { class: "panel my-tables" }, h("h2", {}, t("lobby.my_tables")),
      h("ul", { class: "table-list" }, mine.map((s) => h("li", { class: "table-item", data: { code: s.code, status: myStatus[s.code] || "" } },
        h("div", { class: "ti-main" }, h("strong", {}, s.game ? t("game." + s.game) : ""), ` · ${s.code} · ${s.name || ""}`,
          myStatus[s.code] ? h("span", { class: "chip chip-status" }, t("lobby.status." + myStatus[s.code])) : null),
        h("div", { class: "ti-actions" }, h("a", { class: "btn btn-small", href: myStatus[s.code] === "over" ? `/replay/${s.code}` : `/t/${s.code}`, "data-link": "",
          "aria-label": `${myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume")}: ${s.code}` }, myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume"))))))) : null;

    clear(listsBox).append(...[mineEl, list, runningEl].filter(Boolean));
    if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
  }

  draw();
  loadGames();
  load();
  timer = setInterval(load, 5000);
  const off = onLang(draw);
  return () => { alive = false; clearInterval(timer); off(); };
}

// -- the table page ------------------------------------------------------------------------------
const GAME_MODULES = { abluxxen: "./abluxxen.js", kombio: "./kombio.js" };

function renderTablePage(el, code) {
  document.title = `${code} · cardtable`;
  el.className = "page-table";
  document.body.classList.add("route-table");
  // a link with a seat's token (/t/CODE#token=...): never taken silently, the visitor is asked
  // first (a crafted link would otherwise seat them in somebody else's seat); the token leaves
  // the address bar at once
  const hm = location.hash.match(/token=([^&]+)/);
  let linkToken = null;
  if (hm) {
    try { linkToken = decodeURIComponent(hm[1]); } catch (e) { linkToken = null; }
    history.replaceState({}, "", `/t/${code}`);
  }
  const S = {
    code, table: null, state: null, status: "connecting",
    mod: null, ui: {}, pendingFx: [], conn: null, error: "", joinError: "", gone: false,
    sideOpen: false, wasTurn: false, readySent: null,
  };
  let tick = null;
  let alive = true;           // false once the user has left the page (see the cleanup below)

  const root = h("div", { class: "table-page" });
  el.appendChild(root);

  function myInfo() { return loadSeat(code); }

  async function start() {
    try {
      S.table = await api("GET", `/api/tables/${code}`);
    } catch (e) {
      // no such table, or another reason (too many requests, the server unreachable) in words
      const why = e.status === 404 ? null : apiMessage(e);
      clear(root).appendChild(h("div", { class: "panel" }, h("h1", {}, why ? t("lobby.error", { msg: why }) : t("table.not_found", { code })),
        h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
      return;
    }
    S.mod = await import(GAME_MODULES[S.table.game]);
    if (!alive) return;                        // left while loading: open no connection
    const mine = myInfo();
    if (linkToken && !(mine && mine.token === linkToken)) {
      drawLinkConfirm(mine);
      return;
    }
    if (!mine && S.table.status === "waiting" && S.table.free_seats.length) {
      drawJoin();
      return;
    }
    connect(mine && mine.token);
  }

  function connect(token) {
    if (!alive) return;
    S.conn = new TableConnection(code, {
      token, lang: getLang(),
      onMessage, onStatus: (st) => { S.status = st; drawStatus(); },
      onClose: (c) => {
        if (c === 4401) {
          dropSeat(code);
          S.error = t("table.bad_token");
          S.conn.restart({ token: null });
        } else { S.gone = true; draw(); }
      },
    });
    S.conn.connect();
    draw();
  }

  function drawLinkConfirm(mine) {
    clear(root);
    const token = linkToken;
    root.appendChild(h("div", { class: "panel join-table", id: "link-confirm", role: "region", "aria-labelledby": "lc-h" },
      h("h1", { id: "lc-h" }, `${t("game." + S.table.game)} · ${t("table.code", { code })}`),
      h("p", {}, t("table.link_seat")),
      h("p", { class: "muted" }, t("table.link_warn")),
      mine ? h("p", { class: "muted" }, t("table.link_replaces", { name: mine.name || t("seat.name", { n: (mine.seat || 0) + 1 }) })) : null,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "btn btn-primary", id: "take-linked-seat", onclick: () => {
          linkToken = null;
          saveSeat(code, { token, game: S.table.game });
          connect(token);
        } }, t("table.link_take")),
        h("button", { type: "button", class: "btn", id: "watch-instead", onclick: () => { linkToken = null; connect(mine ? mine.token : null); } },
          mine ? t("table.link_keep") : t("table.watch")))));
  }

  function drawJoin() {
    clear(root);
    const names = seatNames(S.table.seats);
    let name = storedName();
    const form = h("form", { class: "panel join-table", onsubmit: async (e) => {
      e.preventDefault();
      if (!name.trim()) { S.joinError = t("lobby.name_needed"); drawJoin(); return; }
      storeName(name.trim());
      try {
        const j = await api("POST", `/api/tables/${code}/join`, { name: name.trim() });
        saveSeat(code, { token: j.token, seat: j.seat, name: j.name, game: S.table.game });
        connect(j.token);
      } catch (err) { S.joinError = t("lobby.error", { msg: apiMessage(err) }); drawJoin(); }
    } },
    h("h1", {}, `${t("game." + S.table.game)} · ${t("table.code", { code })}`),
    h("ul", { class: "seat-chips" }, names.map((n, i) => h("li", { class: "chip" + (S.table.free_seats.includes(i) ? " chip-free" : "") },
      S.table.free_seats.includes(i) ? `${t("seat.name", { n: i + 1 })}: ${t("seat.open")}` : n))),
    h("div", { class: "field" }, h("label", { for: "tj-name" }, t("lobby.name")),
      h("input", { id: "tj-name", type: "text", maxlength: 32, value: name, autocomplete: "nickname", oninput: (e) => { name = e.target.value; } })),
    S.joinError ? h("p", { class: "error", role: "alert" }, S.joinError) : null,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "btn btn-primary", id: "take-seat" }, t("table.join_here")),
      h("button", { type: "button", class: "btn", id: "just-watch", onclick: () => connect(null) }, t("table.watch"))));
    root.appendChild(form);
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        if (msg.role === "player") {
          const mine = myInfo() || {};
          saveSeat(code, Object.assign(mine, { seat: msg.seat, name: msg.name, game: msg.game }));
        }
        break;
      case "state": {
        const prev = S.state;
        S.state = msg;
        msg._recv = Date.now() / 1000;
        if (!prev || prev.index !== msg.index) S.error = "";
        if (prev && (prev.index !== msg.index || (prev.window && !msg.window))) S.ui = {};
        if (S.table) {
          S.table.status = msg.status;
          S.table.seats = msg.seats;
          if (msg.settings) Object.assign(S.table, msg.settings);
        }
        if (msg.type === "state" && msg.status === "cancelled") { S.gone = true; }
        draw();
        signalTurn(S, prev, msg);
        break;
      }
      case "event": {
        if (S.mod && S.mod.animHints && S.state) {
          try { S.pendingFx.push(...S.mod.animHints(S.state.view, msg, S.state.seat)); } catch (e) { /* ignore */ }
        }
        if (msg.text && S.mod && S.mod.logText) {
          try { msg.text = S.mod.logText(msg, S.state, S.table) || msg.text; } catch (e) { /* keep the server's */ }
        }
        appendLog(msg);
        if (msg.text) announce(msg.text.replace(/\s*\((?:AB|DU|CL|KO)-[^)]*\)/g, ""));
        break;
      }
      case "error":
        if (!["stale", "already_answered", "not_your_turn"].includes(msg.code)) {
          S.error = t("table.error", { msg: msg.reason_code ? refusal(msg) : (msg.message || msg.code) });
          drawStatus();
          announce(S.error);
        }
        break;
      case "rematch":
        if (S.state) S.state.rematch = msg.table;
        draw();
        break;
      case "cancelled":
        S.cancelled = true;
        dropSeat(code);
        draw();
        break;
      default:
        break;
    }
  }

  function decide(text) {
    if (!S.conn || !S.state) return;
    S.conn.send({ type: "decide", decision: text, index: S.state.index });
  }

  function names() {
    const seats = (S.state && S.state.seats) || (S.table && S.table.seats) || [];
    const base = seatNames(seats);
    const me = S.state ? S.state.seat : null;
    return base.map((n, i) => (i === me ? `${n} (${t("seat.you")})` : n));
  }

  // layout: status bar, board, side panel (scores, log; a drawer on small screens)
  const statusEl = h("div", { class: "status-bar", role: "region", "aria-label": t("table.status") });
  const boardEl = h("div", { class: "board", id: "board" });
  const logList = h("ol", { class: "log-list", id: "log-list", "aria-labelledby": "log-h" });
  const sideScores = h("div", { class: "side-scores", id: "side-scores" });
  const sideClose = h("button", { type: "button", class: "btn btn-small side-close", id: "side-close", onclick: () => toggleSide(false) }, "✕");
  const sideEl = h("aside", { class: "side", id: "side", "aria-label": t("table.log"), hidden: true },
    sideScores, h("div", { class: "side-head" }, h("h2", { id: "log-h", class: "side-h" }), sideClose), logList);

  function toggleSide(open) {
    S.sideOpen = open;
    sideEl.hidden = !open;
    const b = document.getElementById("log-toggle");
    if (b) b.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && getComputedStyle(sideEl).position === "fixed") sideClose.focus();
    else if (!open && b) b.focus();
  }

  function appendLog(ev) {
    if (!ev.text) return;
    const li = h("li", { class: "log-item" + (ev.seat === (S.state && S.state.seat) ? " log-mine" : ""), data: { index: ev.index } },
      h("span", { class: "log-n" }, String(ev.index + 1)), " ", withRefs(ev.text));
    logList.appendChild(li);
    while (logList.childNodes.length > 400) logList.removeChild(logList.firstChild);
    logList.scrollTop = logList.scrollHeight;
  }

  function drawStatus() {
    // the bar is rebuilt on every state: what the player had open or focused in it stays so
    const had = document.activeElement;
    const focusId = had && statusEl.contains(had) && had.id ? had.id : null;
    clear(statusEl);
    if (!S.table) return;
    const st = S.state;
    const game = S.table.game;
    const title = game === "abluxxen" ? `Abluxxen · ${t("variant." + (S.table.variant || "basic"))}` : "Kombio";
    const conn = S.status === "open" ? null
      : h("span", { class: "conn conn-" + S.status, id: "conn-status", role: "alert" },
        S.status === "connecting" ? null : h("span", { class: "conn-icon", "aria-hidden": "true" }, "⟳ "),
        t({ reconnecting: "table.reconnecting", offline: "table.offline" }[S.status] || "table.connecting"));
    // while the connection is lost the board stays visible but takes no clicks (nothing sent
    // could arrive); the state that comes with the reconnect redraws it
    const lost = S.status === "reconnecting" || S.status === "offline";
    boardEl.classList.toggle("is-disconnected", lost);
    if (lost) boardEl.setAttribute("inert", ""); else boardEl.removeAttribute("inert");
    boardEl.setAttribute("aria-busy", lost ? "true" : "false");
    let turn = null;
    if (st && st.status === "playing") {
      const nm = names().map((x, i) => (i === st.seat ? seatNames(st.seats)[i] : x));
      if (st.round_break) turn = h("span", { class: "turn", id: "turn-badge" }, t("table.round_break"));
      else if (st.your_turn) turn = h("span", { class: "turn turn-you", id: "turn-badge" }, "▶ ", t("table.turn_you"));
      else if (st.waiting_for.length) turn = h("span", { class: "turn", id: "turn-badge" }, t("table.turn_of", { name: listText(st.waiting_for.map((s) => nm[s]), t("list.and")) }));
    } else if (st && st.status === "over") {
      turn = h("span", { class: "turn turn-over", id: "turn-badge" }, t("table.over"));
    }
    const clock = h("span", { class: "clock", id: "clock", role: "timer", "aria-live": "off" });
    const playing = st && st.status !== "waiting";
    statusEl.append(
      h("div", { class: "sb-left" }, h("h1", { class: "sb-title" }, title),
        h("span", { class: "sb-code" }, t("table.code", { code })),
        st && st.seat === null ? h("span", { class: "chip chip-spectator" }, "◉ ", t("table.spectator")) : null,
        S.table.memory ? h("span", { class: "chip", id: "memory-chip", title: t("ko.memory_on", { s: 5 }) }, t("table.memory")) : null),
      h("div", { class: "sb-right" }, conn, turn, clock,
        playing ? signalsMenu(S, drawStatus) : null,
        playing ? h("button", { type: "button", class: "btn btn-small icon-btn log-toggle", id: "log-toggle", "aria-controls": "side",
          "aria-expanded": S.sideOpen ? "true" : "false", onclick: () => toggleSide(!S.sideOpen) }, t("table.show_log")) : null,
        h("a", { class: "btn btn-small", href: `/rules/${game}`, "data-link": "", id: "rules-link" }, t("table.rules"))),
    );
    if (S.error) statusEl.appendChild(h("p", { class: "error sb-error", role: "alert" }, S.error));
    updateClock();
    if (focusId && !statusEl.contains(document.activeElement)) {
      const f = document.getElementById(focusId);
      if (f && statusEl.contains(f)) f.focus({ preventScroll: true });
    }
  }

  /** A press outside the ♪ menu closes it (as a menu does); a press outside the board takes the
   * keyboard's place out of the table (draw() no longer brings it back). */
  function closeSignalsOutside(ev) {
    const tgt = ev.target;
    if (S.signalsOpen && !(tgt instanceof Node && tgt.closest && tgt.closest("#signals"))) closeSignals(S);
    if (tgt instanceof Node && !boardEl.contains(tgt)) S.kbInBoard = false;
  }
  document.addEventListener("pointerdown", closeSignalsOutside, true);

  function updateClock() {
    const c = document.getElementById("clock");
    if (!c || !S.state) return;
    const st = S.state;
    const until = st.round_break ? null : st.deadline;          // a break: the summary tells
    const r = document.getElementById("rs-left");
    if (r && st.round_break) {
      const skew = (st._recv || Date.now() / 1000) - st.server_time;
      r.textContent = t("ko.rs.left", { s: Math.max(0, Math.ceil(st.round_break.until + skew - Date.now() / 1000)) });
    }
    if (until && st.status === "playing") {
      const skew = (st._recv || Date.now() / 1000) - st.server_time;
      const left = Math.max(0, Math.ceil(until + skew - Date.now() / 1000));
      c.textContent = "◷ " + t("table.seconds_left", { s: left });
      c.classList.toggle("clock-low", left <= 5);
      const w = document.getElementById("window-time");
      if (w && w.lastChild && w.lastChild.nodeType === 3) w.lastChild.textContent = t("ko.window_left", { s: left });
    } else c.textContent = "";
  }

  function captureRects() {
    const out = {};
    for (const n of root.querySelectorAll("[data-region]")) {
      const card = n.classList.contains("card") ? n : n.querySelector(".card");
      out[n.dataset.region] = { rect: n.getBoundingClientRect(), node: card ? card.cloneNode(true) : null };
    }
    return out;
  }

  /** Cards fly from where they were to where they went: the cards of the event when it names
   * them (a played set, a pool card), else a copy of what lay there. A region is a place, so
   * the flight starts where that place is now: a panel that opened above the board (a round's
   * summary, the final score) moves the board down, and a card must not start from the panel.
   * A place that is gone (the drawn card) starts from where it was, moved as far as the deck;
   * cards still flying from an earlier move land where the board was, so they are put away. */
  function runFx(before) {
    const deckEl = root.querySelector('[data-region="deck"]');
    const deckNow = deckEl && before.deck ? deckEl.getBoundingClientRect() : null;
    const dx = deckNow ? deckNow.left - before.deck.rect.left : 0;
    const dy = deckNow ? deckNow.top - before.deck.rect.top : 0;
    const layer = document.getElementById("fx-layer");
    if (layer && (dx || dy)) clear(layer);
    const fx = S.pendingFx.splice(0);
    if (!fx.length || !S.table) return;
    for (const f of fx.slice(-4)) {
      const a = before[f.from];
      const bEl = root.querySelector(`[data-region="${CSS.escape(f.to)}"]`);
      if (!a || !bEl) continue;
      let node = a.node || document.createElement("div");
      let size = { w: 44, h: 62 };
      if (f.cards && f.cards.length) {
        node = h("div", {}, f.cards.map((c) => cardEl(S.table.game, c, { size: "sm" })));
        size = { w: f.cards.length * 36, h: 48 };
      } else if (f.back) {
        node = cardEl(S.table.game, "?", { back: true, size: "sm" });
        size = { w: 34, h: 48 };
      }
      const aEl = root.querySelector(`[data-region="${CSS.escape(f.from)}"]`);
      const r = aEl ? aEl.getBoundingClientRect()
        : { left: a.rect.left + dx, top: a.rect.top + dy, width: a.rect.width, height: a.rect.height };
      const from = { left: r.left + r.width / 2 - size.w / 2, top: r.top + r.height / 2 - size.h / 2, width: size.w, height: size.h };
      fly(node, from, bEl.getBoundingClientRect());
    }
  }

  function breakSummary(st) {
    const b = st.round_break;
    if (!b) return null;
    const me = st.seat;
    const mine = me !== null && b.ready.includes(me);
    const canReady = me !== null && !mine && b.waiting.includes(me);
    return {
      mine: mine || (S.readySent === st.index),
      onReady: canReady && S.readySent !== st.index ? () => {
        S.readySent = st.index;
        S.conn.send({ type: "ready" });
        draw();
      } : null,
      waiting: b.waiting.filter((s) => s !== me || !(S.readySent === st.index)),
      left: Math.max(0, Math.ceil(b.until + ((st._recv || Date.now() / 1000) - st.server_time) - Date.now() / 1000)),
    };
  }

  function draw() {
    if (!S.table) return;
    if (!root.contains(statusEl)) {
      clear(root);
      root.append(statusEl, h("div", { class: "table-layout" }, boardEl, sideEl));
    }
    sideEl.querySelector("#log-h").textContent = t("table.log");
    sideClose.setAttribute("aria-label", t("table.close_log"));
    drawStatus();
    const st = S.state;
    document.body.classList.toggle("fit", !!st && st.status === "playing" && !S.gone && !S.cancelled);
    if (S.gone || S.cancelled) {
      clear(boardEl).appendChild(h("div", { class: "panel" }, h("p", { class: "error" }, S.cancelled ? t("table.cancelled") : t("table.not_found", { code })),
        h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
      return;
    }
    if (!st) {
      clear(boardEl).appendChild(h("p", { class: "muted loading" }, t("table.connecting")));
      return;
    }
    boardEl.dataset.index = String(st.index);
    boardEl.dataset.status = st.status;
    boardEl.dataset.seat = st.seat === null ? "" : String(st.seat);
    const before = captureRects();
    const active = document.activeElement;
    // the keyboard is in the table: on a control of the board, or lost to the page's body by
    // a control that went away since (the player did not go elsewhere: see kbInBoard)
    const hadFocus = !!active && (boardEl.contains(active)
      || (S.kbInBoard && (active === document.body || active === document.documentElement)));
    const focusKey = hadFocus && boardEl.contains(active) && active.dataset ? active.dataset.key
      : (hadFocus ? S.kbKey : null);
    clear(boardEl);
    if (st.status === "waiting") {
      drawWaiting();
    } else {
      if (st.away) {
        boardEl.appendChild(h("div", { class: "banner", id: "away-banner" }, t("table.away"), " ",
          h("button", { type: "button", class: "btn btn-small", id: "im-back", onclick: () => S.conn.send({ type: "back" }) }, t("table.im_back"))));
      }
      const gameEl = h("div", { class: "game" });
      boardEl.appendChild(gameEl);
      const opts = {
        readonly: st.seat === null, seat: st.seat, legal: st.round_break ? [] : st.legal, names: names(), state: st,
        plainNames: seatNames(st.seats), seats: st.seats,
        ui: S.ui, decide, rerender: draw, table: S.table, summary: breakSummary(st),
      };
      const fn = S.table.game === "abluxxen" ? S.mod.renderAbluxxen : S.mod.renderKombio;
      fn(gameEl, st.view, opts);
      if (st.status === "over") (gameEl.querySelector("#result") || boardEl).appendChild(endActions());
      if (S.mod.scores && S.table.game === "kombio") clear(sideScores).appendChild(S.mod.scores(st.view, opts));
    }
    if (hadFocus && !boardEl.contains(document.activeElement)) restoreFocus(focusKey);
    runFx(before);
  }

  /** Keep the keyboard in the table after a redraw: the same control if it is still there and
   * can still take the focus (a pool card is a button only while it may be drawn), else the
   * decision's first control, else the hand, else the player's own area, else the board. */
  function restoreFocus(key) {
    const same = key ? [...boardEl.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)] : [];
    const candidates = same.concat(
      [...boardEl.querySelectorAll("#action-bar button:not(:disabled), #ready-btn, .hand button.card:not(:disabled), button.can-pick")],
      [...boardEl.querySelectorAll("#my-area")], [boardEl]);
    for (const el of candidates) {
      if (!canFocus(el)) continue;
      el.focus({ preventScroll: true });
      if (document.activeElement === el) return;
    }
  }

  /** An element the keyboard can be put on: a control or a tabindex, enabled, shown, not inert. */
  function canFocus(el) {
    if (!el || el.disabled || el.closest("[inert], [hidden]")) return false;
    if (!(el.tabIndex >= 0 || el.hasAttribute("tabindex"))) return false;
    return el.getClientRects().length > 0;
  }

  // where the keyboard is: in the table (kept across redraws) or elsewhere on the page (left there)
  boardEl.setAttribute("tabindex", "-1");
  function onFocusIn(ev) {
    const inBoard = boardEl.contains(ev.target);
    if (ev.target === document.body) return;
    S.kbInBoard = inBoard;
    S.kbKey = inBoard && ev.target.dataset ? ev.target.dataset.key || null : null;
  }
  document.addEventListener("focusin", onFocusIn);

  function drawWaiting() {
    const link = `${location.origin}/t/${code}`;
    const st = S.state;
    const free = st.seats.filter((s) => s.kind === "human" && !s.joined).length;
    const nm = names();
    const host = st.seat !== null && st.seat === (S.table.host === undefined ? firstHuman(st.seats) : S.table.host);
    const levels = ["easy", "medium", "hard", "expert"];
    const seatRow = (s, i) => {
      const open = s.kind === "human" && !s.joined;
      const row = h("li", { class: "wait-seat" + (open ? " is-open" : ""), data: { seat: i } },
        h("span", { class: "seat-n" }, t("seat.name", { n: i + 1 })),
        h("span", { class: "wait-name" }, open ? t("seat.open") : nm[i]),
        open ? null : seatStatus({ seats: st.seats }, i));
      if (host && open) {
        row.appendChild(h("button", { type: "button", class: "btn btn-small", id: `to-bot-${i}`, onclick: () => S.conn.send({ type: "seat", seat: i, kind: "bot", bot: "medium" }) }, t("wait.to_bot")));
      } else if (host && s.kind === "bot") {
        const sel = h("select", { id: `bot-level-${i}`, "aria-label": t("wait.level", { n: i + 1 }),
          onchange: (e) => S.conn.send({ type: "seat", seat: i, kind: "bot", bot: e.target.value }) },
        levels.map((l) => h("option", { value: l, selected: s.bot === l }, t("level." + l))));
        row.append(sel, h("button", { type: "button", class: "btn btn-small", id: `to-human-${i}`, onclick: () => S.conn.send({ type: "seat", seat: i, kind: "human" }) }, t("wait.to_human")));
      }
      return row;
    };
    boardEl.appendChild(h("div", { class: "panel waiting" },
      h("h2", {}, t("table.waiting", { n: free })),
      h("ul", { class: "wait-seats", id: "wait-seats" }, st.seats.map(seatRow)),
      h("p", {}, t("table.share")),
      h("div", { class: "share" }, h("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": t("table.share"),
        onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "btn", onclick: async (e) => {
        try { await navigator.clipboard.writeText(link); e.target.textContent = t("table.copied"); } catch (err) { document.getElementById("share-link").select(); }
      } }, t("table.copy"))),
      host ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "cancel-table", onclick: () => {
        if (window.confirm(t("wait.cancel_confirm"))) S.conn.send({ type: "cancel" });
      } }, t("wait.cancel"))) : null,
    ));
  }

  function endActions() {
    const st = S.state;
    const mine = myInfo();
    const box = h("div", { class: "end-actions" },
      h("a", { class: "btn", href: `/replay/${code}`, "data-link": "", id: "replay-link" }, t("table.replay")),
      h("a", { class: "btn", href: "/", "data-link": "" }, t("table.back_lobby")));
    if (st.rematch) {
      box.prepend(h("button", { type: "button", class: "btn btn-primary", id: "to-rematch", onclick: () => {
        if (mine) saveSeat(st.rematch, Object.assign({}, mine));
        navigate(`/t/${st.rematch}`);
      } }, t("table.to_rematch")));
    } else if (mine && st.seat !== null) {
      box.prepend(h("button", { type: "button", class: "btn btn-primary", id: "rematch-btn", onclick: async () => {
        try {
          const tb = await api("POST", `/api/tables/${code}/rematch`, { token: mine.token });
          saveSeat(tb.code, Object.assign({}, mine));
          navigate(`/t/${tb.code}`);
        } catch (e) { S.error = t("lobby.error", { msg: apiMessage(e) }); drawStatus(); }
      } }, t("table.rematch")));
    }
    return box;
  }

  function keydown(ev) {
    if (ev.key === "Escape" && S.signalsOpen) { closeSignals(S, { focus: true }); ev.preventDefault(); return; }
    if (ev.key === "Escape" && S.sideOpen && getComputedStyle(sideEl).position === "fixed") { toggleSide(false); ev.preventDefault(); return; }
    if (!S.mod || !S.state || ev.target.closest("input, select, textarea, summary")) return;
    if (S.status !== "open" || S.state.round_break) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (S.mod.onKey && S.mod.onKey(ev, { state: S.state, ui: S.ui, decide, rerender: draw, root: boardEl })) ev.preventDefault();
  }
  document.addEventListener("keydown", keydown);

  const offLang = onLang((lang) => {
    if (S.conn) {
      clear(logList);
      S.conn.restart({ lang, resetEvents: true });
    }
    if (S.table && !S.conn) { if (linkToken) drawLinkConfirm(myInfo()); else drawJoin(); }
    else draw();
  });
  tick = setInterval(() => {
    updateClock();
    if (S.mod && S.mod.onTick && S.state) S.mod.onTick({ ui: S.ui, rerender: draw, state: S.state });
  }, 500);

  start();
  return () => {
    alive = false;
    offLang();
    clearInterval(tick);
    document.removeEventListener("keydown", keydown);
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("pointerdown", closeSignalsOutside, true);
    document.body.classList.remove("route-table", "fit");
    if (S.conn) S.conn.close();
  };
}

function firstHuman(seats) {
  const s = seats.find((x) => x.kind === "human");
  return s ? s.seat : null;
}

// -- start -----------------------------------------------------------------------------------------
renderHeader();
route();
