# cardtable — every target sets itself up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# `make run`/`play` install what running needs (the package); `make test` adds the test extras
# (pytest, Playwright, Ray...): TEST_EXTRAS names them.
TEST_EXTRAS := dev
STAMP  := $(VENV)/.installed-run
TSTAMP := $(VENV)/.installed-test
BVENV  := .venv-bench
BPY    := $(BVENV)/bin/python
BSTAMP := $(BVENV)/.installed
ARGS   ?=

.PHONY: run play test bench bench-bots bench-server setup clean

# The game server with an embedded SQLite file (./cardtable.db); it prints its address.
run: $(STAMP)
	$(VENV)/bin/cardtable serve $(ARGS)

# A game in the terminal (ARGS="kombio --players 3", ...).
play: $(STAMP)
	$(VENV)/bin/cardtable play $(or $(ARGS),abluxxen)

test: $(TSTAMP)
	$(PY) -m pytest -n 2 $(ARGS)

# Everything, tests included (the helpers' and CI's environment).
setup: $(TSTAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $(STAMP)

$(TSTAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[$(TEST_EXTRAS)]'
	touch $(TSTAMP)

# Benchmark: cardtable vs RLCard UNO, in a separate environment so RLCard never enters the app's.
bench: $(BSTAMP)
	$(BPY) bench/bench_engine.py $(ARGS)

# Bot strength: duplicate-deal tournaments; writes docs/strength.md (see bench/bench_bots.py).
bench-bots: $(TSTAMP)
	$(PY) bench/bench_bots.py $(ARGS)

# Server load: concurrent bot tables through real WebSocket clients (SQLite and PostgreSQL).
bench-server: $(TSTAMP)
	$(PY) bench/bench_server.py $(ARGS)

$(BSTAMP): pyproject.toml
	test -x $(BPY) || $(PYTHON) -m venv $(BVENV)
	$(BPY) -m pip install --quiet --upgrade pip
	$(BPY) -m pip install --quiet -e . rlcard
	touch $(BSTAMP)

clean:
	rm -rf $(VENV) $(BVENV) .pytest_cache .hypothesis
