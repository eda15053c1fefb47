// Human ratings in the browser (docs/ratings.md): a player's profile
// (/players/NAME: games played and won, the ratings with a small history chart and its table,
// the recent games with their replays, the bots beaten) and the leaderboard of a game
// (/leaderboard/GAME: the established ratings, and below them the provisional ones apart, under
// their own heading).
// Loaded on demand by app.js. The chart is inline SVG drawn here: a
// <title> and <desc> name it for screen readers, and the same points are in a table below it.
import { t, getLang, onLang, formatNumber } from "./i18n.js";
import { h, clear } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { GAMES, GAME_IDS } from "./games.js";
import { account, onAccount } from "./account.js";
import { openReport } from "./report.js";
import { identityBlock } from "./profile.js";

// a rating with one decimal in the page's language, a negative one with a real minus sign
const fmt = (x) => formatNumber(x, 1);
const day = (at) => new Date(at * 1000).toLocaleDateString(getLang(), { year: "numeric", month: "short", day: "numeric" });
const title = (g) => (GAMES[g] ? GAMES[g].title : g);
const variantName = (v) => (v ? t("variant." + v) : "");

export function profileHref(name) { return `/players/${encodeURIComponent(name)}`; }

/** The page of `route` ({ player } or { game }) in `el`; returns { destroy }. */
export function render(el, route) {
  let alive = true;
  // the leaderboard: the established ratings (`data`) and the provisional ones apart (`prov`),
  // each paged on its own
  let state = { data: null, prov: null, error: null, minGames: 1, offset: 0, provOffset: 0 };
  const draw = () => { if (alive) (route.player !== undefined ? drawProfile : drawBoard)(el, state, route, reload); };
  async function reload() {
    try {
      state.data = route.player !== undefined
        ? await api("GET", `/api/players/${encodeURIComponent(route.player)}`)
        : await api("GET", `/api/leaderboard/${route.game}?min_games=${state.minGames}&offset=${state.offset}&limit=25`);
      if (route.player === undefined) {
        state.prov = await api("GET", `/api/leaderboard/${route.game}?min_games=${state.minGames}&provisional=true&offset=${state.provOffset}&limit=25`);
      }
      state.error = null;
    } catch (e) {
      state.data = null;
      state.error = e;
    }
    draw();
  }
  draw();
  reload();
  const off = onLang(draw);
  return { destroy: () => { alive = false; off(); } };
}

// -- the chart --------------------------------------------------------------------------------
const W = 320, H = 120, PAD = 28;

