"""How deep the MCTS tree grows (MCTS(tree_depth=d); MctsConfig::tree_depth in
csrc/ardsearch/search/mcts_worker.h). A simulation that reaches a node d moves
below the root rolls out from it instead of expanding it; d = 1 is flat Monte
Carlo over the root moves, and with a greedy rollout through the opponent's
answer it is the rollout algorithm over greedy play (bench/README.md,
"Stosstruppen: flat Monte Carlo over greedy play"). 0, the default, is no
limit. Checked on the toy Pig of tests/search_toy_pig.c (two moves, hold and
roll, then a die) and on Stosstruppen's bot keyword."""
import pytest

import ardsearch
from ardsearch import _search
from test_search_expectimax import pig, pig_raw, pig_state  # noqa: F401 (pig: fixture)

ARGS = dict(ismcts=False, rollout_depth=-1, exploration=0.5)
RAW = pig_raw(pig_state(s0=4, s1=6, tt=3))


def search(pig, depth, sims=400, seed=3):
    return _search.MCTS(pig, seed=seed, tree_depth=depth, **ARGS).search(RAW, simulations=sims)


def test_flat_monte_carlo_keeps_only_the_root_moves(pig):
    """tree_depth 1: the tree is the root and its two moves, however many
    simulations; every simulation rolls out from a root move, so the
    principal variation is one move long."""
    flat = search(pig, 1)
    assert flat["nodes"] == 3
    assert len(flat["pv"]) == 1
    assert sum(flat["visits"]) == 400


def test_the_tree_grows_no_deeper_than_asked(pig):
    """Depth 2 keeps the root moves and the nodes one move below them (the
    die's faces after a roll): more than flat, fewer than no limit."""
    one, two, free = (search(pig, d)["nodes"] for d in (1, 2, 0))
    assert one < two < free
    assert two <= 3 + 6  # root, hold and roll, then at most the roll's six faces
    assert len(search(pig, 2)["pv"]) <= 2


def test_flat_search_is_reproducible_for_a_seed(pig):
    a, b = search(pig, 1, seed=9), search(pig, 1, seed=9)
    assert a["visits"] == b["visits"] and a["values"] == b["values"]


def test_bad_depths_are_refused():
    game = ardsearch.load_game("stosstruppen")
    with pytest.raises(ValueError, match="tree_depth=-1 is not valid: expected an integer >= 0"):
        ardsearch.MCTSBot(game, simulations=10, tree_depth=-1)
    with pytest.raises(ValueError, match="tree_depth"):
        ardsearch.MCTSBot(game, simulations=10, tree_depth="deep")
    capsule = game.capsule
    with pytest.raises(ValueError, match="tree_depth must be >= 0"):
        _search.MCTS(capsule, tree_depth=-2)


def test_the_bot_keyword_reaches_the_search():
    """A bare bot has no limit (the preset sets none); tree_depth=1 plays a
    legal move in Stosstruppen with the greedy rollout through the answer."""
    game = ardsearch.load_game("stosstruppen")
    assert ardsearch.MCTSBot(game, simulations=10).shape["tree_depth"] == 0
    bot = ardsearch.MCTSBot(game, simulations=20, seed=1, tree_depth=1, rollout_sample=-1,
                            rollout_extra_runs=1, common_random=True)
    state = game.new_initial_state(seed=1)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_random_chance() if state.is_chance_node() else state.apply_action(state.legal_actions()[0])
    info = bot.analyze(state)
    assert info["best"] in state.legal_actions()
    assert len(info["pv"]) == 1
