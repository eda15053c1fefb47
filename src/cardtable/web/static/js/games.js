// The games this client knows, in one table: the only shared module that names a game (each
// game's own module, abluxxen.js and kombio.js, draws its table). Everything else asks here.
//
// GET /api/games gives each game's declaration (the server's, core/registry.py): its rule sets
// with their players (least, most, default), its rule options and settings with their defaults,
// the bot levels; the lobby reads those from it and nothing of them is copied here. What the
// server does not give is kept here (how this client shows a game):
//   title     the game's name as shown (the same in every language)
//   style     its style sheet (css/<game>.css), loaded with its module, after app.css
//   module    its front-end module: render(el, view, opts), and optionally scores, animHints,
//             logText, onKey, onTick, onClock (its timers on the board), statusChips (its
//             chips in the status bar) (table.js, replay.js)
//   rulesNav  the catalog key of the link to its rules
//   clauses   the prefixes of its rule clauses ("AB-14", "KO-5.2"): a clause id names its game
//   options   the rule options the lobby offers, each with the clause it changes
//   fields    the lobby's controls of a game's settings (a number box or a choice, sent as
//             `body`, its default the declared one) and `checks` (sent as `true` when ticked)
//   joker     a value drawn as a joker; marks: a card value's action mark (cards.js)
export const GAMES = {
  abluxxen: {
    title: "Abluxxen", module: "./abluxxen.js", style: "../css/abluxxen.css", rulesNav: "nav.rules_ab", clauses: ["AB", "DU", "CL"],
    options: [
      { name: "optional_draw", clause: "AB-15" },
      { name: "ones_beat_top", clause: "AB-20" },
      { name: "shadow_partial", clause: "DU-4" },
      { name: "shadow_blocks_draw", clause: "DU-6" },
      { name: "tiebreak_fewer_hand", clause: "AB-18" },
    ],
    fields: [], checks: [],
    joker: 14, marks: {},
  },
  kombio: {
    title: "Kombio", module: "./kombio.js", style: "../css/kombio.css", rulesNav: "nav.rules_ko", clauses: ["KO"],
    options: null,
    fields: [
      { key: "target", label: "lobby.target", number: { min: 1, max: 1000 }, body: "target" },
      { key: "snap", label: "lobby.snap", choices: [3, 5, 8, 12], body: "snap_seconds" },
    ],
    checks: [{ key: "memory", label: "lobby.memory", body: "memory" }],
    joker: null, marks: { 7: "◉", 8: "◉", 9: "◉", 10: "◉", 11: "⇄", 12: "⇄", 13: "◉⇄", 14: "◉◉" },
  },
};

export const GAME_IDS = Object.keys(GAMES);

/** The prefixes of all clause ids as a regular expression's alternatives: "AB|DU|CL|KO". */
export const CLAUSE_ALT = GAME_IDS.flatMap((g) => GAMES[g].clauses).join("|");

/** The game whose rules a clause id ("KO-8", "DU-4") belongs to. */
export function gameOfClause(id) {
  const prefix = String(id).split("-")[0];
  return GAME_IDS.find((g) => GAMES[g].clauses.includes(prefix)) || GAME_IDS[0];
}

/** The front-end module of a game, loaded on demand with its style sheet (a promise: both are
 * in place when it resolves, so nothing is drawn without the game's styles). */
export function loadGame(game) {
  if (!GAMES[game]) return Promise.reject(new Error(`unknown game: ${game}`));
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