/** An SVG line of the conservative rating after each game (0: before the first). */
export function chart(name, game, history, id) {
  const pts = [0, ...history.map((p) => p.rating)];
  const lo = Math.min(0, ...pts), hi = Math.max(1, ...pts);
  const x = (i) => PAD + (i * (W - PAD - 8)) / Math.max(1, pts.length - 1);
  const y = (v) => 8 + ((hi - v) * (H - 8 - 20)) / (hi - lo || 1);
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const last = pts[pts.length - 1];
  const label = t("rt.chart_label", { name, game: title(game), n: history.length, from: fmt(0), to: fmt(last) });
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rt-chart", role: "img", "aria-labelledby": `${id}-t ${id}-d`, id });
  svg.append(el("title", { id: `${id}-t` }, t("rt.chart_title", { game: title(game) })), el("desc", { id: `${id}-d` }, label));
  for (const v of [lo, hi]) {
    svg.append(el("line", { x1: PAD, x2: W - 8, y1: y(v), y2: y(v), class: "rt-grid" }),
      el("text", { x: PAD - 4, y: y(v) + 4, class: "rt-axis", "text-anchor": "end" }, fmt(v)));
  }
  if (lo < 0 && hi > 0) svg.append(el("line", { x1: PAD, x2: W - 8, y1: y(0), y2: y(0), class: "rt-zero" }));
  svg.append(el("polyline", { class: "rt-line", points: pts.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  pts.forEach((v, i) => { if (i) svg.append(el("circle", { cx: x(i), cy: y(v), r: 3, class: "rt-dot" })); });
  svg.append(el("text", { x: PAD, y: H - 4, class: "rt-axis" }, t("rt.chart_games", { n: history.length })));
  return svg;
}

function historyTable(history, game) {
  return h("details", { class: "rt-details" }, h("summary", {}, t("rt.history_table")),
    h("div", { class: "rt-scroll" }, h("table", { class: "rt-table" },
      h("caption", { class: "sr-only" }, t("rt.chart_title", { game: title(game) })),
      h("thead", {}, h("tr", {}, ...["rt.col_n", "rt.col_date", "rt.col_place", "rt.col_rating"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, history.map((p, i) => h("tr", {},
        h("td", {}, String(i + 1)), h("td", {}, day(p.at)),
        h("td", {}, p.left ? t("rt.left") : String(p.rank),
          p.annulled ? [" ", h("span", { class: "chip", title: t("rt.annulled_hint") }, t("rt.annulled"))] : null,
          p.code ? [" ", h("a", { href: `/replay/${p.code}`, "data-link": "" }, t("table.replay"))] : null),
        h("td", { class: "num" }, fmt(p.rating))))))));
}

// -- the profile --------------------------------------------------------------------------------
function drawProfile(el, state, route) {
  clear(el);
  el.className = "page-ratings page-profile";
  const p = state.data;
  document.title = `${p ? p.name : route.player} · cardtable`;
  if (!p) {
    el.append(h("div", { class: "panel" }, h("h1", {}, route.player),
      state.error ? h("p", { class: state.error.status === 404 ? "muted" : "error", role: "alert" },
        state.error.status === 404 ? t("rt.no_player") : apiMessage(state.error)) : h("p", { class: "muted" }, t("rt.loading")),
      boardLinks()));
    return;
  }
  const head = h("section", { class: "panel rt-head" },
    h("h1", {}, p.name), h("p", { class: "muted" }, t("rt.since", { date: day(p.created_at) })),
    identityBlock(p.name), actionsSlot(p.name));
  const ratings = h("section", { class: "panel", "aria-labelledby": "rt-ratings-h" }, h("h2", { id: "rt-ratings-h" }, t("rt.ratings")),
    p.ratings.length === 0 ? h("p", { class: "muted" }, t("rt.no_ratings")) :
      h("div", { class: "rt-cards" }, p.ratings.map((r, i) => h("div", { class: "rt-card", data: { game: r.game } },
        h("h3", {}, title(r.game), " ", h("a", { class: "small", href: `/leaderboard/${r.game}`, "data-link": "" }, t("rt.leaderboard"))),
        h("p", { class: "rt-value" }, h("strong", { class: "rt-rating" }, fmt(r.rating)), " ",
          r.provisional ? [h("span", { class: "chip chip-provisional" }, t("rt.provisional")), " "] : null,
          h("span", { class: "muted" }, t("rt.games_wins", { n: r.games, w: r.wins }))),
        r.provisional ? h("p", { class: "muted small rt-provisional-why" }, t("rt.provisional_why", { n: r.games, o: r.opponents, games: p.established.games, opponents: p.established.opponents })) : null,
        chart(p.name, r.game, r.history, `rt-chart-${i}`),
        historyTable(r.history, r.game)))),
    h("p", { class: "muted small" }, t("rt.explain"), " ", h("a", { href: "/leaderboard/" + GAME_IDS[0], "data-link": "" }, t("rt.leaderboards"))));
  const withVariant = p.games.some((g) => g.variant);
  const counts = h("section", { class: "panel", "aria-labelledby": "rt-games-h" }, h("h2", { id: "rt-games-h" }, t("rt.games")),
    p.games.length === 0 ? h("p", { class: "muted" }, t("rt.no_games")) :
      h("div", { class: "rt-scroll" }, h("table", { class: "rt-table", id: "rt-counts" }, h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("lobby.game")), withVariant ? h("th", { scope: "col" }, t("lobby.variant")) : null,
        h("th", { scope: "col", class: "num" }, t("rt.played")), h("th", { scope: "col", class: "num" }, t("rt.won")))),
      h("tbody", {}, p.games.map((g) => h("tr", {}, h("td", {}, title(g.game)), withVariant ? h("td", {}, variantName(g.variant)) : null,
        h("td", { class: "num" }, String(g.played)), h("td", { class: "num" }, String(g.won))))))));
  const recent = h("section", { class: "panel", "aria-labelledby": "rt-recent-h" }, h("h2", { id: "rt-recent-h" }, t("rt.recent")),
    p.recent.length === 0 ? h("p", { class: "muted" }, t("rt.no_games")) :
      h("ul", { class: "table-list rt-recent" }, p.recent.map((g) => h("li", { class: "table-item", data: { code: g.code || "" } },
        h("div", { class: "ti-main" }, h("strong", {}, title(g.game)), g.variant ? h("span", { class: "muted" }, " · " + variantName(g.variant)) : null,
          h("span", { class: "muted" }, " · " + day(g.at)), " ",
          g.won === null ? null : h("span", { class: "chip " + (g.won ? "chip-won" : "chip-lost") }, g.won ? t("rt.result_won") : t("rt.result_lost")),
          g.rated ? h("span", { class: "chip chip-rated" }, t("rt.rated")) : null,
          g.annulled ? h("span", { class: "chip", title: t("rt.annulled_hint") }, t("rt.annulled")) : null,
          h("div", { class: "ti-seats" }, g.names.map((n, i) => h("span", { class: "chip" + (i === g.seat ? " chip-me" : "") }, n)))),
        h("div", { class: "ti-actions" }, g.replay
          ? h("a", { class: "btn btn-small", href: g.replay, "data-link": "", "aria-label": `${t("table.replay")}: ${title(g.game)} ${day(g.at)}` }, t("table.replay"))
          : h("span", { class: "muted small" }, t("rt.private")))))));
  const bots = h("section", { class: "panel", "aria-labelledby": "rt-bots-h" }, h("h2", { id: "rt-bots-h" }, t("rt.bots_beaten")),
    p.bots_beaten.length === 0 ? h("p", { class: "muted" }, t("rt.no_bots")) :
      h("ul", { class: "rt-bots" }, p.bots_beaten.map((b) => h("li", {},
        t("rt.bot_beaten", { game: title(b.game), bot: t("level." + b.bot), n: b.times })))));
  el.append(head, h("div", { class: "rt-grid-2" }, ratings, h("div", { class: "rt-side" }, counts, bots)), recent);
}

// The profile's block and report buttons: drawn again when the session becomes known or
// changes (a page opened straight at a profile draws before GET /api/me has answered).
function actionsSlot(name) {
  const slot = h("div", { class: "rt-actions" });
  const fill = () => slot.replaceChildren(...[blockButton(name)].filter(Boolean));
  fill();
  const off = onAccount(() => { if (slot.isConnected) fill(); else off(); });
  return slot;
}

// Block or unblock this player (logged in, not oneself): private to the one who blocks. The
// button waits for GET /api/me/blocks (disabled till then), so a read sent before a click
// cannot answer after it and undo what the click showed.
function blockButton(name) {
  const me = account();
  if (!me || me.name === name) return null;
  let blocked = false;
  const note = h("p", { class: "muted small", id: "rt-block-note", role: "status" });
  const btn = h("button", { type: "button", class: "btn btn-small", id: "rt-block", "aria-pressed": "false", disabled: true,
    onclick: async () => {
      try {
        if (blocked) await api("DELETE", `/api/me/blocks/${encodeURIComponent(name)}`);
        else await api("POST", "/api/me/blocks", { name });
        blocked = !blocked;
        show();
      } catch (e) { note.textContent = apiMessage(e); }
    } }, t("mod.block"));
  const show = () => {
    btn.textContent = t(blocked ? "mod.unblock" : "mod.block");
    btn.setAttribute("aria-pressed", String(blocked));
    note.textContent = blocked ? t("mod.blocked", { name }) : "";
  };
  api("GET", "/api/me/blocks").then((list) => { blocked = list.some((b) => b.name === name); })
    .catch(() => {}).finally(() => { btn.disabled = false; show(); });
  const report = h("button", { type: "button", class: "btn btn-small", id: "rt-report",
    onclick: (e) => openReport(e.currentTarget, name, { done: () => { note.textContent = t("mod.reported", { name }); } }) }, t("mod.report"));
  return h("div", { class: "rt-block" }, btn, " ", report, note);
}

function boardLinks(current) {
  return h("nav", { class: "rt-tabs", "aria-label": t("rt.leaderboards") }, GAME_IDS.map((g) => h("a", {
    href: `/leaderboard/${g}`, "data-link": "", class: "btn btn-small" + (g === current ? " btn-primary" : ""),
    "aria-current": g === current ? "page" : null }, title(g))));
}

// -- the leaderboard ------------------------------------------------------------------------------
/** One list of the leaderboard (`b`: an answer of GET /api/leaderboard): its heading, its
 * table (or why it is empty) and its pages. `id`: "rt-board" (established) or "rt-prov" (the
 * provisional ratings: its heading marks them, its rows need no mark of their own). */
function boardList(b, id, head, empty, page, game) {
  const row = (r) => h("tr", { data: { kind: r.kind, name: r.name } },
    h("td", { class: "num" }, String(r.rank)),
    h("td", {}, r.kind === "bot" ? [h("span", { class: "chip" }, t("lobby.bot")), " ", t("level." + r.name)]
      : h("a", { href: profileHref(r.name), "data-link": "" }, r.name)),
    h("td", { class: "num" }, fmt(r.rating)), h("td", { class: "num" }, String(r.games)),
    h("td", { class: "num" }, String(r.wins)));
  const body = b.rows.length === 0 ? h("p", { class: "muted", id: `${id}-empty` }, empty)
    : h("div", { class: "rt-scroll" }, h("table", { class: "rt-table rt-board", id },
      h("caption", { class: "sr-only" }, `${head} · ${title(game)}`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, t("rt.player")),
        h("th", { scope: "col", class: "num" }, t("rt.col_rating")), h("th", { scope: "col", class: "num" }, t("rt.played")),
        h("th", { scope: "col", class: "num" }, t("rt.won")))),
      h("tbody", {}, b.rows.map(row))));
  const pages = b.total > b.limit ? h("div", { class: "actions rt-pages" },
    h("button", { type: "button", class: "btn btn-small", id: `${id}-prev`, disabled: b.offset === 0, onclick: () => page(-b.limit) }, t("rt.prev")),
    h("span", { class: "muted" }, t("rt.page", { from: b.offset + 1, to: Math.min(b.total, b.offset + b.limit), total: b.total })),
    h("button", { type: "button", class: "btn btn-small", id: `${id}-next`, disabled: b.offset + b.limit >= b.total, onclick: () => page(b.limit) }, t("rt.next"))) : null;
  return h("section", { class: "rt-list-part", id: `${id}-part`, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, head), body, pages);
}

