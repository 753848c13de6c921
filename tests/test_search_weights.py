"""Per-search weights: a bot's `weights` setting reaches the C++ search
(MCTS, ISMCTS, expectimax) and the greedy bot without touching the game's
own table.

Issue 15 (shared context): "A search or bot can carry its own weights (bot
setting weights = "classic" or a path to an eval.toml) ... an evaluator that
calls features + the bot's weights instead of evaluate"; "weights {classic =
1, others 0} reproduce the old evaluation exactly"."""
import os

import numpy as np
import pytest

import ardsearch
from ardsearch import _search, evaluation
from ardsearch.bots import ExpectimaxBot, HeuristicBot, MCTSBot, load_bot

GAMES_WITH_FEATURES = ("ardennes", "mortain")


@pytest.fixture
def restore_weights():
    """Game.weights is the engine's process-wide table: put it back."""
    saved = {n: ardsearch.load_game(n).weights for n in GAMES_WITH_FEATURES}
    yield
    for n, w in saved.items():
        ardsearch.load_game(n).weights = w


def _midgame(name, seed, plies):
    import random
    game = ardsearch.load_game(name)
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while plies > 0 or s.is_chance_node():
        if s.is_chance_node():
            s.apply_random_chance()
            continue
        s.apply_action(rng.choice(s.legal_actions()))
        plies -= 1
    assert not s.is_terminal()
    return game, s


def _classic(game):
    return evaluation.classic_weights(game.feature_names)


def _other(game):
    """Weights far from the shipped ones, so that a search that ignored its
    own weights would play differently."""
    w = np.linspace(-1.0, 1.0, len(game.feature_names))
    w[0] = 0.2
    return w


@pytest.mark.parametrize("name", GAMES_WITH_FEATURES)
def test_classic_weights_reproduce_the_hand_set_evaluation(name):
    """weights {classic = 1, others 0} give the old evaluate() (to rounding)."""
    game = ardsearch.load_game(name)
    assert game.feature_names[0] == "classic"
    from importlib import import_module
    engine = import_module(f"ardsearch.games.{name}._engine")
    for seed in range(3):
        _, s = _midgame(name, seed, 6 + 5 * seed)
        for p in (0, 1):
            old = engine._evaluate_classic(s.raw(), p)
            assert abs(s.evaluate(p, _classic(game)) - old) <= 1e-12


@pytest.mark.parametrize("name", GAMES_WITH_FEATURES)
def test_features_are_antisymmetric(name):
    """"features are antisymmetric where natural (my material minus yours)"."""
    for seed in range(3):
        game, s = _midgame(name, seed, 4 + 7 * seed)
        assert np.allclose(s.features(0), -s.features(1), atol=1e-12)
        assert s.evaluate(0) == pytest.approx(-s.evaluate(1), abs=1e-12)
        assert s.evaluate(0) == pytest.approx(np.tanh(0.5 * game.weights @ s.features(0)), abs=1e-12)


@pytest.mark.parametrize("name", GAMES_WITH_FEATURES)
def test_own_weights_equal_to_the_games_give_the_same_search(name):
    """A search with weights = the game's own weights gives the same move
    (and the same statistics) as one without."""
    game, s = _midgame(name, 5, 9)
    w = game.weights
    a = _search.MCTS(game.capsule, seed=3, rollout_depth=4).search(s.raw(), simulations=1500)
    b = _search.MCTS(game.capsule, seed=3, rollout_depth=4, weights=list(w)).search(s.raw(), simulations=1500)
    assert a["best"] == b["best"] and a["visits"] == b["visits"] and a["values"] == b["values"]
    ea = _search.Expectimax(game.capsule).search(s.raw(), depth=2)
    eb = _search.Expectimax(game.capsule, weights=list(w)).search(s.raw(), depth=2)
    assert ea["best"] == eb["best"] and ea["values"] == eb["values"]


