"""The WebSocket protocol and the HTTP request/response bodies, as pydantic models.

docs/protocol.md describes every message in prose; this module is the authority. Client
messages are parsed with `parse_client()` (a discriminated union on "type", strict types, no
unknown keys); server messages are built as plain dicts by the server and are described (and
checked in the tests) by the `Server*` models.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from pydantic_core import PydanticCustomError

from cardtable.core import registry
from cardtable.server.guard.security import MAX_CODE_LEN, NAME_MAX, clean_name, strict_json

PROTOCOL_VERSION = 1

#: Kombio: the length of a snap window when the table does not set one. Five seconds: a person
#: has to see the discarded card, remember whether a card on the table has that value and move
#: the pointer or a finger to it; three seconds (the old default) left little margin for that
#: and for the network. A window closes early once every eligible player has passed, so the
#: longer window costs time only when somebody hesitates.
DEFAULT_SNAP_SECONDS = 5.0

Ident = Optional[Annotated[str, StringConstraints(max_length=64)] | Annotated[int, Field(ge=-2 ** 53, le=2 ** 53)]]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# -- client -> server ---------------------------------------------------------------------------
class Decide(_Msg):
    """A decision in the notation (NOTATION.md) for the connection's seat."""
    type: Literal["decide"]
    decision: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    #: the `index` of the state the decision was made in: refused as stale if the game moved on
    index: Annotated[int, Field(ge=0, le=10 ** 9)] | None = None
    id: Ident = None


