// The addresses of the client's pages (History API): the paths a table code may take, and
// navigate(), which changes the address and draws its page (app.js registers the drawing).
//   /                 lobby.js         /t/CODE[#token=...]   table.js (player or spectator)
//   /replay/CODE      replay.js        /rules/GAME           rules.js
//   /players/NAME     ratings.js       /leaderboard/GAME     ratings.js
//   /reset#token=...  mail.js (a new password)   /verify-email#token=...  mail.js
//   /mod              mod.js (the moderators' queue; its link is in a moderator's account menu)

// A table code as the server issues it (server/guard/security.py: public tables 8 letters, private
// tables 26, MAX_CODE_LEN 32): every route and the lobby's code box accept up to 32.
export const MAX_CODE_LEN = 32;
const CODE = `[A-Za-z0-9]{1,${MAX_CODE_LEN}}`;
export const TABLE_PATH = new RegExp(`^/t/(${CODE})$`);
export const REPLAY_PATH = new RegExp(`^/replay/(${CODE})$`);
// a player's profile: the account's name, URL-encoded (ratings.js)
export const PLAYER_PATH = /^\/players\/([^/]{1,1024})$/;
// the code at the end of what a person pastes: a code, or a link to a table or its replay
export const CODE_IN_TEXT = new RegExp(`([A-Za-z0-9]{4,${MAX_CODE_LEN}})/?([?#].*)?$`);

let route = () => {};

/** The function that draws the page of the current address (app.js). */
export function onRoute(fn) { route = fn; }

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}
