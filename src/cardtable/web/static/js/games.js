// The games this client knows. GET /api/games gives each game's declaration (the server's,
// core/registry.py): its title, rule sets with their players, rule options (each with the
// clause it changes) and settings (type, default, bounds, choices, label), the bot levels, and
// where its browser module is; the lobby reads all of that from it, and a game the server
// offers that this table does not list (a game installed as a plugin, docs/adding-a-game.md)
// joins it from its declaration (`addGames`, called once at start: `gamesReady`). Every game's
// browser files, the built-in ones' too, are its package's, served at /games/<game>/ (its
// GameInfo.web). Kept here is only how this client draws the built-in games, which their own
// modules need at once:
//   title     the game's name as shown (the same in every language)
//   style     its style sheet (/games/<game>/<game>.css), loaded with its module, after app.css
//   module    its front-end module: render(el, view, opts), and optionally scores, animHints,
//             logText, onKey, onTick, onClock (its timers on the board), statusChips (its
//             chips in the status bar) (table.js, replay.js)
//   rulesNav  the catalog key of the link to its rules (else "Rules of <title>")
//   rules     where its rules page's data is, `<rules>.<lang>.json` (/games/<game>/rules)
//   clauses   the prefixes of its rule clauses ("AB-14", "KO-5.2"): a clause id names its game
//   joker     a value drawn as a joker; marks: a card value's action mark (cards.js)
//   decl      its declaration from GET /api/games (once it has answered)
export const GAMES = {
  abluxxen: {
    title: "Abluxxen", module: "/games/abluxxen/abluxxen.js", style: "/games/abluxxen/abluxxen.css", rules: "/games/abluxxen/rules", rulesNav: "nav.rules_ab", clauses: ["AB", "DU", "CL"],
    joker: 14, marks: {},
  },
  kombio: {
    title: "Kombio", module: "/games/kombio/kombio.js", style: "/games/kombio/kombio.css", rules: "/games/kombio/rules", rulesNav: "nav.rules_ko", clauses: ["KO"],
    joker: null, marks: { 7: "◉", 8: "◉", 9: "◉", 10: "◉", 11: "⇄", 12: "⇄", 13: "◉⇄", 14: "◉◉" },
  },
};

/** The games' ids, the built-ins first (grows when addGames adds one). */
export const GAME_IDS = Object.keys(GAMES);

/** The prefixes of all clause ids as a regular expression's alternatives: "AB|DU|CL|KO" (a
 * live binding: it grows with the games). */
export let CLAUSE_ALT = clauseAlt();

function clauseAlt() {
  return GAME_IDS.flatMap((g) => GAMES[g].clauses).join("|") || "NONE";
}

/** Join the games of GET /api/games: each known one gets its declaration (`decl`), each other
 * one an entry made from it (its module and style sheet where the server serves its files,
 * its clause prefixes from its rule options' clauses). */
export function addGames(declared) {
  for (const d of declared || []) {
    if (!d || typeof d.name !== "string") continue;
    if (!GAMES[d.name]) {
      const base = typeof d.browser === "string" && d.browser.startsWith("/") ? d.browser.replace(/\.js$/, "") : null;
      const prefixes = (d.rule_options || []).map((o) => String(o.clause || "").split("-")[0]).filter((x) => /^[A-Z]+$/.test(x));
      GAMES[d.name] = {
        title: d.title || d.name, module: base ? `${base}.js` : null, style: base ? `${base}.css` : null,
        rulesNav: null, rules: base ? `${base.slice(0, base.lastIndexOf("/"))}/rules` : null,
        clauses: [...new Set(prefixes)], joker: null, marks: {},
      };
      GAME_IDS.push(d.name);
    }
    GAMES[d.name].decl = d;
  }
  CLAUSE_ALT = clauseAlt();
}

let ready = null;

/** GET /api/games once, its games joined (addGames); resolves either way (a failed request
 * leaves the built-in games). */
export function gamesReady() {
  if (!ready) {
    ready = fetch("/api/games", { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : [])).then(addGames).catch(() => {});
  }
  return ready;
}

/** The link text of a game's rules: its own catalog key, else "Rules of <title>". */
export function rulesLabel(t, game) {
  const g = GAMES[game];
  return g && g.rulesNav ? t(g.rulesNav) : t("rules.other", { game: g ? g.title : game });
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
  return Promise.all([import(GAMES[game].module), loadStyle(GAMES[game].style)]).then(([mod]) => mod);
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