@pytest.mark.parametrize("name", GAMES_WITH_FEATURES)
def test_classic_bots_play_as_the_old_evaluation_did(name, restore_weights):
    """A bot with weights = "classic" searches exactly as an unweighted bot
    did when the game's table was classic, whatever the table is now."""
    game, s = _midgame(name, 11, 12)
    game.weights = _classic(game)
    before = {
        "mcts": MCTSBot(game, simulations=1200, seed=2).analyze(s),
        "expectimax": ExpectimaxBot(game, depth=2, time_limit=None).analyze(s),
        "greedy": HeuristicBot(game, seed=1).analyze(s),
    }
    game.weights = _other(game)
    after = {
        "mcts": MCTSBot(game, simulations=1200, seed=2, weights="classic").analyze(s),
        "expectimax": ExpectimaxBot(game, depth=2, time_limit=None, weights="classic").analyze(s),
        "greedy": HeuristicBot(game, seed=1, weights="classic").analyze(s),
    }
    for kind in before:
        assert before[kind]["best"] == after[kind]["best"], kind
        assert before[kind]["values"] == after[kind]["values"], kind
    # and the game's own (changed) table is really used by a bot without weights
    moved = HeuristicBot(game, seed=1).analyze(s)
    assert moved["values"] != before["greedy"]["values"]


@pytest.mark.parametrize("name", GAMES_WITH_FEATURES)
def test_a_search_keeps_its_weights_when_the_games_table_changes(name, restore_weights):
    """A search whose weights equal the game's table scores with the game's
    evaluate() (the same number, cheaper: evaluator.h), but only while they
    are equal: a bot made with `classic` while the table was classic keeps
    playing classic after the table changes."""
    game, s = _midgame(name, 11, 12)
    game.weights = _classic(game)
    first, second = (MCTSBot(game, simulations=1200, seed=2, weights="classic") for _ in range(2))
    before = first.analyze(s)
    game.weights = _other(game)
    after = second.analyze(s)
    assert before["best"] == after["best"] and before["values"] == after["values"]
    assert MCTSBot(game, simulations=1200, seed=2).analyze(s)["values"] != before["values"]


def test_ismcts_takes_weights(restore_weights):
    """ISMCTS (Ardennes has hidden objective cards) uses the bot's weights too."""
    game, s = _midgame("ardennes", 2, 8)
    game.weights = _classic(game)
    a = load_bot("ismcts", game, simulations=800, seed=4).analyze(s)
    game.weights = _other(game)
    b = load_bot("ismcts", game, simulations=800, seed=4, weights="classic").analyze(s)
    assert a["visits"] == b["visits"] and a["values"] == b["values"]


def test_weights_from_a_file(tmp_path, restore_weights):
    """weights = the path of an eval.toml: the bot plays those weights."""
    game, s = _midgame("ardennes", 7, 10)
    w = _other(game)
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(x)!r}\n" for n, x in zip(game.feature_names, w)))
    bot = HeuristicBot(game, weights=str(path))
    assert np.array_equal(bot.weights, w)
    game.weights = w
    assert bot.analyze(s)["values"] == HeuristicBot(game).analyze(s)["values"]


def test_a_relative_path_is_looked_up_in_the_games_folder(tmp_path, monkeypatch):
    """A preset started from any directory can name its game's own file:
    weights = "data/eval.toml" (no such file from the working directory)
    is ardsearch/games/<game>/data/eval.toml; a file that exists from the
    working directory still wins."""
    monkeypatch.chdir(tmp_path)
    game = ardsearch.load_game("stosstruppen")
    assert np.array_equal(HeuristicBot(game, weights="data/eval.toml").weights, game.weights)
    (tmp_path / "data").mkdir()
    w = np.zeros(len(game.feature_names))
    w[0] = 0.25
    (tmp_path / "data" / "eval.toml").write_text(
        "[weights]\n" + "".join(f"{n} = {float(x)!r}\n" for n, x in zip(game.feature_names, w)))
    assert np.array_equal(HeuristicBot(game, weights="data/eval.toml").weights, w)
    with pytest.raises(ValueError, match="no-such.toml"):
        HeuristicBot(game, weights="data/no-such.toml")


