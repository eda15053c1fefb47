"""OpenSpiel games (issue 16): registered by `import cardtable.rl.openspiel`; OpenSpiel's random
simulation test, games that replay from their history (the one chance node), perfect-recall
information states, and OpenSpiel's own ISMCTS and MCTS bots playing both games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardtable.rl.openspiel  # noqa: E402,F401  (registers the games)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from sizes import sample  # noqa: E402

GAMES = [
    ("python_cardtable_abluxxen", {"variant": "basic", "players": 3}),
    ("python_cardtable_abluxxen", {"variant": "duel", "players": 2,
                                   "options": "shadow_partial=true"}),
    ("python_cardtable_abluxxen", {"variant": "duel", "players": 2,
                                   "options": "shadow_partial:false", "reward": "score"}),
    ("python_cardtable_abluxxen", {"variant": "classic", "players": 2, "reward": "score"}),
    ("python_cardtable_kombio", {"players": 2, "target": 40}),
    ("python_cardtable_kombio", {"players": 5, "target": 40, "reward": "score"}),
]


@pytest.mark.parametrize("name,params", GAMES)
def test_random_simulation(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("options", ["shadow_partial=true", "shadow_partial=false",
                                     "shadow_partial:true", "shadow_partial:false"])
def test_options_survive_every_round_trip(options):
    """Issue 35: rule options (the documented "NAME=true" and the canonical "NAME:true") go
    through the game's string, pickling and OpenSpiel's serialization unchanged."""
    game = pyspiel.load_game("python_cardtable_abluxxen",
                             {"variant": "duel", "players": 2, "options": options})
    want = options.endswith("true")
    assert game.get_parameters()["options"] == f"shadow_partial:{str(want).lower()}"
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert cardtable.rl.openspiel.setup_of(again).config.options == (("shadow_partial", want),)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    state.apply_action(7)
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


@pytest.mark.parametrize("name", ["python_cardtable_abluxxen", "python_cardtable_kombio"])
def test_game_type_is_consistent(name):
    """Issue 35: the registered type and every loaded game agree; constant-sum exactly when
    the game has a utility sum (reward "win", the default), general-sum for "score"."""
    registered = {t.short_name: t for t in pyspiel.registered_games()}[name]
    U = pyspiel.GameType.Utility
    default = pyspiel.load_game(name)
    assert registered.utility == default.get_type().utility == U.CONSTANT_SUM
    assert default.utility_sum() == 1.0
    score = pyspiel.load_game(name, {"reward": "score"})
    assert score.get_type().utility == U.GENERAL_SUM and score.utility_sum() is None
    for g in (default, score):
        again = pyspiel.load_game(str(g))
        assert again.get_type().utility == g.get_type().utility


@pytest.mark.parametrize("name,params", GAMES[:2] + GAMES[3:4])
def test_games_replay_from_their_history(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == game.max_chance_outcomes() and \
        abs(sum(p for _, p in outcomes) - 1) < 1e-12
    state.apply_action(int(rng.randint(game.max_chance_outcomes())))
    for _ in range(80):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)
    other = game.new_initial_state()
    other.apply_action(state.history()[0] + 1)
    assert str(other) != str(game.new_initial_state().child(state.history()[0]))


def test_information_state_has_perfect_recall():
    """Two different histories that end in the same observation keep apart in the
    information state string; a clone keeps it."""
    game = pyspiel.load_game("python_cardtable_abluxxen", {"variant": "basic", "players": 3})
    state = game.new_initial_state()
    state.apply_action(0)
    s0 = state.information_state_string(1)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    assert clone.information_state_string(1) == state.information_state_string(1) != s0
    assert state.observation_string(1) in state.information_state_string(1)
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()


def test_observations_ignore_the_deal_number():
    """Chance's outcome is hidden: a resampled state looks the same to the seat."""
    game = pyspiel.load_game("python_cardtable_kombio", {"players": 3, "target": 40})
    state = game.new_initial_state()
    state.apply_action(17)
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    assert p >= 0
    sampled = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
    assert sampled.information_state_string(p) == state.information_state_string(p)
    assert sampled.observation_tensor(p) == state.observation_tensor(p)
    assert sampled.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name,params", [GAMES[1], GAMES[3]])
def test_openspiel_bots_play(name, params):
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng),
            mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator,
                         random_state=rng)]
    state = game.new_initial_state()
    state.apply_action(99)
    for turn in range(12):
        if state.is_terminal():
            break
        bot = bots[turn % 2]
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.history()) > 5


def test_bad_parameters():
    with pytest.raises(Exception, match="variant"):
        pyspiel.load_game("python_cardtable_abluxxen", {"variant": "nope"})
    with pytest.raises(Exception, match="options"):
        pyspiel.load_game("python_cardtable_abluxxen", {"options": "shadow_partial"})


