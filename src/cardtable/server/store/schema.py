"""The database schema (SQLAlchemy Core; the Alembic migrations in `migrations/` create it):
the tables `game_tables`, `seats` and `actions` (db.py describes them), `accounts` and
`sessions` (accounts.py describes them), `chat` (chat.py), the friends' tables (friends.py),
the NOTIFY channel,
and the small helpers every part of the store shares."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Text,
    UniqueConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    BigInteger,
    LargeBinary,
    false,
)


NOTIFY_CHANNEL = "cardtable"
#: `by` of an action (actions.by): who made it
BY_PLAYER, BY_BOT, BY_STANDIN, BY_TIMEOUT = "player", "bot", "standin", "timeout"

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(32), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("base", JSON, nullable=False),
    Column("public", Boolean, nullable=False, default=True),
    Column("status", String(12), nullable=False),
    Column("n_actions", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("deadline", Float, nullable=True),
    Column("snap", JSON, nullable=True),
    Column("rematch_code", String(32), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("creator", String(64), nullable=True),
    # a rated table (ratings.py): every human seat an account's; its end updates the ratings
    Column("rated", Boolean, nullable=False, server_default=false()),
    # a finished game's result, {"scores", "winners"} (ratings.py; NULL: not over, or
    # finished before revision 0007)
    Column("result", JSON, nullable=True),
    # when a moderator annulled the finished rated game (ratings.annul; migration 0016):
    # it stays in the records but no longer counts. NULL: it counts
    Column("annulled_at", Float, nullable=True),
    # the pace (pace.py; migration 0010): 'turn' or 'live' (NULL: live), a player's last own
    # decision, the action index whose reminder went out, the seats whose move it is (",0,2,")
    Column("pace", String(8), nullable=True),
    Column("moved_at", Float, nullable=True),
    Column("reminded", Integer, nullable=True),
    Column("waiting_for", String(64), nullable=True),
    # when a seat's player first connected to the table (migration 0011; NULL: nobody yet):
    # a table at which a seat was taken and nobody ever connected expires after
    # Settings.unseen_ttl (background.Sweeper)
    Column("seen_at", Float, nullable=True),
    Index("ix_game_tables_lobby", "status", "public"),
    Index("ix_game_tables_pace", "pace", "status"),
    Index("ix_game_tables_sweep", "status", "updated_at"),
    Index("ix_game_tables_creator", "creator", "status"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("away", Boolean, nullable=False, default=False),
    Column("joined_at", Float, nullable=True),
    # who took the seat, as hashes (security.seat_client): 32 hex digits of the address, then
    # 32 of the person (the client identity; without one, the address again)
    Column("client", String(64), nullable=True),
    # the account the seat's player had when they took it or later claimed it (accounts.py);
    # NULL: a guest's seat, a bot's, or an account that was deleted
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_seats_account",
                                             ondelete="SET NULL"), nullable=True),
    Index("ix_seats_token", "token_hash"),
    Index("ix_seats_account", "account_id"),
    # an account holds at most one seat of a table (migration 0012; NULLs do not collide)
    Index("ux_seats_table_account", "table_id", "account_id", unique=True),
)

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    # the two keys of security.name_keys: two names that look alike share one of them, so
    # each is unique (no account can be named like another, lookalikes included)
    Column("name_key", String(256), nullable=False, unique=True),
    Column("name_key2", String(256), nullable=False, unique=True),
    Column("password_hash", String(256), nullable=False),       # Argon2id, PHC string
    Column("created_at", Float, nullable=False),
    Column("password_at", Float, nullable=False),
    # player | moderator | admin (mod/moderation.py; migration 0013)
    Column("role", String(16), nullable=False, server_default="player"),
)

sessions = Table(
    "sessions", metadata,
    # SHA-256 of the cookie's random value: a copy of the database opens no session
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_sessions_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_sessions_account", "account_id"),
)

actions = Table(
    "actions", metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", String(64), nullable=False),
    Column("by", String(8), nullable=False, default="player"),
    Column("at", Float, nullable=False),
)

#: the server's own keys, made at its first start (the VAPID key pair of Web Push: push.py)
server_keys = Table(
    "server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: a seat's Web Push subscriptions (push.py): where to send "your move" while its page is
#: closed; `sent_n`: the action index of the last move a push was sent for (one a move)
push_subscriptions = Table(
    "push_subscriptions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           nullable=False),
    Column("seat", Integer, nullable=False),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("sent_n", Integer, nullable=True),
    UniqueConstraint("table_id", "seat", "endpoint", name="uq_push_seat_endpoint"),
)

#: the table talk (chat.py): messages, reactions and the host's changes of the chat's mode
chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"),
           nullable=False),
    Column("channel", String(12), nullable=False),          # table | spectators
    Column("seat", Integer, nullable=True),                 # a player's seat
    Column("spectator", Integer, nullable=True),            # a spectator's number at the table
    Column("name", String(64), nullable=True),
    Column("kind", String(8), nullable=False),              # text | react | off | on
    Column("text", String(1200), nullable=True),            # the text, or the reaction's code
    Column("n", Integer, nullable=False),                   # actions of the game before it
    Column("at", Float, nullable=False),
    Column("removed_at", Float, nullable=True),             # a moderator removed it (0015)
    Column("removed_by", String(80), nullable=True),        # who
    Column("person", String(32), nullable=True),            # a spectator's browser (0019)
    Column("account_id", Integer, nullable=True),           # a spectator's account (0019)
    Index("ix_chat_table", "table_id", "id"),
)

#: a player's rating in a game (ratings.py): `player` "a:<account id>" or "b:<bot name>"
ratings = Table(
    "ratings", metadata,
    Column("game", String(16), primary_key=True),
    Column("player", String(48), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_ratings_account",
                                             ondelete="CASCADE"), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    # different players rated against (rating_opponents; migration 0012): a rating is
    # provisional until it has enough games against enough of them (ratings.established)
    Column("opponents", Integer, nullable=False, server_default="0"),
    Index("ix_ratings_account", "account_id"),
)

#: the different players each player was rated against, per game (ratings.py; migration 0012)
rating_opponents = Table(
    "rating_opponents", metadata,
    Column("game", String(16), primary_key=True),
    Column("player", String(48), primary_key=True),
    Column("opponent", String(48), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_rating_opponents_account",
                                             ondelete="CASCADE"), nullable=True),
    Index("ix_rating_opponents_account", "account_id"),
)

#: one row per rated seat and finished rated game: the rating before and after (ratings.py)
rating_history = Table(
    "rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", name="fk_rating_history_table",
                                           ondelete="CASCADE"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("player", String(48), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_rating_history_account",
                                             ondelete="CASCADE"), nullable=True),
    Column("seat", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("left_game", Boolean, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    # the seat left before its player's first own move (rated alone; migration 0016)
    Column("early", Boolean, nullable=False, server_default=false()),
    Index("ix_rating_history_player", "player", "game", "id"),
    Index("ix_rating_history_table", "table_id"),
)


#: passkeys of accounts and the challenges of their ceremonies (passkeys.py; migration 0009)
passkeys = Table(
    "passkeys", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_passkeys_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("credential_id", String(1400), nullable=False, unique=True),    # base64url
    Column("public_key", LargeBinary, nullable=False),                   # COSE key
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(200), nullable=False),                   # JSON list
    Column("user_handle", String(100), nullable=False),                  # base64url
    Column("label", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_used", Float, nullable=True),
    Index("ix_passkeys_account", "account_id"),
)

passkey_challenges = Table(
    "passkey_challenges", metadata,
    Column("id_hash", String(64), primary_key=True),        # SHA-256 of the cookie's value
    Column("challenge", String(128), nullable=False),       # base64url
    Column("purpose", String(12), nullable=False),          # signup | login | add | confirm | email
    Column("account_id", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("user_handle", String(100), nullable=True),
    Column("expires", Float, nullable=False),
    Index("ix_passkey_challenges_expires", "expires"),
)


#: e-mail of accounts (people/email.py; migration 0014): the verified address and the one
#: asked for, the links' tokens (their SHA-256 only), the recovery codes (their SHA-256 only)
account_emails = Table(
    "account_emails", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_account_emails_account",
                                             ondelete="CASCADE"),
           primary_key=True, autoincrement=False),
    Column("address", String(254), nullable=True),
    Column("address_key", String(254), nullable=True),             # lower case
    Column("pending", String(254), nullable=True),
    Column("lang", String(8), nullable=False),
    Column("verified_at", Float, nullable=True),
    Column("updated_at", Float, nullable=False),
    Index("ix_account_emails_key", "address_key"),
)

email_tokens = Table(
    "email_tokens", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_email_tokens_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("purpose", String(8), nullable=False),                  # verify | reset
    Column("address", String(254), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Index("ix_email_tokens_account", "account_id"),
    Index("ix_email_tokens_expires", "expires"),
)

recovery_codes = Table(
    "recovery_codes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_recovery_codes_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("code_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_recovery_codes_account", "account_id"),
)


#: friends (friends.py; migration 0008): requests by name (the lookalike keys of the name
#: asked for, whether or not an account has it: the answer never tells), friendships (one
#: row each way), when an account was last seen online, invitations to tables, and the
#: accounts' Web Push subscriptions for invitations
friend_requests = Table(
    "friend_requests", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("from_id", Integer, ForeignKey("accounts.id", name="fk_freq_from",
                                          ondelete="CASCADE"), nullable=False),
    Column("to_name", String(64), nullable=False),
    Column("to_key", String(256), nullable=False),
    Column("to_key2", String(256), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("declined_at", Float, nullable=True),
    Column("withdrawn_at", Float, nullable=True),
    UniqueConstraint("from_id", "to_key", name="uq_friend_request"),
    Index("ix_friend_requests_key", "to_key"),
    Index("ix_friend_requests_key2", "to_key2"),
)

friends = Table(
    "friends", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_friends_account",
                                             ondelete="CASCADE"), primary_key=True),
    Column("friend_id", Integer, ForeignKey("accounts.id", name="fk_friends_friend",
                                            ondelete="CASCADE"), primary_key=True),
    Column("since", Float, nullable=False),
)

presence = Table(
    "presence", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_presence_account",
                                             ondelete="CASCADE"), primary_key=True),
    Column("seen_at", Float, nullable=False),
)

invites = Table(
    "invites", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("game_tables.id", name="fk_invites_table",
                                           ondelete="CASCADE"), nullable=False),
    Column("from_id", Integer, ForeignKey("accounts.id", name="fk_invites_from",
                                          ondelete="CASCADE"), nullable=False),
    Column("to_id", Integer, ForeignKey("accounts.id", name="fk_invites_to",
                                        ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("table_id", "to_id", name="uq_invite"),
    Index("ix_invites_to", "to_id"),
)

account_push = Table(
    "account_push", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_account_push_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("account_id", "endpoint", name="uq_account_push"),
)


#: moderation (mod/moderation.py; migration 0013): the audit log of moderator actions, bans
#: and suspensions (of accounts, persons and address groups), blocks, reports
audit_log = Table(
    "audit_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor", String(80), nullable=False),
    Column("action", String(32), nullable=False),
    Column("target", String(120), nullable=False),
    Column("reason", String(500), nullable=False),
    Column("detail", Text, nullable=False),                 # JSON
    Index("ix_audit_log_at", "at"),
)

bans = Table(
    "bans", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),             # account | person | address
    Column("target", String(64), nullable=False),
    Column("reason", String(500), nullable=False),
    Column("until", Float, nullable=True),                  # None: a ban; else a suspension
    Column("created_at", Float, nullable=False),
    Column("created_by", String(80), nullable=False),
    Column("lifted_at", Float, nullable=True),
    Index("ix_bans_target", "kind", "target"),
)

#: players muted in table talk for a time (mod/moderation.py; migration 0015): an account
#: (target: its id) or a guest (`person`: the person half of seats.client)
mutes = Table(
    "mutes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(8), nullable=False),              # account | person
    Column("target", String(64), nullable=False),
    Column("reason", String(500), nullable=False),
    Column("until", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(80), nullable=False),
    Column("lifted_at", Float, nullable=True),
    Index("ix_mutes_target", "kind", "target"),
)

#: a moderator's warnings to an account (mod/moderation.py; migration 0015)
warnings = Table(
    "warnings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_warnings_account",
                                             ondelete="CASCADE"), nullable=False),
    Column("text", String(500), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(80), nullable=False),
    Column("read_at", Float, nullable=True),                # None: unread
    Index("ix_warnings_account", "account_id"),
)

#: the admins' banners (mod/moderation.py; migration 0015): the latest not ended is shown
announcements = Table(
    "announcements", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("text_en", String(300), nullable=False),
    Column("text_de", String(300), nullable=False),
    Column("until", Float, nullable=True),                  # None: until ended
    Column("created_at", Float, nullable=False),
    Column("created_by", String(80), nullable=False),
    Column("ended_at", Float, nullable=True),
)

blocks = Table(
    "blocks", metadata,
    Column("blocker_id", Integer, ForeignKey("accounts.id", name="fk_blocks_blocker",
                                             ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("accounts.id", name="fk_blocks_blocked",
                                             ondelete="CASCADE"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked_id"),
)

reports = Table(
    "reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("accounts.id", name="fk_reports_reporter",
                                              ondelete="CASCADE"), nullable=False),
    Column("target_id", Integer, ForeignKey("accounts.id", name="fk_reports_target",
                                            ondelete="SET NULL"), nullable=True),
    Column("target_name", String(64), nullable=False),
    Column("reason", String(16), nullable=False),
    Column("note", String(500), nullable=False),
    Column("evidence", Text, nullable=False),               # JSON
    Column("created_at", Float, nullable=False),
    Column("claimed_by", String(80), nullable=True),
    Column("claimed_at", Float, nullable=True),
    Column("resolved_at", Float, nullable=True),
    Column("outcome", String(16), nullable=True),
    Column("resolution", String(500), nullable=True),
    Index("ix_reports_open", "resolved_at", "created_at"),
    Index("ix_reports_reporter", "reporter_id"),
)

#: the names of renamed accounts, reserved for a time (their lookalike keys)
name_reservations = Table(
    "name_reservations", metadata,
    Column("name_key", String(256), primary_key=True),
    Column("name_key2", String(256), nullable=False),
    Column("until", Float, nullable=False),
    Index("ix_name_reservations_key2", "name_key2"),
)


#: the "Play now" queue (tables/queue.py; migration 0017): one row per waiting player
queue_entries = Table(
    "queue_entries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ticket_hash", String(64), nullable=False),
    Column("owner", String(80), nullable=False),
    Column("addr", String(32), nullable=False),
    Column("client", String(64), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_queue_entries_account",
                                             ondelete="CASCADE"), nullable=True),
    Column("name", String(80), nullable=False),
    Column("game", String(16), nullable=False),
    Column("variant", String(32), nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("pace", String(8), nullable=False),
    Column("bot_wait", Float, nullable=True),
    Column("rating", Float, nullable=False),
    Column("since", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("table_code", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    UniqueConstraint("ticket_hash", name="uq_queue_ticket"),
    UniqueConstraint("owner", name="uq_queue_owner"),
    Index("ix_queue_entries_addr", "addr"),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def row_dict(r) -> dict[str, Any]:
    return dict(r._mapping)


class Conflict(Exception):
    """The table row changed under an optimistic transaction (SQLite): nothing was written."""


#: a player's identity (people/profiles.py; migration 0018): one row per account that chose one
profiles = Table(
    "profiles", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", name="fk_profiles_account",
                                             ondelete="CASCADE"), primary_key=True),
    Column("avatar", Integer, nullable=True),
    Column("line", String(400), nullable=False, server_default=""),
    Column("country", String(2), nullable=True),
    Column("updated_at", Float, nullable=False),
)
