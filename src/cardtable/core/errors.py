"""Errors every game raises. User errors are CardtableError subclasses: front ends print
their message (never a traceback) and exit with status 2."""


class CardtableError(Exception):
    """Base class of every error caused by input (a decision, a record, an option)."""


class IllegalDecision(CardtableError):
    """A decision that is not legal in the current state. The state is left unchanged.

    `decision` is the text that was refused, `reason` a one-line explanation."""

    def __init__(self, decision: str, reason: str):
        self.decision = decision
        self.reason = reason
        super().__init__(f"illegal decision {decision!r}: {reason}")


class ConfigError(CardtableError):
    """Bad game configuration: unknown variant or option, player count out of range, bad seat."""


class RecordError(CardtableError):
    """A malformed game record or an impossible deal."""
