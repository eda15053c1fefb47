# cardtable — every target sets itself up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# `make run`/`play` install what running needs (the package); `make test` adds the test extras
# (pytest, Playwright, Ray...): TEST_EXTRAS names them.
TEST_EXTRAS := dev
STAMP  := $(VENV)/.installed-run
DSTAMP := $(VENV)/.installed-test
BVENV  := .venv-bench
BPY    := $(BVENV)/bin/python
BSTAMP := $(BVENV)/.installed
TVENV  := .venv-train
TPY    := $(TVENV)/bin/python
TSTAMP := $(TVENV)/.installed
ARGS   ?=

.PHONY: run play test test-full test-batch-full test-train bench bench-batch bench-bots bench-server bench-review bench-review-accuracy train train-learned train-strong setup clean

# The game server with an embedded SQLite file (./cardtable.db); it prints its address.
run: $(STAMP)
	$(VENV)/bin/cardtable serve $(ARGS)

# A game in the terminal (ARGS="kombio --players 3", ...).
play: $(STAMP)
	$(VENV)/bin/cardtable play $(or $(ARGS),abluxxen)

# Four workers on two cores (the browser tests wait on Chromium and the server most of their
# time: three workers kept the two cores about 70% busy), each test module on one worker
# (--dist loadscope): a module's server, started once per module, is not started again on the
# other workers.
XDIST ?= -n 4 --dist loadscope --no-loadscope-reorder
# The project's own modules compiled to .pyc before the tests (only what changed since): where
# PYTHONDONTWRITEBYTECODE is set, every test worker and every server or terminal process a test
# starts would compile them from source again (a server's start: 7.1 CPU s without, 2.8 with).
COMPILE = $(PY) -m compileall -q -j 0 src tests examples > /dev/null

# The suite to run often (11 minutes on a quiet 2-core machine from a fresh clone, 17 beside two
# busy CPU hogs): every test, the long runs at a sample
# size (tests/sizes.py: the property test's seeded games, the batched simulators' differential
# games; the browser matrices one cell per row; each server test on one of the two databases;
# the slower siblings of a journey in tests/sizes.py's LEFT_TO_FULL), the tests marked `full`
# deselected. The slowest folders run first, the browser tests last
# (tests/sizes.py, SLOW_FIRST).
test: $(DSTAMP)
	$(COMPILE)
	$(PY) -m pytest $(XDIST) $(ARGS)

# Every test at its full size (CARDTABLE_FULL=1), the tests marked `full` and all that `make
# test` samples included (34 minutes on a quiet 2-core machine). CI runs both.
test-full: $(DSTAMP)
	$(COMPILE)
	CARDTABLE_FULL=1 $(PY) -m pytest $(XDIST) $(ARGS)

# Everything, tests included (the helpers' and CI's environment).
setup: $(DSTAMP)

# requirements.lock: the run-time dependencies pinned to the versions in .venv (scripts/lock.py;
# a deployment installs them with `pip install -r requirements.lock`, docs/deploy.md).
.PHONY: lock
lock: $(STAMP)
	$(PY) scripts/lock.py > requirements.lock.new
	mv requirements.lock.new requirements.lock

# The environment's packages are installed by uv (Astral's installer, itself a wheel: it
# downloads and unpacks in parallel, 9 CPU s for the server's packages where pip took 52);
# where uv cannot be installed or fails, pip makes the same install.
UV := $(VENV)/bin/uv
# --compile-bytecode as pip does: where PYTHONDONTWRITEBYTECODE is set, a library without its
# .pyc files would be compiled again by every process that imports it.
install = $(UV) pip install --quiet --compile-bytecode --python $(PY) -e '.[$(1)]' || $(PY) -m pip install --quiet -e '.[$(1)]'

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet uv || true
	$(call install,server)
	touch $(STAMP)

$(DSTAMP): $(STAMP)
	$(call install,$(TEST_EXTRAS))
	touch $(DSTAMP)

# Benchmark: cardtable vs RLCard UNO, in a separate environment so RLCard never enters the app's;
# then the batched simulator beside the AEC layer and OpenSpiel's C++ (bench-batch).
bench: $(BSTAMP)
	$(BPY) bench/bench_engine.py $(ARGS)
	$(BPY) bench/bench_batch.py $(ARGS)

