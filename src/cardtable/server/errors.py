"""The errors of the HTTP API (docs/protocol.md, "Errors"): `{"detail", "error", "params"}`."""

from __future__ import annotations

from fastapi import HTTPException


class ApiError(HTTPException):
    """An error of the HTTP API: `detail` in English for API users, `error` a stable code
    and `params` its placeholders, so a client words it in its player's language (the
    browser: catalog key `err.api.<error>`; docs/protocol.md, "Errors")."""

    def __init__(self, status: int, detail: str, error: str, params: dict | None = None,
                 headers: dict | None = None):
        super().__init__(status_code=status, detail=detail, headers=headers)
        self.error = error
        self.params = params or {}


def bad(msg: str, status: int = 422, error: str = "invalid", **params) -> ApiError:
    return ApiError(status, msg, error, params)