class Auth(_Msg):
    """Take a seat on this connection with its secret token (instead of ?token=)."""
    type: Literal["auth"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    id: Ident = None


class Back(_Msg):
    """The player is back: the stand-in bot stops playing for the seat."""
    type: Literal["back"]
    id: Ident = None


class Sync(_Msg):
    """Send the state again, and the events since action `since` (if given)."""
    type: Literal["sync"]
    since: Annotated[int, Field(ge=0, le=10 ** 9)] | None = None
    id: Ident = None


class Ping(_Msg):
    type: Literal["ping"]
    id: Ident = None


class SetSeat(_Msg):
    """The waiting room (the host only): a free seat becomes a bot, or a bot's seat free again."""
    type: Literal["seat"]
    seat: Annotated[int, Field(ge=0, le=5)]
    kind: Literal["human", "bot"]
    #: the bot's level; only the ones that do not search (their tables are not limited)
    bot: Literal["easy", "medium"] | None = None
    id: Ident = None


class Cancel(_Msg):
    """The waiting room (the host only): the table is cancelled (deleted) for everybody."""
    type: Literal["cancel"]
    id: Ident = None


class Leave(_Msg):
    """The player leaves the game being played: a bot plays the seat to the end, the seat's
    token no longer holds it and the connection watches from now on; at a rated table the
    game counts as the player's loss (docs/ratings.md)."""
    type: Literal["leave"]
    id: Ident = None


class Ready(_Msg):
    """Kombio: the player has seen the round's summary; the next round may start."""
    type: Literal["ready"]
    id: Ident = None


#: the quick reactions (chat.REACTIONS; their words: i18n `chat.react.<code>`)
ReactionCode = Literal["thumbs", "laugh", "wow", "oops", "clap", "gg", "wp", "thanks", "sorry",
                       "hello"]
ChatChannel = Literal["table", "spectators"]


class Chat(_Msg):
    """Table talk: a text message (players: channel `table`; spectators: `spectators`)."""
    type: Literal["chat"]
    channel: ChatChannel
    #: plain text; the server cleans it and refuses more than its limit (chat.clean_text)
    text: Annotated[str, StringConstraints(max_length=1200)]
    id: Ident = None


class React(_Msg):
    """Table talk: a quick reaction (an emote or a short phrase) by its code."""
    type: Literal["react"]
    channel: ChatChannel
    code: ReactionCode
    id: Ident = None


class ChatMode(_Msg):
    """The host turns the table's chat off (or on again)."""
    type: Literal["chat_mode"]
    off: bool
    id: Ident = None


ClientMessage = Annotated[Decide | Auth | Back | Sync | Ping | Ready | SetSeat | Cancel | Chat
                          | React | ChatMode | Leave, Field(discriminator="type")]
_client = TypeAdapter(ClientMessage)


def parse_client(raw: str | bytes):
    """A client message from JSON text; raises pydantic.ValidationError (or security.BadJSON:
    not JSON as the protocol means it)."""
    return parse_client_value(strict_json(raw))


def parse_client_value(value: Any):
    """A client message from parsed JSON (security.strict_json); raises ValidationError."""
    return _client.validate_python(value, strict=True)


# -- server -> client ---------------------------------------------------------------------------
class SeatInfo(BaseModel):
    seat: int
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str | None = None
    joined: bool
    away: bool
    #: a human seat's player is connected (to this server process)
    online: bool = False


class ServerWelcome(BaseModel):
    type: Literal["welcome"]
    protocol: int
    table: str
    game: str
    seat: int | None
    role: Literal["player", "spectator"]
    name: str | None = None
    lang: Literal["en", "de"]
    server_time: float


class WindowInfo(BaseModel):
    deadline: float | None
    eligible: bool
    answered: str | None
    seats: list[int]


class RoundBreak(BaseModel):
    """Kombio: the pause after a round (its summary); the next round's decisions wait."""
    #: the latest end of the break (epoch seconds)
    until: float
    #: the seats that sent `ready`
    ready: list[int]
    #: the seats the break still waits for (connected players that are not ready)
    waiting: list[int]


class DecisionInfo(BaseModel):
    """A decision as JSON (GameState.decision_json, docs/notation.md "Decisions as JSON"):
    clients read `kind` and `args` instead of parsing `text`, and send `text`."""
    text: str
    kind: str
    args: dict[str, Any]


class PaceInfo(BaseModel):
    """A turn-based table's pace (server/tables/pace.py; null in the state of a live table)."""
    pace: Literal["turn"]
    #: the time for each move (seconds)
    move_seconds: float
    #: what happens when a move's time runs out: a bot makes that move, or the player is
    #: dropped (a bot takes the seat for the rest of the game)
    on_timeout: Literal["bot_move", "drop"]
    #: when the running move's reminder goes (went) out (epoch seconds; null: no move running)
    remind_at: float | None
    #: the running move's reminder has gone out
    reminded: bool


class ServerState(BaseModel):
    type: Literal["state"]
    table: str
    index: int
    status: Literal["waiting", "playing", "over"]
    seat: int | None
    view: dict[str, Any]
    legal: list[str]
    #: `legal` as JSON, in the same order
    decisions: list[DecisionInfo]
    your_turn: bool
    waiting_for: list[int]
    deadline: float | None
    window: WindowInfo | None
    away: bool
    seats: list[SeatInfo]
    rematch: str | None
    server_time: float
    round_break: RoundBreak | None = None
    #: a turn-based table's pace (null: live)
    pace: PaceInfo | None = None
    #: whose decision it is and why, in the connection's language, from this viewer's view
    #: (narration `web_why`; "" while the table waits for players)
    why: str
    #: a lesson's table, to the learner's seat: the step due, the last done (lessons.py)
    lesson: dict[str, Any] | None = None


class ServerEvent(BaseModel):
    type: Literal["event"]
    index: int
    seat: int
    decision: str
    #: `decision` as JSON, for the deciding seat
    move: DecisionInfo
    by: Literal["player", "bot", "standin", "timeout"] = "player"
    text: str


class ServerAck(BaseModel):
    type: Literal["ack"]
    id: Ident = None
    index: int
    decision: str
    pending: bool


class ServerError(BaseModel):
    type: Literal["error"]
    code: str
    message: str
    id: Ident = None


class ServerPong(BaseModel):
    type: Literal["pong"]
    id: Ident = None
    server_time: float


class ServerRematch(BaseModel):
    type: Literal["rematch"]
    table: str


class ServerCancelled(BaseModel):
    type: Literal["cancelled"]
    table: str


class ServerReminder(BaseModel):
    """A turn-based table: the move's time runs out at `deadline` (sent to the connections
    of the seats whose move it is, when the reminder is due; server/tables/pace.py)."""
    type: Literal["reminder"]
    table: str
    seat: int
    index: int
    deadline: float


class ServerChat(BaseModel):
    """Table talk: one message, reaction or change of the chat's mode (kind off/on: by the
    host), as stored; `seq` grows with every row of the table (not by one)."""
    type: Literal["chat"]
    seq: int
    channel: ChatChannel
    seat: int | None
    #: a spectator's number at this table (per connection), else null
    spectator: int | None
    name: str | None
    kind: Literal["text", "react", "off", "on"]
    #: the text (kind text) or the reaction's code (kind react); null for off/on
    text: str | None
    #: the number of actions of the game when it was sent (its place in the replay)
    n: int
    at: float


class ServerChatLog(BaseModel):
    """Table talk, sent on connecting: whether the chat is off, the connection's spectator
    number (null for a player) and the latest messages it may see, oldest first."""
    type: Literal["chat_log"]
    off: bool
    spectator: int | None
    messages: list[ServerChat]


class ServerReconnect(BaseModel):
    """The server process is shutting down (SIGTERM, a rolling restart): connect again, to the
    same URL, after a short random delay; the connection then closes with code 1012."""
    type: Literal["reconnect"]
    #: the most milliseconds a client should wait before it connects again (it picks at random
    #: below this, so that a process's clients do not all arrive at once)
    delay_ms: int


ServerMessage = Annotated[ServerWelcome | ServerState | ServerEvent | ServerAck | ServerError | ServerPong | ServerRematch | ServerCancelled | ServerChat | ServerChatLog | ServerReminder | ServerReconnect, Field(discriminator="type")]
server_message = TypeAdapter(ServerMessage)


# -- HTTP bodies ------------------------------------------------------------------------------------
#: a player's name (security.clean_name: no control or formatting characters, no bot's name)
Name = Annotated[str, StringConstraints(max_length=4 * NAME_MAX), AfterValidator(clean_name)]

#: the largest number a rule option takes (Kombio's `max_turns`: turns in a round without a
#: Kombio call; a few dozen are usual, a thousand take hours)
MAX_OPTION_NUMBER = 1000


def _option_value(v: Any) -> Any:
    """A rule option's value: true, false, null or a whole number from 1 to
    `MAX_OPTION_NUMBER` (the engines check which option takes which)."""
    if v is None or type(v) is bool:
        return v
    if type(v) is not int:
        raise ValueError("a rule option is true, false, null or a whole number")
    if not 1 <= v <= MAX_OPTION_NUMBER:
        raise ValueError(f"a rule option's number is 1 to {MAX_OPTION_NUMBER}")
    return v


OptionValue = Annotated[bool | Annotated[int, Field(ge=1, le=MAX_OPTION_NUMBER)] | None,
                        BeforeValidator(_option_value)]


class Body(BaseModel):
    """A request body of the lobby: as strict as the WebSocket messages (no unknown keys, no
    "4" for 4 or "no" for false; strings as sent)."""
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatSpec(Body):
    """One seat of a new table: a human (joins later) or a bot (name or difficulty level)."""
    kind: Literal["human", "bot"] = "human"
    bot: Annotated[str, StringConstraints(max_length=32)] | None = Field(
        None, description="bot name (random, greedy, heuristic, pimc, ismcts) or level "
                          "(easy, medium, hard, expert); default medium")


def _known_game(name: str) -> str:
    """A game the house knows (core/registry.py), read when the request comes: a game
    registered after the server started is known too."""
    if name not in registry.names():
        raise ValueError(f"unknown game {name[:32]!r} (known: {', '.join(registry.names())})")
    return name


def _known_variant(name: str | None) -> str | None:
    """The name of a rule set of some game (which game has it, table_config checks: a rule
    set of another game is refused there, as not possible for this one)."""
    known = list(dict.fromkeys(v for g in registry.games() for v in g.variant_names))
    if name is not None and name not in known:
        raise ValueError(f"unknown rule set {name[:32]!r} (known: {', '.join(known)})")
    return name


#: a game's name as a request names it (the registry's games)
GameName = Annotated[str, StringConstraints(max_length=32), AfterValidator(_known_game)]

#: the most seats a table of any game has (the protocol's seat numbers are 0 to MAX_SEATS - 1)
MAX_SEATS = 6


class CreateTable(Body):
    game: GameName = Field(..., description="the game (GET /api/games lists them)")
    variant: Annotated[str, StringConstraints(max_length=32),
                       AfterValidator(_known_variant)] | None = Field(
        None, description="the rule set (GET /api/games: `variants`; default the game's first); "
                          "a game with one rule set takes only that one")
    players: Annotated[int, Field(ge=1, le=MAX_SEATS)] | None = Field(
        None, description="number of seats (default: the rule set's; GET /api/games: `players`)")
    seats: Annotated[list[SeatSpec], Field(max_length=MAX_SEATS)] | None = Field(
        None, description="one entry per seat (default: every seat human)")
    options: dict[Annotated[str, StringConstraints(max_length=32)], OptionValue] | None = Field(
        None, description="rule options (GET /api/games: `rule_options`, `defaults`): true, "
                          f"false, null or a whole number from 1 to {MAX_OPTION_NUMBER}")
    game_settings: dict[Annotated[str, StringConstraints(max_length=32)], Any] | None = Field(
        None, max_length=8, description="the game's settings and table settings by name (GET /api/games: "
                          "`settings`, `table_settings`: type, default, bounds); each may also "
                          "stand at the top of the body (`\"target\": 50`); a bad value is "
                          "refused with the declared error and the name as `field`")
    public: bool = Field(True, description="listed in the lobby; private tables are joined "
                                           "by code or link only")
    turn_seconds: Annotated[float, Field(ge=1, le=86400)] | None = Field(
        None, description="turn timer: a human who has not decided in time is played by a "
                          "bot until they return (none: no timer)")
    name: Name | None = Field(
        None, description="join the first human seat at once under this name")
    rated: bool = Field(False, description="a rated table (docs/ratings.md): the host is "
                                           "logged in and joins at once (`name`); every "
                                           "player must be logged in; its end moves the "
                                           "ratings; it always has a turn timer")
    pace: Literal["live", "turn"] = Field(
        "live", description="live: one sitting, with the turn timer `turn_seconds`; turn: "
                            "turn-based, every player has `move_seconds` for each move "
                            "(docs/api.md, \"Turn-based tables\")")
    move_seconds: Literal[43200, 86400, 259200, 604800] | None = Field(
        None, description="turn-based: the time for each move: 12 hours, 1, 3 or 7 days "
                          "(default 1 day)")
    on_timeout: Literal["bot_move", "drop"] | None = Field(
        None, description="turn-based: when a move's time runs out, bot_move: a bot makes "
                          "that move (default); drop: the player is dropped and a bot "
                          "takes the seat for the rest of the game")

    @model_validator(mode="before")
    @classmethod
    def _declared_settings_at_the_top(cls, data):
        """A game's declared setting at the top of the body joins `game_settings`."""
        names = {o.name for g in registry.games() for o in (*g.settings, *g.table_settings)}
        top = [k for k in data if k in names and k not in cls.model_fields] \
            if isinstance(data, dict) else []
        if top and isinstance(data.get("game_settings") or {}, dict):
            moved = {**(data.get("game_settings") or {}), **{k: data[k] for k in top}}
            data = {**{k: v for k, v in data.items() if k not in top}, "game_settings": moved}
        return data

    @field_validator("players")
    @classmethod
    def _players_of_the_game(cls, v, info: ValidationInfo):
        """No more seats than the game has in any rule set, nor fewer (the rule set's own
        range is checked with the settings, table_config)."""
        game = info.data.get("game")
        if v is None or game is None:
            return v
        g = registry.info(game)
        if v < g.min_players:           # worded as pydantic's own bounds are
            raise PydanticCustomError("greater_than_equal",
                                      "Input should be greater than or equal to {ge}",
                                      {"ge": g.min_players})
        if v > g.max_players:
            raise PydanticCustomError("less_than_equal",
                                      "Input should be less than or equal to {le}",
                                      {"le": g.max_players})
        return v

    @field_validator("options")
    @classmethod
    def _few_options(cls, v):
        if v is not None and len(v) > 8:
            raise ValueError("at most 8 options")
        return v


class JoinTable(Body):
    name: Name
    seat: Annotated[int, Field(ge=0, le=5)] | None = Field(
        None, description="the seat to take (default: the first free human seat)")


class JoinByLink(JoinTable):
    table: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                            max_length=300 + MAX_CODE_LEN)] = Field(
        ..., description="a table code or a link ending in /t/CODE")


