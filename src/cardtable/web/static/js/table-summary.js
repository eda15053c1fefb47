// A round's summary between rounds at the table page (table.js): what the game's module needs
// to show it (games.js `summary`): who is ready, who is still awaited, the seconds left, and
// the player's "ready" (sent once per round). `P` is the page (table.js).

/** The summary of the state's round break (null: no break). */
export function breakSummary(P, st) {
  const { S } = P;
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
      P.draw();
    } : null,
    waiting: b.waiting.filter((s) => s !== me || !(S.readySent === st.index)),
    left: Math.max(0, Math.ceil(b.until + ((st._recv || Date.now() / 1000) - st.server_time) - Date.now() / 1000)),
  };
}
