"""The test tree mirrors `src/cardtable/` (tests/core, tests/bots, tests/server, ...); the files
left here test the project as a whole (the house plan, the Makefile, the README).

This file's folder is on `sys.path` (pytest's rootdir-relative import of conftest files), so a
test anywhere may import the shared helpers kept here: `random_games` and the toy games."""
