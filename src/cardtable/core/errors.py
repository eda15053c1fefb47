"""Errors every game raises. User errors are CardtableError subclasses: front ends print
their message (never a traceback) and exit with status 2."""

from __future__ import annotations

from typing import Any


class CardtableError(Exception):
    """Base class of every error caused by input (a decision, a record, an option).

    One may carry a `code` and `params`: the catalog's message `err.<code>` (cardtable.i18n),
    which `words(lang)` words in a front end's language; without a code, `words` is the
    English text given."""

    code: str | None = None
    params: dict[str, Any] = {}

    def __init__(self, *args: Any, code: str | None = None,
                 params: dict[str, Any] | None = None):
        super().__init__(*args)
        if code is not None:
            self.code = code
            self.params = dict(params or {})

    def words(self, lang: str) -> str:
        """The error in `lang` (without a code: its text as given)."""
        if self.code is None:
            return str(self)
        from cardtable.i18n import t

        return t(lang, "err." + self.code, **self.params)


def coded(cls: type, code: str, **params: Any) -> CardtableError:
    """An error `cls` (ConfigError, RecordError) worded by the catalog's `err.<code>`: its
    English text is that message, `words(lang)` the message in another language."""
    from cardtable.i18n import t

    return cls(t("en", "err." + code, **params), code=code, params=params)


class IllegalDecision(CardtableError):
    """A decision that is not legal in the current state. The state is left unchanged.

    `decision` is the text that was refused; `code` a stable name of the refusal and `params`
    its values (plain numbers and strings): together they are the message `err.<code>` of the
    catalog (cardtable.i18n), which a front end words in the player's language. `reason` is the
    one-line English explanation (the catalog's English message, or the text given).

        raise IllegalDecision(text, code="ab.deck_empty")
        raise IllegalDecision(text, code="ko.no_seat", params={"seat": 7, "max": 3})
    """

    def __init__(self, decision: str, reason: str | None = None, *, code: str | None = None,
                 params: dict[str, Any] | None = None):
        self.decision = decision
        self.code = code or "illegal"
        self.params = dict(params or {})
        self._reason = reason
        super().__init__(decision)

    @property
    def reason(self) -> str:
        if self._reason is None:                 # formatted on demand: refusals are frequent
            from cardtable.i18n import t

            self._reason = t("en", "err." + self.code, **self.params)
        return self._reason

    def words(self, lang: str) -> str:
        """The refusal in `lang` (a free-text reason without a code: that text)."""
        if self.code == "illegal" and self._reason is not None and lang == "en":
            return self._reason
        from cardtable.i18n import t

        return t(lang, "err." + self.code, **self.params)

    def __str__(self) -> str:
        return f"illegal decision {self.decision!r}: {self.reason}"


def refuse(decision: str, code: str, **params: Any) -> IllegalDecision:
    """The IllegalDecision `code` with `params` (raise it)."""
    return IllegalDecision(decision, code=code, params=params)


class ConfigError(CardtableError):
    """Bad game configuration: unknown variant or option, player count out of range, bad seat.
    Some carry a `code` and `params` (`coded`), the others an English text."""


class SeatError(CardtableError, ValueError):
    """A seat number that is not in the game (`view(5)` in a 4-player game). Also a ValueError,
    as it was before it joined the family."""


def check_seat(seat: object, players: int) -> int:
    """`seat` if it is a seat of a `players`-player game (0 .. players-1), else SeatError."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SeatError(f"no seat {seat!r} in a {players}-player game (seats are 0 to "
                        f"{players - 1})")
    return seat


class RecordError(CardtableError):
    """A malformed game record or an impossible deal. Some carry a `code` and `params` (the
    catalog's message `err.<code>`, worded by `words(lang)`); the others an English text."""


class RulesVersionError(RecordError, ConfigError):
    """Rules of a version this cardtable does not know (`registry.check_rules_version`): a
    RecordError for `load_record`, a ConfigError for an engine's `new_game`."""