def test_random_simulation_every_configuration(config):
    """OpenSpiel's random simulation test with serialization on every configuration of the
    other front ends (issue 35: rule options included, in the canonical text)."""
    params = {"players": config["players"]}
    if config["game"] == "abluxxen":
        params["variant"] = config["variant"]
        if config.get("options"):
            params["options"] = cardtable.rl.openspiel.options_text(config["options"])
    else:
        params["target"] = config["target"]
    game = pyspiel.load_game(f"python_cardtable_{config['game']}", params)
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _tensors_by_information_state(name, params, deals=2, games=sample(25, 10), seed=5):
    """Random games from a few deals (so that histories meet): for every seat at every state,
    its information state string -> the set of its tensors (information state, observation)."""
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(seed)
    info: dict = {}
    for g in range(games):
        state = game.new_initial_state()
        state.apply_action(g % deals)
        while not state.is_terminal():
            for p in range(game.num_players()):
                key = (p, state.information_state_string(p))
                info.setdefault(key, set()).add(
                    (bytes(np.asarray(state.information_state_tensor(p), np.float32)),
                     bytes(np.asarray(state.observation_tensor(p), np.float32))))
            state.apply_action(rng.choice(state.legal_actions()))
    return game, info


@pytest.mark.parametrize("name,params,obs_meet", [
    ("python_cardtable_abluxxen", {"variant": "basic", "players": 3}, True),
    ("python_cardtable_abluxxen", {"variant": "duel", "players": 2}, False),
    ("python_cardtable_kombio", {"players": 3, "target": 30}, True),
])
def test_information_state_tensor_has_perfect_recall(name, params, obs_meet):
    """Issue 35: two different information states never share an information-state tensor on
    sampled games, and one information state always has the same tensor, although many of
    them share their observation tensor (so the observation alone would not do)."""
    game, info = _tensors_by_information_state(name, params)
    assert game.information_state_tensor_size() > game.observation_tensor_size()
    owner: dict = {}
    for key, tensors in info.items():
        assert len({t for t, _ in tensors}) == 1, f"one information state, two tensors: {key}"
        tensor = next(iter(tensors))[0]
        assert owner.setdefault(tensor, key) == key, "two information states share a tensor"
    shared_obs = len(info) - len({o for ts in info.values() for _, o in ts})
    if obs_meet:                 # the sample has states that only the recall separates
        assert shared_obs > 0


def test_information_state_tensor_holds_the_recent_history():
    """The tensor's history part is the last player actions, newest first: the actor counted
    from the observing seat (one-hot) and the action id in binary."""
    from cardtable.rl.openspiel import HISTORY
    game = pyspiel.load_game("python_cardtable_kombio", {"players": 3, "target": 100})
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = np.random.RandomState(1)
    deal = 0
    while True:                       # a deal whose random game lasts past the window
        state = game.new_initial_state()
        state.apply_action(deal)
        for _ in range(HISTORY + 9):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            break
        deal += 1
    moves = [(pa.player, pa.action) for pa in state.full_history()[1:]][::-1][:HISTORY]
    viewer = 2
    observer.set_from(state, viewer)
    hist = observer.dict["history"]
    assert hist.shape[0] == HISTORY and len(moves) == HISTORY
    n = game.num_players()
    for row, (actor, action) in zip(hist, moves):
        assert list(row[:n]).index(1.0) == (actor - viewer) % n
        assert sum(int(b) << i for i, b in enumerate(row[n:])) == action
    assert np.array_equal(observer.dict["observation"], state.observation_tensor(viewer))
    assert np.array_equal(observer.tensor, state.information_state_tensor(viewer))


def test_max_length_cuts_a_game():
    """Issue 35: max_game_length is the documented bound `max_length`; a game that reaches it
    is terminal: a draw with the constant-sum reward "win", and with "score" every seat gets the
    worst reward a finished game can give (Kombio: minus (target + 500)), so stalling never
    pays."""
    from cardtable.rl.openspiel import MAX_LENGTH
    assert pyspiel.load_game("python_cardtable_abluxxen").max_game_length() == MAX_LENGTH
    for reward, share in (("win", 1 / 3), ("score", -600.0)):
        game = pyspiel.load_game("python_cardtable_kombio",
                                 {"players": 3, "max_length": 9, "reward": reward})
        assert game.max_game_length() == 9
        state = game.new_initial_state()
        state.apply_action(1)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert len(state.history()) == 1 + 9
        assert state.returns() == [share] * 3
        assert state.legal_actions() == [] and state.current_player() == pyspiel.PlayerId.TERMINAL
    with pytest.raises(Exception, match="max_length"):
        pyspiel.load_game("python_cardtable_kombio", {"max_length": 0})


def test_the_former_du6_reading_is_a_parameter():  # DU-6
    """`shadow_blocks_draw` reaches the engine from OpenSpiel's parameters, beside another
    option, in the canonical text."""
    game = pyspiel.load_game("python_cardtable_abluxxen", {
        "variant": "duel", "players": 2, "options": "shadow_blocks_draw:true;shadow_partial:true"})
    config = cardtable.rl.openspiel.setup_of(game).config
    assert dict(config.options) == {"shadow_blocks_draw": True, "shadow_partial": True}
    assert config.new_state(0).rules.shadow_blocks_draw
    assert str(pyspiel.load_game(str(game))) == str(game)
