"""ardsearch games registered with OpenSpiel: OpenSpiel's own checks and bots.

Skipped when OpenSpiel is not installed (pip install 'ardsearch[openspiel]').
Games are kept short (few rounds where a game has the parameter) so that
OpenSpiel's Python-side rollouts finish quickly."""
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ardsearch  # noqa: E402
from ardsearch.integrations import openspiel as ard_os  # noqa: E402

GAMES = ardsearch.list_games()


def short_params(name):
    """Parameters that make a quick game of `name` (a handful of rounds)."""
    names = {p.name for p in ardsearch.load_game(name).spec.params}
    return {"max_rounds": 3} if "max_rounds" in names else {}


@pytest.fixture(scope="module", autouse=True)
def registered():
    return ard_os.register()


def decision_state(game, seed=0):
    """The first state with a real choice (chance drawn, forced moves played)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) == 1:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_register_names_every_game_and_is_idempotent():
    names = ard_os.register()
    assert names == [f"ardsearch_{g}" for g in GAMES]
    assert ard_os.register() == names
    assert set(names) <= set(pyspiel.registered_names())


def test_unknown_game_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown game"):
        ard_os.register(["no_such_game"])


@pytest.mark.parametrize("name", GAMES)
def test_bad_parameters_are_clear_errors(name):
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'no_such_parameter'"):
        pyspiel.load_game(f"ardsearch_{name}(no_such_parameter=1)")
    spec = ardsearch.load_game(name).spec
    choice = next((p for p in spec.params if p.choices), None)
    if choice is not None:
        with pytest.raises(ValueError, match=choice.name):
            pyspiel.load_game(f"ardsearch_{name}({choice.name}=not_a_choice)")


@pytest.mark.parametrize("name", GAMES)
def test_game_type_matches_the_game(name):
    ard = ardsearch.load_game(name)
    game = pyspiel.load_game(f"ardsearch_{name}")
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == ard.has_chance
    assert (t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == \
        ard.hidden_information
    assert game.num_distinct_actions() == ard.num_actions
    assert game.num_players() == 2
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == ard.max_game_length
    assert tuple(game.observation_tensor_shape()) == tuple(ard.observation_shape)


@pytest.mark.parametrize("name", GAMES)
def test_parameters_round_trip_through_the_game_string(name):
    ard = ardsearch.load_game(name)
    game = pyspiel.load_game(f"ardsearch_{name}")
    assert game.ard_game.params == ard.params
    again = pyspiel.load_game(str(game))
    assert again.ard_game.params == ard.params
    short = ard_os.load_game(name, **short_params(name))
    assert short.ard_game.params == ardsearch.load_game(name, **short_params(name)).params


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_checks(name):
    """OpenSpiel's C++ random-simulation test: legal actions, chance
    probabilities, clone, serialization, observations, returns."""
    game = pyspiel.load_game(f"ardsearch_{name}")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_state_mirrors_the_ardsearch_state(name):
    game = pyspiel.load_game(f"ardsearch_{name}")
    ard = game.ard_game.new_initial_state(seed=0)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        if state.is_terminal():
            break
        assert state.current_player() == ard.current_player()
        if state.is_chance_node():
            assert state.chance_outcomes() == ard.chance_outcomes()
            action = ard.sample_chance()
        else:
            assert state.legal_actions() == ard.legal_actions()
            for p in (0, 1):
                assert state.observation_string(p) == ard.observation_string(p)
                np.testing.assert_array_equal(np.asarray(state.observation_tensor(p)),
                                              ard.observation_tensor(p).ravel())
            action = rng.choice(ard.legal_actions())
        assert state.action_to_string(action) == ard.action_to_string(action)
        state.apply_action(action)
        ard.apply_action(action)
    assert state.history() == ard.history()
    assert state.returns() == ard.returns()
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()


@pytest.mark.parametrize("name", [g for g in GAMES if ardsearch.load_game(g).hidden_information])
def test_information_state_is_the_masked_history_and_the_observation(name):
    game = pyspiel.load_game(f"ardsearch_{name}")
    state = game.new_initial_state()
    full = game.ard_game.new_initial_state(seed=0)
    rng = random.Random(4)
    hidden_seen = False
    for _ in range(120):
        if full.is_terminal():
            break
        for p in (0, 1):
            expected = f"p{p}: " + " ".join(full.masked_history(p)) + "\n" + \
                full.observation_string(p)
            assert state.information_state_string(p) == expected
        if any("?" in full.masked_history(p) for p in (0, 1)):
            hidden_seen = True  # something one side did not see: the two differ
            assert state.information_state_string(0)[3:] != state.information_state_string(1)[3:]
        a = full.sample_chance() if full.is_chance_node() else rng.choice(full.legal_actions())
        full.apply_action(a)
        state.apply_action(a)
    if not hidden_seen:
        pytest.skip(f"{name}: no event hidden from a player in the first 120 events of this game")


@pytest.mark.parametrize("name", [g for g in GAMES if ardsearch.load_game(g).hidden_information])
def test_resample_from_infostate_keeps_the_players_information(name):
    game = pyspiel.load_game(f"ardsearch_{name}")
    state = decision_state(game, seed=1)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert isinstance(sample, ard_os.OpenSpielState)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.ard_state.viewer() == -1  # a full state, ready to search
        # The other player's information set is the one of the invented outcomes.
        other = 1 - player
        assert sample.information_state_string(other).endswith(
            sample.ard_state.observation_string(other))
    seeded = [state.resample_from_infostate(player, 7) for _ in range(2)]
    assert str(seeded[0]) == str(seeded[1])


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_cpp_mcts_searches_through_the_adapter(name):
    game = ard_os.load_game(name, **short_params(name))
    state = decision_state(game)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, 1.4, 20, 50, True, 0, False)
    # pyspiel 2.0's MCTSBot.step() crashes on any Python game (OpenSpiel's
    # own python_tic_tac_toe included); mcts_search() is the same search.
    root = bot.mcts_search(state)
    assert root.explore_count >= 20
    assert root.best_child().action in state.legal_actions()


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_python_mcts_and_ismcts_play_moves(name):
    from open_spiel.python.algorithms import ismcts, mcts
    game = ard_os.load_game(name, **short_params(name))
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    searcher = ismcts.ISMCTSBot(game, evaluator, 1.4, 8, random_state=np.random.RandomState(1)) \
        if game.ard_game.hidden_information else \
        mcts.MCTSBot(game, 1.4, 8, evaluator, random_state=np.random.RandomState(1))
    state = decision_state(game, seed=2)
    for _ in range(3):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = searcher.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("name", GAMES)
def test_evaluate_bots_plays_a_whole_game(name):
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random
    game = ard_os.load_game(name, **short_params(name))
    bots = [uniform_random.UniformRandomBot(p, np.random.RandomState(p)) for p in (0, 1)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert len(returns) == 2 and sum(returns) == 0.0


@pytest.mark.parametrize("name", GAMES)
def test_rl_environment_runs_an_episode(name):
    from open_spiel.python import rl_environment
    game = ard_os.load_game(name, **short_params(name))
    env = rl_environment.Environment(game, seed=0)
    step = env.reset()
    rng = random.Random(0)
    steps = 0
    while not step.last():
        p = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][p])])
        steps += 1
    assert sum(step.rewards) == 0.0 and steps > 0
