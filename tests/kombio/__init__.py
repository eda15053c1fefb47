"""Kombio tests (a package, so test module names cannot clash with other games' tests)."""
