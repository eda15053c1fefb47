"""Table talk (docs/protocol.md "Table talk"): a chat of the seated players
(channel `table`, which spectators read too) and one of the spectators (channel `spectators`,
which the players do not get while the game runs, so that nobody watching can pass them what
they see; once the game is over everybody gets both, and the replay shows both).

- Who posts where: a seated player to `table`, a spectator to `spectators` (anything else:
  `wrong_channel`). Bots never chat: no bot has a connection, and nothing here posts for one.
- Text only: the text is NFC-normalised, line breaks and tabs become spaces, other control
  and formatting characters (bidi overrides included; the zero-width joiner of emoji stays)
  are removed, at most `chat_max` characters (`chat_too_long`), not empty (`chat_empty`).
  The server never interprets it; the browser shows it as text (links are not links).
- Reactions: one of `REACTIONS` (the browser has their words in both languages).
- Rates: a seat's budget (`chat_rate` per second, bursts of `chat_burst`) is shared by all of
  its connections and is the seat's own, whatever the address; a spectator's is per connection,
  and all the spectators behind one address (IPv6: one /64) share a second budget of twice that at this table.
  Beyond them: `chat_rate_limited`, nothing is stored. (Every chat message also counts in the
  connection's and the address's message budgets of ws/endpoint.py.)
- The host may turn the chat off (`chat_mode`): then nobody's text or reaction is taken
  (`chat_off`) until the host turns it on again. The change is a row of the chat too.
- Muting is the browser's (per viewer, stored in that browser): the server sends everything,
  but to a seated player whose account blocks another seat's account (mod/moderation.py)
  none of that seat's lines (read when the player connects: a block made during the game
  takes effect at their next connection).
- A moderator may mute a player for a time (mod/notices.py, mutes: the account, or the
  guest as bans name one): their text and reactions are refused (`chat_muted`, with
  `params` {"until", "until_text", "reason"}: until when and why), at a seat (its account's
  mute or its guest's) and as a spectator (the mute of the account of the connection's
  session cookie, and the mute of the person its browser's client identity names: a guest
  muted from one of their lines, at a seat or watching; a browser that gives no identity, or
  a new browser profile, is not held by a guest's mute). A spectator's line keeps its
  writer's person and account (never sent to clients) so that a moderator can mute them
  from the line (http/moderation.py).
- A client that connects gets `chat_log`: the mode and the last `chat_backlog` rows it may see.
- A moderator may remove a line (mod/moderation.py, remove_line): the row keeps its text for
  the evidence, but clients get it as kind `removed` without text, and those connected get
  `chat_removed` with its number.

Several processes (PostgreSQL): a row's insert notifies "table_id:chat"; every process then
reads the table's latest rows and sends its clients those it has not sent yet (`notified`).
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections import deque
from datetime import datetime, timezone

from cardtable.server.talk.chat_store import (blocked_seats, insert_chat, last_mode,
                                              muted_until, recent_chat, spectator_muted_until)
from cardtable.server.guard.netaddr import addr_group
from cardtable.server.guard.security import TokenBucket
from cardtable.server.tables.table_base import ProtocolError, log_failure

#: the quick reactions: emotes and short phrases (their words: i18n `chat.react.<code>`)
REACTIONS = ("thumbs", "laugh", "wow", "oops", "clap", "gg", "wp", "thanks", "sorry", "hello")

_SPACE = re.compile(r"[\t\n\r\v\f\u0085\u2028\u2029]")
_BLANKS = re.compile(r" {2,}")
#: kept among the formatting characters: ZWJ and ZWNJ (emoji sequences, scripts), variation
#: selectors are not category Cf
_KEEP = {"\u200d", "\u200c"}


def clean_text(raw: str, limit: int) -> str:
    """The text a chat message shows; ProtocolError if empty or longer than `limit`."""
    s = unicodedata.normalize("NFC", raw)
    s = _SPACE.sub(" ", s)
    s = "".join(ch for ch in s if ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"))
    s = _BLANKS.sub(" ", s).strip()
    if not s:
        raise ProtocolError("chat_empty", "a chat message needs some text")
    if len(s) > limit:
        raise ProtocolError("chat_too_long", f"a chat message has at most {limit} characters")
    return s


def message(row: dict) -> dict:
    """The wire form of a stored row (server message `chat`). A line a moderator removed is
    kind `removed` without its text (the browser shows i18n `chat.removed`)."""
    gone = row.get("removed_at") is not None
    return {"type": "chat", "seq": row["id"], "channel": row["channel"], "seat": row["seat"],
            "spectator": row["spectator"], "name": row["name"],
            "kind": "removed" if gone else row["kind"],
            "text": None if gone else row["text"], "n": row["n"], "at": row["at"]}


class ChatRoom:
    """The chat of one table in this process (kept on its runtime)."""

    def __init__(self, rt, settings):
        self.rt = rt
        self.settings = settings
        self.off: bool | None = None                # unknown until read
        self.seat_buckets: dict[int, TokenBucket] = {}
        self.addr_buckets: dict[str, TokenBucket] = {}
        self.spectators = 0                         # numbers handed out to spectators
        self.sent: deque[int] = deque(maxlen=4 * max(1, settings.chat_backlog))
        self.sent_set: set[int] = set()
        self.lock = asyncio.Lock()
        #: a seat -> the seats whose lines it does not get (its account blocks theirs)
        self.hidden: dict[int, set[int]] = {}
        #: the rows sent whose removal by a moderator was sent too
        self.removed: set[int] = set()

    # -- who sees what --------------------------------------------------------------------------
    def visible(self, conn, channel: str) -> bool:
        return channel == "table" or conn.seat is None or self.rt.status == "over"

    def channels(self, conn) -> tuple[str, ...]:
        return ("table",) if not self.visible(conn, "spectators") else ("table", "spectators")

    def _mark(self, ident: int) -> bool:
        """Remember that row `ident` was sent; False if it had been."""
        if ident in self.sent_set:
            return False
        if len(self.sent) == self.sent.maxlen:
            self.sent_set.discard(self.sent[0])
        self.sent.append(ident)
        self.sent_set.add(ident)
        return True

    def broadcast(self, row: dict) -> None:
        if row["kind"] in ("off", "on"):
            self.off = row["kind"] == "off"
        if not self._mark(row["id"]):
            return
        msg = message(row)
        for c in list(self.rt.conns):
            if self.visible(c, row["channel"]) and not self._hidden(c, row):
                c.send(msg)

    def remove(self, ident: int) -> None:
        """A moderator removed row `ident`: clients that may have got it get `chat_removed`
        (the browser shows "removed by a moderator" instead of it)."""
        if ident in self.removed or ident not in self.sent_set:
            return
        self.removed.add(ident)
        for c in list(self.rt.conns):
            c.send({"type": "chat_removed", "seq": ident})

    def _hidden(self, conn, row: dict) -> bool:
        return conn.seat is not None and row["seat"] is not None and \
            row["seat"] in self.hidden.get(conn.seat, ())

    async def _mode(self) -> bool:
        if self.off is None:
            self.off = await last_mode(self.rt.hub.store, self.rt.id)
        return self.off

    # -- connecting ------------------------------------------------------------------------------
    def spectator_number(self) -> int:
        self.spectators += 1
        return self.spectators

    async def backlog(self, conn) -> None:
        """Send a connecting client the mode and the latest rows it may see (`chat_log`)."""
        off = await self._mode()
        if conn.seat is not None:
            self.hidden[conn.seat] = await blocked_seats(self.rt.hub.store, self.rt.id,
                                                         conn.seat)
        rows = await recent_chat(self.rt.hub.store, self.rt.id, self.settings.chat_backlog,
                                 self.channels(conn))
        conn.send({"type": "chat_log", "off": off, "spectator": conn.spectator,
                   "messages": [message(r) for r in rows if not self._hidden(conn, r)]})

    # -- posting ------------------------------------------------------------------------------------
    def _budget(self, conn) -> bool:
        s = self.settings
        if conn.seat is not None:
            b = self.seat_buckets.get(conn.seat)
            if b is None:
                b = self.seat_buckets[conn.seat] = TokenBucket(s.chat_rate, s.chat_burst)
            return b.take()
        if conn.chat_bucket is None:
            conn.chat_bucket = TokenBucket(s.chat_rate, s.chat_burst)
        group = addr_group(conn.addr)                     # an IPv6 client: its /64
        a = self.addr_buckets.get(group)
        if a is None:
            if len(self.addr_buckets) > 10_000:
                self.addr_buckets.clear()
            a = self.addr_buckets[group] = TokenBucket(2 * s.chat_rate, 2 * s.chat_burst)
        a.take(0)
        if a.tokens < 1:
            return False
        if not conn.chat_bucket.take():
            return False
        return a.take()

    async def post(self, conn, channel: str, kind: str, text: str) -> None:
        """A player's or spectator's message or reaction; ProtocolError if refused."""
        mine = "table" if conn.seat is not None else "spectators"
        if channel != mine:
            raise ProtocolError("wrong_channel", "players write to the channel `table`, "
                                                 "spectators to `spectators`")
        if kind == "text":
            text = clean_text(text, self.settings.chat_max)
        if await self._mode():
            raise ProtocolError("chat_off", "the host has turned the chat off")
        store = self.rt.hub.store
        if conn.seat is not None:
            muted = await muted_until(store, self.rt.id, conn.seat)
        else:                                   # a spectator: its session's account, its browser
            muted = await spectator_muted_until(store, getattr(conn, "account_id", None),
                                                getattr(conn, "person", None))
        if muted is not None:
            until, reason = muted
            when = datetime.fromtimestamp(until, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            raise ProtocolError("chat_muted", f"a moderator has muted you in the chat until "
                                f"{when}: {reason}", "chat_muted",
                                {"until": until, "until_text": when, "reason": reason})
        if not self._budget(conn):
            raise ProtocolError("chat_rate_limited",
                                f"too many chat messages: at most {self.settings.chat_burst} "
                                f"at once, then one every {1 / self.settings.chat_rate:g} s")
        await self._store(conn, channel, kind, text)

    async def set_mode(self, conn, off: bool) -> None:
        """The host turns the chat off (or on again)."""
        if conn.seat is None or conn.seat != self.rt.host():
            raise ProtocolError("not_host", "only the table's host may turn the chat off or on")
        if await self._mode() == off:
            return
        await self._store(conn, "table", "off" if off else "on", None)

    async def _store(self, conn, channel: str, kind: str, text: str | None) -> None:
        rt = self.rt
        name = rt.seats[conn.seat]["name"] if conn.seat is not None else None
        spectator = conn.seat is None
        row = await insert_chat(rt.hub.store, rt.id, {
            "channel": channel, "seat": conn.seat,
            "spectator": conn.spectator if spectator else None,
            "name": name, "kind": kind, "text": text, "n": rt.n,
            # who wrote a spectator's line (never sent: `message`), for a mute from the line
            "person": getattr(conn, "person", None) if spectator else None,
            "account_id": getattr(conn, "account_id", None) if spectator else None})
        rt.hub.metrics.chat_line(kind)                      # cardtable_chat_lines{kind}
        self.broadcast(row)

    async def catch_up(self) -> None:
        """Another process stored a row: send this process's clients what they have not got."""
        async with self.lock:
            rows = await recent_chat(self.rt.hub.store, self.rt.id, self.settings.chat_backlog)
            for r in rows:
                self.broadcast(r)
                if r.get("removed_at") is not None:
                    self.remove(r["id"])