# The batched simulator alone (bench/bench_batch.py): agent steps/s with observations and masks,
# random playouts vs OpenSpiel's C++ crazy_eights, one core and 2 processes.
bench-batch: $(BSTAMP)
	$(BPY) bench/bench_batch.py $(ARGS)

# The batched simulator's longest differential test: 10,000 seeded games through the engine and
# the simulator (`make test` replays 60, `make test-full` 500; tests/rl/test_batch_abluxxen.py);
# Kombio: 2,000 per player count 2-6 (20 and 100 each; tests/rl/test_batch_kombio.py).
test-batch-full: $(DSTAMP)
	CARDTABLE_BATCH_GAMES=$(or $(GAMES),10000) $(PY) -m pytest -n 0 -rA tests/rl/test_batch_abluxxen.py -k matches_engine
	CARDTABLE_KOMBIO_BATCH_GAMES=$(or $(KGAMES),2000) $(PY) -m pytest -n 0 -rA tests/rl/test_batch_kombio.py -k matches_engine

# Bot strength: duplicate-deal tournaments; writes docs/strength.md (see bench/bench_bots.py).
bench-bots: $(DSTAMP)
	$(PY) bench/bench_bots.py $(ARGS)

# Server load: concurrent bot tables through real WebSocket clients (SQLite and PostgreSQL).
bench-server: $(DSTAMP)
	$(PY) bench/bench_server.py $(ARGS)

# The review's CPU time per game on one core, with the per-decision budget (docs/review.md).
bench-review: $(STAMP)
	$(PY) bench/bench_review.py $(ARGS)

# The review's strength check: games of the levels given, mean accuracy per level and paired
# differences with 95% intervals (ARGS="--game kombio --games 25 --levels
# expert,hard,medium,medium"; docs/review.md).
bench-review-accuracy: $(STAMP)
	$(PY) bench/bench_review.py --accuracy $(ARGS)

$(BSTAMP): pyproject.toml
	test -x $(BPY) || $(PYTHON) -m venv $(BVENV)
	$(BPY) -m pip install --quiet --upgrade pip
	$(BPY) -m pip install --quiet -e '.[rl,ray]' rlcard
	touch $(BSTAMP)

# Train a MaskablePPO agent for Abluxxen (at most 15 minutes of CPU; see docs/training.md),
# in its own environment with torch (CPU) and sb3-contrib.
train: $(TSTAMP)
	nice -n 10 $(TPY) -m cardtable.rl.train $(ARGS)

# Train the bot `learned`: DAgger imitation of the heuristic bot (at most 10 minutes of CPU by
# default; see docs/training.md), at the lowest priority beside other work.
train-learned: $(TSTAMP)
	nice -n 19 $(TPY) -m cardtable.rl.imitate $(ARGS)

# Train the bot `learned` above the medium level within one CPU hour (docs/training.md): the
# 10 minutes of imitation of make train-learned, then 50 of PPO against the medium level on the
# batched simulator (rl/finetune.py); writes the game's policy file of `learned` and the curves.
train-strong: $(TSTAMP)
	mkdir -p out/train-strong
	nice -n 19 $(TPY) -m cardtable.rl.imitate --cpu-minutes 10 --seed 1 \
		--out out/train-strong/imitation.npz --curve out/train-strong/imitation-curve.png \
		--log out/train-strong/imitation-log.json
	nice -n 19 $(TPY) -m cardtable.rl.finetune --init out/train-strong/imitation.npz \
		--cpu-minutes 50 --seed 1 $(ARGS)

# The training runs end to end with a tiny budget (they need torch: the train environment).
test-train: $(TSTAMP)
	$(TPY) -m pip install --quiet pytest
	PYTHONPATH=src $(TPY) -m pytest -p no:cacheprovider -q tests_train $(ARGS)

$(TSTAMP): pyproject.toml
	test -x $(TPY) || $(PYTHON) -m venv $(TVENV)
	$(TPY) -m pip install --quiet --upgrade pip
	$(TPY) -m pip install --quiet -e '.[train]'
	touch $(TSTAMP)

clean:
	rm -rf $(VENV) $(BVENV) $(TVENV) .pytest_cache .hypothesis
