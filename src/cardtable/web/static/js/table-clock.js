// The table page's clock (table.js): the status bar's turn timer (seconds left, or a
// turn-based game's day and time: pace.js) and the game's own timers on the board (a window's
// seconds, a round break's), told every tick. `P` is the page (table.js).
import { t } from "./i18n.js";
import { paceClock } from "./pace.js";

/** The clock in the status bar and the game's timers, as of now. */
export function updateClock(P) {
  const { S } = P;
  const c = document.getElementById("clock");
  if (!c || !S.state) return;
  const st = S.state;
  const until = st.round_break ? null : st.deadline;          // a break: the summary tells
  const skew = (st._recv || Date.now() / 1000) - st.server_time;
  const breakLeft = st.round_break ? Math.max(0, Math.ceil(st.round_break.until + skew - Date.now() / 1000)) : null;
  let left = null;
  const pace = paceClock(st);                                  // turn-based: a day and time
  if (pace) {
    c.textContent = pace.text;
    c.classList.add("clock-pace");
    c.classList.toggle("clock-low", pace.low);
  } else if (until && st.status === "playing") {
    left = Math.max(0, Math.ceil(until + skew - Date.now() / 1000));
    c.classList.remove("clock-pace");
    c.textContent = "◷ " + t("table.seconds_left", { s: left });
    c.classList.toggle("clock-low", left <= 5);
  } else c.textContent = "";
  // the game's own timers on the board (a window's seconds, a round break's)
  if (S.mod && S.mod.onClock) S.mod.onClock({ state: st, left, breakLeft });
}

/** Every half second: the clock, and the game's own tick (a selection that times out). */
export function tick(P) {
  const { S } = P;
  updateClock(P);
  if (S.mod && S.mod.onTick && S.state) S.mod.onTick({ ui: S.ui, rerender: P.draw, state: S.state });
}