def test_every_stosstruppen_bot_plays_the_games_one_evaluation():
    """One evaluation for the game (issue 15; bench/README.md, "Stosstruppen:
    MCTS weights that defend the trench"): the weights that defend the trench
    are data/eval.toml's, and the mcts preset, greedy and a bare MCTSBot all
    play them (weights None: the engine's installed table)."""
    game = ardsearch.load_game("stosstruppen")
    path = os.path.join(os.path.dirname(ardsearch.__file__), "games", "stosstruppen", "data", "eval.toml")
    own = evaluation.load(path, game.feature_names, game.name, game.player_names)
    assert own.weights[game.feature_names.index("guard")] == 2.0
    assert own.weights[game.feature_names.index("marker_hits")] == 1.0
    assert not os.path.exists(os.path.join(os.path.dirname(path), "eval-mcts.toml"))
    assert load_bot("mcts", game).weights is None
    assert load_bot("greedy", game).weights is None
    assert MCTSBot(game).weights is None
    assert np.array_equal(evaluation.loaded(game.name).weights, own.weights)


def test_a_file_for_another_game_is_refused(tmp_path):
    mortain = ardsearch.load_game("mortain")
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = 0.5\n" for n in mortain.feature_names))
    with pytest.raises(ValueError, match=r"weights\.\w+ is not a feature for ardennes"):
        MCTSBot("ardennes", weights=str(path))
    path.write_text("[weights]\n" + "".join(f"{n} = 0.5\n" for n in ardsearch.load_game("ardennes").feature_names)
                    + "[source]\ngame = 'mortain'\n")
    with pytest.raises(ValueError, match="this file is for mortain, not ardennes"):
        ExpectimaxBot("ardennes", weights=str(path))


def test_a_game_without_features_refuses_weights():
    bare = [n for n in ardsearch.list_games() if not ardsearch.load_game(n).feature_names]
    if not bare:
        pytest.skip("every game has evaluation features now")
    game = ardsearch.load_game(bare[0])
    with pytest.raises(ValueError, match="has no evaluation features"):
        HeuristicBot(game, weights="classic")
    with pytest.raises(ValueError, match="has no evaluation features"):
        _search.MCTS(game.capsule, weights=[1.0])


def test_bad_weight_vectors_are_refused_by_the_search():
    game = ardsearch.load_game("ardennes")
    n = len(game.feature_names)
    with pytest.raises(ValueError, match=f"has {n} features, got 2 weights"):
        _search.MCTS(game.capsule, weights=[1.0, 0.0])
    with pytest.raises(ValueError, match="not a finite number"):
        _search.Expectimax(game.capsule, weights=[float("nan")] * n)
    with pytest.raises(ValueError, match="expected \"classic\""):
        HeuristicBot(game, weights=3)


def test_the_frozen_preset_plays_the_classic_evaluation():
    """Issue 15: "every game's new mcts preset beats this issue's starting mcts
    preset (keep it as a frozen preset for the comparison)": mcts-v1 writes
    out every search setting of the starting preset and plays the games that
    have features with their hand-set ("classic") evaluation."""
    for name in ardsearch.list_games():
        bot = load_bot("mcts-v1", name)
        game = ardsearch.load_game(name)
        assert bot.shape["exploration"] == 0.5 and bot.shape["minimax_weight"] == 0.0
        assert bot.shape["eval_children"] is False and bot.shape["final_lcb"] == 0.0
        assert bot.simulations == 150000 and bot.time_limit == 2.5
        if name in GAMES_WITH_FEATURES:
            assert bot.weights_setting == "classic" and np.array_equal(bot.weights, _classic(game))
        if name == "microarmour":
            assert bot.shape["rollout_depth"] == 0 and bot.shape["normalize"] is True
        else:
            assert bot.shape["rollout_depth"] == 10 and bot.shape["normalize"] is False
