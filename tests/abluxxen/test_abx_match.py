"""CL-5: a classic match: several games, the start seat moving one seat clockwise each game,
scores summed, the highest total winning."""

from __future__ import annotations

import pytest

from abx_helpers import finish_randomly
from cardtable import ConfigError
from cardtable.abluxxen.match import Match


def play_match(m):
    starts = []
    while True:
        g = m.current
        assert not g.over
        starts.append(g.to_move)
        assert g.view(None)["active"] == g.to_move
        assert m.winners() is None and not m.over
        finish_randomly(g)
        if m.over:
            return starts
        m.next_game()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_match_everybody_starts_once(players):  # CL-5 CL-1
    m = Match(players=players, seed=7)
    starts = play_match(m)
    assert starts == list(range(players))            # one seat clockwise each game
    assert len(m.games) == players and m.over
    assert all(g.variant == "classic" for g in m.games)


def test_match_totals_and_winners():  # CL-5 CL-4
    m = Match(players=3, seed=11)
    play_match(m)
    table = m.score_table()
    assert len(table) == 3 and table == [g.scores() for g in m.games]
    totals = [sum(row[s] for row in table) for s in range(3)]
    assert m.totals == totals
    best = max(totals)
    assert m.winners() == [s for s in range(3) if totals[s] == best]   # ties: all win


def test_match_number_of_rounds_may_be_set_to_a_multiple():  # CL-5
    m = Match(players=2, rounds=4, seed=1, start=1)
    starts = play_match(m)
    assert starts == [1, 0, 1, 0]                    # everybody starts twice
    assert len(m.score_table()) == 4
    m = Match(players=3, rounds=6, seed=2)
    assert play_match(m) == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("players,rounds", [(2, 5), (3, 4), (3, 2), (4, 6), (5, 1), (3, 0),
                                            (2, -2), (2, True), (2, "4"), (2, 4.0)])
def test_match_refuses_a_count_that_is_not_a_multiple(players, rounds, monkeypatch):  # CL-5
    """The match ends once every player has started (once or several times each): any other
    number of games is refused, with the rule named, before anything is dealt."""
    dealt = []
    monkeypatch.setattr("cardtable.abluxxen.match.new_game",
                        lambda *a, **k: dealt.append(1))
    with pytest.raises(ConfigError, match=rf"multiple of {players}.*CL-5"):
        Match(players=players, rounds=rounds)
    assert dealt == []


def test_match_tied_totals_all_win():  # CL-5 CL-4
    m = Match(players=3, seed=20)
    play_match(m)
    totals = m.totals
    best = max(totals)
    tied = [s for s in range(3) if totals[s] == best]
    assert len(tied) == 2, f"the pinned deal no longer ties: {totals}"
    assert m.winners() == tied


def test_match_start_seat_parameter():  # CL-5 CL-1
    m = Match(players=4, seed=2, start=2)
    assert play_match(m) == [2, 3, 0, 1]


def test_match_order_of_games_enforced():  # CL-5
    m = Match(players=3, seed=4)
    with pytest.raises(ConfigError):
        m.next_game()                       # the current game is not over
    play_match(m)
    with pytest.raises(ConfigError):
        m.next_game()                       # the match is over
    with pytest.raises(ConfigError, match="CL-5"):
        Match(players=3, rounds=0)


def test_match_totals_running():  # CL-5
    m = Match(players=3, seed=9)
    assert m.totals == [0, 0, 0]
    finish_randomly(m.current)
    assert m.totals == m.current.scores()
    m.next_game()
    assert m.totals == m.games[0].scores()
