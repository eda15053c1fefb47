"""The WebSocket endpoint `/ws/{code}` (endpoint.py)."""
