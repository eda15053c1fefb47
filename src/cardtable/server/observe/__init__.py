"""Seeing the server at work: its Prometheus metrics (`metrics.py`: one registry per app,
counted where things happen and read at each scrape), its log lines (`logs.py`: one line a
record, text or JSON, with the request's and the table's id, no table code or token), and
the access log with the request id and the open connections (`access.py`, an ASGI
middleware). docs/deploy.md, "Seeing it: metrics, logs, health"."""
