"""`/api/replay`: the views of a finished game's record, step by step (the replay viewer)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
