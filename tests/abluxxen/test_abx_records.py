"""Records name every rule option they were played with, so that a record replays the same
whatever the defaults of a later version are; a duel record that names no `shadow_partial`
gets today's default (on, DU-4), and one made under the former default that fails for that
reason says how to replay it. A record of the rules version before DU-6's revision (2026-11-26)
that does not name `shadow_blocks_draw` replays with the former reading and says so."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from abx_helpers import game, only_fives_twice
from cardtable.abluxxen import RULES_VERSION, SHADOW_PARTIAL_SINCE
from cardtable.abluxxen import rules as R
from cardtable.core import load_record
from cardtable.core.record import ReplayError, replay_notes

ALL = {"optional_draw", "ones_beat_top", "tiebreak_fewer_hand"}


@pytest.mark.parametrize("variant,players", [("basic", 4), ("advanced", 3), ("expert", 5),
                                             ("duel", 2), ("classic", 2)])
def test_record_names_every_rule_option(variant, players):
    s = game(variant, players, seed=1)
    opts = s.record()["options"]
    assert set(opts) == (ALL | {"shadow_partial", "shadow_blocks_draw"} if variant == "duel"
                         else ALL)
    assert opts == {o: getattr(R.VARIANTS[variant], o) for o in opts}
    assert s.view(None)["options"] == opts            # the view says the same (public)
    # options given are written as they were played
    t = game(variant, players, seed=1, options={"optional_draw": False})
    assert t.record()["options"]["optional_draw"] is False


def test_a_record_replays_the_same_under_other_defaults(monkeypatch):  # DU-4
    s = only_fives_twice()
    for d in ("play 7 7", "shadow 5"):
        s.apply(d)
    rec = json.loads(json.dumps(s.record()))
    whole = replace(R.VARIANTS["duel"], shadow_partial=False)
    monkeypatch.setitem(R.VARIANTS, "duel", whole)          # a later version's other default
    assert load_record(rec).view(None) == s.view(None)
    # without its options the same record now reads differently: they are what keeps it
    bare = {k: v for k, v in rec.items() if k != "options"}
    with pytest.raises(ReplayError):
        load_record(bare)


def test_a_record_without_shadow_partial_gets_the_current_default():  # DU-4
    s = only_fives_twice()
    s.apply("play 7 7")
    rec = {k: v for k, v in s.record().items() if k != "options"}
    again = load_record(rec)
    assert again.rules.shadow_partial and again.legal() == ["shadow 5"]


def test_old_duel_record_fails_with_a_hint_and_replays_with_the_option_off():  # DU-4 DU-6
    old = only_fives_twice({"shadow_partial": False})     # played as before 2026-11-24
    for d in ("play 7 7", "pass"):
        old.apply(d)
    rec = json.loads(json.dumps(old.record()))
    del rec["options"]                          # records of then named only changed options
    with pytest.raises(ReplayError) as e:
        load_record(rec)
    assert e.value.index == 1 and e.value.action == "pass"
    assert '"options": {"shadow_partial": false}' in e.value.reason
    assert SHADOW_PARTIAL_SINCE in e.value.reason and "DU-4" in e.value.reason
    rec["options"] = {"shadow_partial": False}
    assert load_record(rec).view(None) == old.view(None)


def test_no_hint_when_the_record_names_the_option_or_it_cannot_be_the_cause():
    s = only_fives_twice()
    s.apply("play 7 7")
    rec = s.record() | {"actions": ["play 7 7", "pass"]}       # names shadow_partial: true
    with pytest.raises(ReplayError) as e:
        load_record(rec)
    assert "shadow_partial" not in e.value.reason
    basic = game("basic", 4, seed=3).record() | {"actions": ["shadow 5"]}
    del basic["options"]
    with pytest.raises(ReplayError) as e:
        load_record(basic)
    assert "shadow_partial" not in e.value.reason


def _former_du6_game():
    """A duel played under DU-6's former reading: the shadowluxx withheld the draw, so the
    opponent played next."""
    s = only_fives_twice({"shadow_blocks_draw": True})
    for d in ("play 7 7", "shadow 5"):
        s.apply(d)
    s.apply(s.legal()[0])                       # seat 1's play: no draw came before it
    return s


def test_a_record_of_the_former_du6_replays_as_it_was_played_and_says_so():  # DU-6
    s = _former_du6_game()
    rec = json.loads(json.dumps(s.record()))
    rec["rules_version"] = "2026-11-26"           # as written then: the option did not exist
    del rec["options"]["shadow_blocks_draw"]
    again = load_record(rec)
    assert again.rules.shadow_blocks_draw and again.view(None) == s.view(None)
    assert replay_notes(rec) == [("ab.note.legacy.shadow_blocks_draw", {"version": "2026-11-26"})]
    # re-recorded, it names the option and the current version: it replays the same today
    assert again.record()["rules_version"] == RULES_VERSION
    assert load_record(again.record()).view(None) == s.view(None)


def test_a_current_record_reads_du6_as_revised():  # DU-6
    rec = json.loads(json.dumps(_former_du6_game().record()))
    del rec["options"]["shadow_blocks_draw"]      # today's default: the draw is offered
    assert rec["rules_version"] == RULES_VERSION and not replay_notes(rec)
    with pytest.raises(ReplayError) as e:
        load_record(rec)
    assert e.value.index == 2                     # seat 1 cannot play: seat 0 may still draw
    # an old version's record that names the option plays as it says, with no note
    named = dict(rec, rules_version="2026-11-26",
                 options=dict(rec["options"], shadow_blocks_draw=True))
    assert not replay_notes(named) and load_record(named).rules.shadow_blocks_draw


def test_old_version_records_of_other_variants_are_unchanged():  # DU-6
    rec = game("basic", 4, seed=3).record() | {"rules_version": "2026-11-26"}
    assert not replay_notes(rec)
    assert load_record(rec).view(None) == game("basic", 4, seed=3).view(None)