class Rematch(Body):
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)]


class TableOut(BaseModel):
    code: str
    link: str
    ws: str
    game: str
    variant: str | None
    players: int
    seats: list[SeatInfo]
    free_seats: list[int]
    public: bool
    status: Literal["waiting", "playing", "over"]
    turn_seconds: float | None
    snap_seconds: float | None
    target: int | None
    options: dict[str, Any]
    actions: int
    rematch: str | None
    #: a game's memory mode (a table setting every player of the table sees)
    memory: bool = False
    #: the seat of the table's host (its creator), who may change free seats and cancel it
    host: int | None = None
    #: a rated table (docs/ratings.md): only logged-in players sit there
    rated: bool = False
    #: a moderator annulled its rated game (it no longer counts for the ratings)
    annulled: bool = False
    #: a lesson's table (POST /api/lessons/{id}): the lesson's id (GET /api/lessons/{id})
    lesson: str | None = None
    #: live or turn (turn-based: `move_seconds` a move, `on_timeout`; server/tables/pace.py)
    pace: Literal["live", "turn"] = "live"
    move_seconds: float | None = None
    on_timeout: Literal["bot_move", "drop"] | None = None
    #: the running move's deadline (epoch seconds; null: none)
    deadline: float | None = None


class JoinOut(BaseModel):
    table: TableOut
    seat: int
    name: str
    token: str = Field(..., description="the seat's secret: keep it; it resumes the seat "
                                        "(reload, another device) and works at rematches")
    ws: str = Field(..., description="WebSocket path: connect with ?token=...")
    resume_link: str


class CreateOut(BaseModel):
    table: TableOut
    join: JoinOut | None = None


class WatchOut(BaseModel):
    table: TableOut
    ws: str
    index: int
    view: dict[str, Any]
