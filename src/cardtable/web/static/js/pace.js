// Turn-based tables (server/tables/pace.py): the pace in the create form, the deadline at
// the table ("your move until Tue 14:00" instead of a seconds timer) and a guest's "my games"
// from this browser's seat tokens (POST /api/my-moves: your moves first).
import { t, formatDateTime } from "./i18n.js";
import { api } from "./api.js";

export const MOVE_CHOICES = ["43200", "86400", "259200", "604800"];

/** The form's pace fields, drawn with the lobby's own `field` and `select`. */
export function paceFields(form, field, select, redraw) {
  const out = [field(t("pace.label"), select("f-pace", form.pace, [["live", t("pace.live")], ["turn", t("pace.turn")]],
    (v) => { form.pace = v; redraw(); }), "f-pace")];
  if (form.pace === "turn") {
    out.push(field(t("pace.move"), select("f-move", form.move, MOVE_CHOICES.map((s) => [s, t("pace.move_" + s)]),
      (v) => { form.move = v; }), "f-move"));
    out.push(field(t("pace.on_timeout"), select("f-on-timeout", form.onTimeout,
      [["bot_move", t("pace.bot_move")], ["drop", t("pace.drop")]], (v) => { form.onTimeout = v; }), "f-on-timeout"));
  }
  return out;
}

/** POST /api/tables: the pace of the form (a turn-based table has no seconds timer). */
export function paceBody(form, body) {
  if (form.pace !== "turn") return body;
  delete body.turn_seconds;
  return Object.assign(body, { pace: "turn", move_seconds: Number(form.move), on_timeout: form.onTimeout });
}

/** A deadline (server epoch seconds) as the reader's weekday and time ("Tue 14:00"); the date
 * too when it is a week or more away. `skew`: local minus server clock, seconds. */
export function when(deadline, skew = 0) {
  const at = (deadline + skew) * 1000;
  return formatDateTime(at, at - Date.now() > 6 * 86400 * 1000);
}

/** The table's clock text at a turn-based table (null at a live one). */
export function paceClock(st) {
  if (!st || !st.pace || st.status !== "playing" || !st.deadline || st.round_break) return null;
  const skew = (st._recv || Date.now() / 1000) - st.server_time;
  const at = when(st.deadline, skew);
  const mine = st.your_turn || (st.window && st.window.eligible && !st.window.answered);
  return { text: (st.pace.reminded && mine ? "⏰ " : "◷ ") + t(mine ? "pace.your_move_until" : "pace.move_until", { when: at }),
    low: !!(st.pace.reminded && mine) };
}

/** A guest's games from the seat tokens this browser keeps: {code: {status, your_move,
 * deadline, pace}} for the tables that exist (the others are not in it). */
export async function guestGames(seats) {
  const tokens = seats.map((s) => s.token).filter(Boolean).slice(0, 200);
  if (!tokens.length) return {};
  const rows = await api("POST", "/api/my-moves", { tokens });
  const out = {};
  rows.forEach((r, i) => { out[r.code] = Object.assign({ rank: i }, r); });
  return out;
}