function drawBoard(el, state, route, reload) {
  const focusId = document.activeElement && el.contains(document.activeElement) && document.activeElement.id;
  clear(el);
  el.className = "page-ratings page-leaderboard";
  document.title = `${t("rt.leaderboard")} · ${title(route.game)} · cardtable`;
  const b = state.data, p = state.prov;
  const minSel = h("select", { id: "rt-min", onchange: (e) => { state.minGames = Number(e.target.value); state.offset = 0; state.provOffset = 0; reload(); } },
    [1, 3, 10, 30].map((n) => h("option", { value: n, selected: n === state.minGames }, String(n))));
  const lists = [];
  if (!b) { if (!state.error) lists.push(h("p", { class: "muted" }, t("rt.loading"))); }
  else {
    // the established ratings, then the provisional ones apart: a new board is not empty
    lists.push(boardList(b, "rt-board", t("rt.list_established"),
      t(p && p.rows.length ? "rt.board_none_established" : "rt.board_empty"),
      (d) => { state.offset = Math.max(0, state.offset + d); reload(); }, route.game));
    if (p) {
      lists.push(boardList(p, "rt-prov", t("rt.list_provisional"), t("rt.board_empty_provisional"),
        (d) => { state.provOffset = Math.max(0, state.provOffset + d); reload(); }, route.game));
    }
  }
  el.append(h("section", { class: "panel" },
    h("h1", {}, t("rt.leaderboard"), " · ", title(route.game)),
    boardLinks(route.game),
    h("p", { class: "muted small" }, t("rt.explain")),
    b ? h("p", { class: "muted small", id: "rt-rule" }, t("rt.provisional_rule", { n: b.established.games, o: b.established.opponents })) : null,
    h("div", { class: "field rt-min" }, h("label", { for: "rt-min" }, t("rt.min_games")), minSel),
    state.error ? h("p", { class: "error", role: "alert" }, apiMessage(state.error)) : null,
    ...lists));
  if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
}
