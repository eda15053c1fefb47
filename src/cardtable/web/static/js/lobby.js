// The lobby (/): a form to open a table (the games, variants, players, rule options, settings
// and bot levels as GET /api/games declares them; games.js what it does not give), a form to join or
// watch a table by its code or link, and the lists of this browser's, open and running tables.
// This module keeps the lobby's state, loads what it shows and lays the page out; its regions
// are modules of their own:
//   lobby-create.js    the form to open a table
//   lobby-declared.js  the games' declarations: variants, players, rule options, settings
//   lobby-join.js      the form to join or watch a table by its code
//   lobby-lists.js     this browser's, the open and the running tables
//   lobby-refusal.js   a refusal's words in the create form's error line
//   lobby-fields.js    the forms' pieces (a field, a choice, the name boxes)
//   lobby-queue.js     "Play now": the queue, waiting, and the counts waiting per game
// `L`, the lobby, is what they share: its state, and draw, drawLists, load.
import { t, onLang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { api } from "./api.js";
import { dropSeat, mySeats, storedName } from "./store.js";
import { GAMES, GAME_IDS, rulesLabel } from "./games.js";
import { myGamesPanel, onAccount } from "./account.js";
import { friendsPanel } from "./friends.js";
import { learnPanel } from "./learn.js";
import { guestGames } from "./pace.js";
import { useDefaults } from "./lobby-declared.js";
import { createForm } from "./lobby-create.js";
import { joinForm } from "./lobby-join.js";
import { listsBox, drawLists } from "./lobby-lists.js";
import { playNowPanel } from "./lobby-queue.js";
import { playerName } from "./lobby-fields.js";

/** The lobby's state: the games' declarations (null until GET /api/games has answered), the
 * lists, the forms' choices. */
function lobbyState(el) {
  const form = {
    game: GAME_IDS[0], variant: "basic", players: 4,
    seats: [], timer: "", public: true, name: storedName(), rated: false,
    pace: "live", move: "86400", onTimeout: "bot_move",      // pace.js
    options: {},             // rule options set differently from the variant's defaults
  };
  // a game's own settings (GET /api/games: `settings`, `table_settings`), by "game:name", at
  // their declared defaults once it has answered (useDefaults, lobby-declared.js)
  form.set = {};
  return {
    el, games: null, tables: [], running: [],
    myStatus: {},
    myMoves: {},             // code -> POST /api/my-moves' row (pace.js)
    alive: true, form,
    learn: learnPanel(() => playerName(form.name)),     // "Learn to play" (learn.js)
    joinCode: "", error: "", busy: false, gamesTried: false,
  };
}

// The forms are drawn once GET /api/games has answered (their choices of players, levels and
// options come from it), so they are not drawn again under a click; a failed request leaves
// the built-in defaults.
async function loadGames(L) {
  try { L.games = await api("GET", "/api/games"); useDefaults(L); } catch (e) { /* the defaults */ }
  L.gamesTried = true;
  if (L.alive) L.draw();
}

async function load(L) {
  try {
    [L.tables, L.running] = await Promise.all([api("GET", "/api/tables?limit=20"), api("GET", "/api/tables?status=playing&limit=20")]);
  } catch (e) { /* keep the old lists */ }
  // the status of my own tables and whose move it is, in one request (pace.js; a table that
  // is gone, or a seat its player was dropped from, is forgotten)
  const seats = mySeats();
  try {
    L.myMoves = await guestGames(seats);
    for (const s of seats) {
      if (L.myMoves[s.code]) L.myStatus[s.code] = L.myMoves[s.code].status; else if (s.token) dropSeat(s.code);
    }
  } catch (e) { /* keep the old list */ }
  if (L.alive) L.drawLists();
  if (L.alive && L.queue) L.queue.refreshCounts();
}

/** The lobby's head: the name, the tagline, the games' rules and leaderboards. */
function hero() {
  return h("section", { class: "hero" },
    h("h1", {}, "cardtable"),
    h("p", { class: "tagline" }, t("app.tagline")),
    h("p", { class: "muted" }, t("lobby.intro"),
      ...GAME_IDS.flatMap((g, i) => [i ? " · " : " ", h("a", { href: `/rules/${g}`, "data-link": "" }, rulesLabel(t, g))])),
    h("p", { class: "muted lobby-boards" }, t("rt.leaderboards"), ":",
      ...GAME_IDS.flatMap((g, i) => [i ? " · " : " ", h("a", { href: `/leaderboard/${g}`, "data-link": "", id: `board-link-${g}` }, GAMES[g].title)])));
}

/** The whole page drawn again (the keyboard stays on the control it was on). */
function draw(L) {
  const { el } = L;
  const focusId = document.activeElement && document.activeElement.id;
  const top = window.scrollY;              // (clearing the page would scroll it to its top)
  clear(el);
  el.className = "page-lobby";
  const head = hero();
  if (!L.gamesTried) { el.append(head); return; }
  const create = createForm(L);
  const join = joinForm(L);
  L.learn.redraw();
  if (!L.queue) L.queue = playNowPanel(L);
  L.queue.redraw();
  // "Play now" heads the side column, beside "New table" (both in view on a laptop)
  el.append(head, L.learn.el, myGamesPanel(), friendsPanel(),
    h("div", { class: "lobby-grid" }, create, h("div", { class: "lobby-side" }, L.queue.el, join, L.listsBox)),
  );
  L.drawLists();
  window.scrollTo(window.scrollX, top);
  if (focusId) { const f = document.getElementById(focusId); if (f) f.focus({ preventScroll: true }); }
}

export function renderLobby(el) {
  const L = lobbyState(el);
  L.draw = () => draw(L);
  L.drawLists = () => drawLists(L);
  L.load = () => load(L);
  L.listsBox = listsBox();
  L.draw();
  loadGames(L);
  L.load();
  const timer = setInterval(L.load, 5000);
  const off = onLang(L.draw);
  const offAccount = onAccount(() => { if (L.alive && L.gamesTried) L.draw(); });   // the rated box
  return () => { L.alive = false; clearInterval(timer); off(); offAccount(); if (L.queue) L.queue.close(); };
}
