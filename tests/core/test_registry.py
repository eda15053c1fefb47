"""Issue 30: each game declares itself once (core/registry.py); the declaration agrees with
what its engine does, so the parts of the house that read it may trust it."""

from __future__ import annotations

import pytest

from cardtable.core.errors import ConfigError
from cardtable.core.record import GAMES, game_module, new_game
from cardtable.core.registry import GameInfo, games, info, names


def test_the_built_in_games_in_order():
    assert names()[:2] == ("abluxxen", "kombio")
    assert dict(GAMES) == {g.name: g.engine for g in games()}     # the server's old view
    assert all(isinstance(g, GameInfo) and game_module(g.name).GAME is g for g in games())


def test_an_unknown_game_is_a_config_error():
    with pytest.raises(ConfigError, match=r"unknown game 'chess' \(known: abluxxen, (.+, )?kombio"):
        info("chess")


@pytest.mark.parametrize("game,variant", [(g.name, v.name) for g in games() for v in g.variants])
def test_players_and_options_as_the_engine_has_them(game, variant):
    decl = info(game)
    v = decl.variant(variant)
    for n in (v.min_players, v.max_players, v.default_players):
        new_game(game, variant=variant, players=n, seed=1)
    for n in (v.min_players - 1, v.max_players + 1):
        with pytest.raises(ConfigError):
            new_game(game, variant=variant, players=n, seed=1)
    rec = new_game(game, variant=variant, seed=1).record()
    assert rec["players"] == v.default_players
    assert rec["rules_version"] == decl.rules_version and decl.rules_version in decl.rules_versions
    assert rec.get("options", {}) == decl.option_defaults(variant)
    for o in decl.options_of(variant):
        assert o.doc and isinstance(decl.option_defaults(variant)[o.name], (o.type, type(None)))


def test_score_sense_and_modules():
    assert info("kombio").lower_is_better and not info("abluxxen").lower_is_better
    for g in games():
        if not g.engine.startswith("cardtable."):     # a plugin has what it chooses to have
            continue
        for kind in ("ui", "heuristics", "analytics"):
            assert g.module(kind) is not None, (g.name, kind)
        assert g.load("codec") is not None


def test_kombio_rules_object():
    from cardtable.kombio.rules import Rules, make_rules

    assert make_rules() == Rules(target=100, max_turns=None)
    assert make_rules(40, {"max_turns": 9}).options() == {"max_turns": 9}
    assert info("kombio").setting("target").default == Rules().target
    with pytest.raises(ConfigError, match="unknown Kombio option 'turns'"):
        make_rules(100, {"turns": 3})
    with pytest.raises(ConfigError, match="the target must be at least 1"):
        make_rules(0)


@pytest.mark.parametrize("decl", games(), ids=lambda g: g.name)
def test_one_check_of_the_rules_version_for_records_and_new_games(decl):
    """NOTATION.md `rules_version` is checked in one place (`registry.check_rules_version`):
    an engine's new_game refuses an unknown version with the same error as load_record (the
    catalog's err.record.rules_version, a RecordError and a ConfigError)."""
    from cardtable.core.errors import ConfigError, RecordError
    from cardtable.core.record import load_record, new_game

    rec = new_game(decl.name, seed=2).record()
    with pytest.raises(RecordError) as by_record:
        load_record(dict(rec, rules_version="2099-01-01"))
    with pytest.raises(ConfigError) as by_engine:
        new_game(decl.name, seed=2, rules_version="2099-01-01")
    for e in (by_record.value, by_engine.value):
        assert isinstance(e, RecordError) and isinstance(e, ConfigError)
        assert e.code == "record.rules_version" and e.params["version"] == "2099-01-01"
        assert "Regeln" in e.words("de")
    assert str(by_engine.value) == str(by_record.value)
    with pytest.raises(ConfigError, match="must be a text"):
        new_game(decl.name, seed=2, rules_version=20261126)
    assert new_game(decl.name, seed=2, rules_version=decl.rules_version).record() == rec


# -- games found as plugins (the entry-point group cardtable.games) ---------------------------
@pytest.fixture
def fresh_registry(monkeypatch):
    """The registry as before its first look, restored afterwards (the games registered
    meanwhile are dropped)."""
    from cardtable.core import registry

    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", False)
    return registry


def _entry_points(monkeypatch, *points):
    """importlib.metadata as if these (name, value) entry points of cardtable.games were
    installed."""
    from importlib import metadata

    eps = metadata.EntryPoints(metadata.EntryPoint(name, value, "cardtable.games")
                               for name, value in points)
    monkeypatch.setattr(metadata, "entry_points",
                        lambda group=None, **kw: eps if group == "cardtable.games" else
                        metadata.EntryPoints(()))


def test_a_game_is_found_through_its_entry_point(fresh_registry, monkeypatch):
    """A game installed in the group (here the toy, tests/toygame) is registered after the
    built-ins, which register through the same group, in BUILTIN's order."""
    _entry_points(monkeypatch, ("twocard", "toygame:GAME"), ("kombio", "cardtable.kombio:GAME"),
                  ("abluxxen", "cardtable.abluxxen:GAME"))
    import toygame

    assert fresh_registry.names() == ("abluxxen", "kombio", "twocard")
    assert fresh_registry.info("twocard") is toygame.GAME
    from cardtable.i18n import t

    assert t("de", "game.twocard") == "Twocard"          # its name in the lobby: its title


def test_without_installed_metadata_the_built_in_games_are_found(fresh_registry, monkeypatch):
    """A source tree run without an install (PYTHONPATH=src): no entry point at all, the
    built-in games all the same."""
    _entry_points(monkeypatch)
    assert fresh_registry.names() == ("abluxxen", "kombio")


@pytest.mark.parametrize("value,why", [("no_such_package_xyz:GAME", "ModuleNotFoundError"),
                                       ("toygame:NAME", "must name a GameInfo"),
                                       ("cardtable.kombio:GAME", "must name a GameInfo")])
def test_a_broken_plugin_is_left_out_with_a_warning(fresh_registry, monkeypatch, value, why):
    """A plugin that does not load, or names something else than its game, does not stop the
    house: it is left out, and a warning says which and why."""
    _entry_points(monkeypatch, ("broken", value))
    with pytest.warns(UserWarning, match=f"the game 'broken' .* is not loaded: .*{why}"):
        assert fresh_registry.names() == ("abluxxen", "kombio")


def test_a_game_registered_at_run_time_stays_through_discovery(fresh_registry, monkeypatch):
    import toygame

    _entry_points(monkeypatch)
    fresh_registry.register(toygame.GAME)
    assert fresh_registry.discover()[-1] is toygame.GAME
