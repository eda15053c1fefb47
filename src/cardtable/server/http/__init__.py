"""The HTTP API, one FastAPI router a feature; app.py includes them."""