#: rows of a finished game's chat the replay gets (the latest)
REPLAY_ROWS = 5000


async def chat_replay(store, table_id: int) -> dict:
    """A finished game's chat for its replay: {"messages": [chat messages, oldest first]}."""
    rows = await recent_chat(store, table_id, REPLAY_ROWS)
    return {"messages": [message(r) for r in rows]}


def room(rt, settings) -> ChatRoom:
    """The table's chat in this process (made on first use)."""
    r = getattr(rt, "chat_room", None)
    if r is None:
        r = rt.chat_room = ChatRoom(rt, settings)
    return r


def removed(hub, table_id: int, ident: int) -> None:
    """A moderator removed row `ident` of the table (this process's clients are told; other
    processes learn it from the NOTIFY "table_id:chat" sent with the removal)."""
    rt = hub.rts.get(table_id)
    if rt is not None and getattr(rt, "chat_room", None) is not None:
        rt.chat_room.remove(ident)


def notified(hub, table_id: int) -> None:
    """A NOTIFY "table_id:chat" from the database (any process's chat row)."""
    rt = hub.rts.get(table_id)
    if rt is not None and getattr(rt, "chat_room", None) is not None:
        asyncio.ensure_future(rt.chat_room.catch_up()).add_done_callback(log_failure)
