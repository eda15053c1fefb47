// The games this client knows: GET /api/games gives each game's declaration (the server's,
// core/registry.py), asked once as this module loads (its importers run when it has answered):
// its title, rule sets with their players, rule options (each with the clause it changes) and
// settings (type, default, bounds, choices, label), the bot levels, the prefixes of its clauses'
// ids and where its browser module is. Every game's browser files, the built-in ones' too, are
// its package's, served at /games/<game>/ (GameInfo.web); no game is named here. An entry:
//   title     the game's name as shown (the same in every language)
//   module    its front-end module: render(el, view, opts), and optionally scores, animHints,
//             logText, onKey, onTick, onClock (its timers on the board), statusChips (its
//             chips in the status bar) (table.js, replay.js), and `cards` ({joker, marks}: a
//             value drawn as a joker, a value's action mark; cards.js), taken when it loads
//   style     its style sheet (/games/<game>/<game>.css), loaded with its module, after app.css
//   rules     where its rules page's data is, `<rules>.<lang>.json` (/games/<game>/rules); the
//             link to it says the catalog's `rules.nav.<game>` if the game has one, else
//             "Rules of <title>"
//   clauses   the prefixes of its rule clauses ("AB-14", "KO-5.2"): a clause id names its game
//   decl      its declaration from GET /api/games
export const GAMES = {};

/** The games' ids, in the server's order (the built-ins first). */
export const GAME_IDS = [];

/** The prefixes of all clause ids as a regular expression's alternatives: "AB|DU|CL|KO". */
export let CLAUSE_ALT = "NONE";

function clauseAlt() {
  return GAME_IDS.flatMap((g) => GAMES[g].clauses).join("|") || "NONE";
}

/** Join the games of GET /api/games: each gets an entry made from its declaration (its module
 * and style sheet where the server serves its files). */
export function addGames(declared) {
  for (const d of declared || []) {
    if (!d || typeof d.name !== "string") continue;
    if (!GAMES[d.name]) {
      const base = typeof d.browser === "string" && d.browser.startsWith("/") ? d.browser.replace(/\.js$/, "") : null;
      const prefixes = Array.isArray(d.clauses) ? d.clauses.filter((x) => /^[A-Z]+$/.test(x)) : [];
      GAMES[d.name] = {
        title: d.title || d.name, module: base ? `${base}.js` : null, style: base ? `${base}.css` : null,
        rules: base ? `${base.slice(0, base.lastIndexOf("/"))}/rules` : null,
        clauses: prefixes, joker: null, marks: {},
      };
      GAME_IDS.push(d.name);
    }
    GAMES[d.name].decl = d;
  }
  CLAUSE_ALT = clauseAlt();
}

// the games, asked once before any importer of this module runs (a failed request: none)
await fetch("/api/games", { headers: { Accept: "application/json" } })
  .then((r) => (r.ok ? r.json() : [])).then(addGames).catch(() => {});

/** The games are known (kept for callers that wait: they are, once this module has loaded). */
export function gamesReady() {
  return Promise.resolve();
}

/** The link text of a game's rules: its catalog's `rules.nav.<game>`, else "Rules of <title>". */
export function rulesLabel(t, game) {
  const key = `rules.nav.${game}`, own = t(key);
  return own !== key ? own : t("rules.other", { game: GAMES[game] ? GAMES[game].title : game });
}

/** The game whose rules a clause id ("KO-8", "DU-4") belongs to. */
export function gameOfClause(id) {
  const prefix = String(id).split("-")[0];
  return GAME_IDS.find((g) => GAMES[g].clauses.includes(prefix)) || GAME_IDS[0];
}

/** The front-end module of a game, loaded on demand with its style sheet (a promise: both are
 * in place when it resolves, so nothing is drawn without the game's styles). */
export function loadGame(game) {
  if (!GAMES[game] || !GAMES[game].module) return Promise.reject(new Error(`unknown game: ${game}`));
  return Promise.all([import(GAMES[game].module), loadStyle(GAMES[game].style)]).then(([mod]) => {
    const cards = mod.cards || {};
    GAMES[game].joker = cards.joker === undefined ? null : cards.joker;
    GAMES[game].marks = cards.marks || {};
    return mod;
  });
}

const styles = new Map();        // href -> the promise of its <link> having loaded

function loadStyle(path) {
  const href = new URL(path, import.meta.url).pathname;
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      link.dataset.game = "";
      // a sheet that fails to load leaves the game drawn plainly, not stalled
      link.addEventListener("load", () => resolve(), { once: true });
      link.addEventListener("error", () => resolve(), { once: true });
      document.head.appendChild(link);
    }));
  }
  return styles.get(href);
}
