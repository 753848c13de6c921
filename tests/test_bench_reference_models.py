"""The pure-Python reference models as OpenSpiel games (bench/reference_openspiel.py):
every game has one, it follows the engine's events, and OpenSpiel's C++ MCTS
searches it."""
import pytest

import ardsearch

pyspiel = pytest.importorskip("pyspiel")
from bench import reference_openspiel  # noqa: E402
from bench.openspiel_compare import position_after  # noqa: E402


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_every_game_has_a_reference_model_that_follows_the_engine(name):
    game = ardsearch.load_game(name)
    factory = reference_openspiel.reference_factory(game)
    assert factory is not None, f"{name}: no reference model the OpenSpiel wrapper can drive"
    state = position_after(game, 60, seed=3)
    model = reference_openspiel.follow(factory(), state)
    assert model.is_terminal() == state.is_terminal()
    if not model.is_terminal():
        assert model.is_chance_node() == state.is_chance_node()
        if not state.is_chance_node():
            assert len(model.legal_actions()) == len(state.legal_actions())


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_openspiel_mcts_searches_the_reference_model(name):
    os_game = reference_openspiel.register(ardsearch.load_game(name))
    state = os_game.new_initial_state()
    while state.is_chance_node():
        action, _ = state.chance_outcomes()[0]
        state.apply_action(action)
    bot = pyspiel.MCTSBot(os_game, pyspiel.RandomRolloutEvaluator(1, 7), 1.4, 20, 10 ** 6, True, 7, False)
    root = bot.mcts_search(state)  # step() crashes on Python games in pyspiel 2.0
    assert root.explore_count >= 1  # (fewer than 20 when the root has one move)
    assert root.best_child().action in state.legal_actions()
