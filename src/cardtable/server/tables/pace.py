"""A table's pace, chosen by its host before the start (POST /api/tables):

- `live` (the default): one sitting, as before: the turn timer `turn_seconds` (if any); a
  player whose timer runs out is played by the stand-in bot until they return.
- `turn` (turn-based): every player has `move_seconds` for each move (MOVE_CHOICES: 12 hours,
  1, 3 or 7 days). A reminder goes out `remind_lead` before the deadline (12 hours before it,
  or at half the time for a shorter move time); when the time runs out the table's
  `on_timeout` happens: `bot_move` (the stand-in makes that one move, the player keeps the
  seat and has the full time again for their next move) or `drop` (the player is dropped: the
  seat becomes the stand-in bot's for the rest of the game and the seat's link stops working).
  A window of simultaneous decisions (Kombio's snap window) stays open until every seat of it
  has answered or the move time is over (seats that did not answer pass: no reminder
  consequence, no drop; docs/rules.md, "turn-based tables").
  A turn-based table nobody moved at for `Settings.turn_ttl` (30 days) is deleted.

The pace lives in the table's settings (`pace`, `move_seconds`, `on_timeout`) and in the
column `game_tables.pace` (the sweeper's query); `moved_at` is the time of a player's last own
decision, `reminded` the action index whose reminder went out, `waiting_for` the seats whose
move it is (",0,2,": "my games" finds your move with one query).
"""

from __future__ import annotations

HOUR = 3600.0
DAY = 24 * HOUR

#: the move times a host may choose (seconds): 12 hours (a game over a day or two, a move in
#: the morning and one in the evening), 1 day (the usual pace of correspondence play: one look
#: a day), 3 days (a weekend away does not cost a move) and 7 days (a week's holiday)
MOVE_CHOICES = (12 * HOUR, DAY, 3 * DAY, 7 * DAY)
DEFAULT_MOVE = DAY
PACES = ("live", "turn")
ON_TIMEOUT = ("bot_move", "drop")
#: the reminder: this long before the deadline, at most half the move time
REMIND_BEFORE = 12 * HOUR
#: a deadline that passed while the server was down is moved to this long after its start
#: (nobody loses a move to the server's downtime)
RESTART_GRACE = HOUR


def is_turn(settings: dict | None) -> bool:
    return bool(settings) and settings.get("pace") == "turn"


def move_seconds(settings: dict) -> float:
    return float(settings.get("move_seconds") or DEFAULT_MOVE)


def remind_lead(move: float) -> float:
    """How long before the deadline the reminder goes out."""
    return min(REMIND_BEFORE, move / 2)


def remind_at(deadline: float, move: float) -> float:
    return deadline - remind_lead(move)


def waiting_column(seats: list[int]) -> str | None:
    """`game_tables.waiting_for`: ",0,2," (None: nobody's move)."""
    return "," + ",".join(str(s) for s in sorted(set(seats))) + "," if seats else None


def waiting_seats(column: str | None) -> list[int]:
    return [int(x) for x in (column or "").split(",") if x]
