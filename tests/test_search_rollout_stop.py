"""Rollouts that end at a chance outcome named by a prefix
(MCTS(rollout_stop_prefix="..."); csrc/ardsearch/search/mcts_worker.h): a
rollout scores the position as it stands when the chance outcome it samples
has a notation starting with the prefix. Stosstruppen's "card:" ends a
rollout where the next sequence card would be drawn, at the end of the
mover's phase (bench/README.md, "Stosstruppen: chance by expectation and the
noise the search fights": the card that may hand the same side another phase
is most of the rollout's noise). Checked on the toy Pig of
tests/search_toy_pig.c, whose die outcomes are written d1 .. d6."""
import pytest

import ardsearch
from ardsearch import _search
from test_search_expectimax import HOLD, ROLL, pig, pig_raw, pig_state  # noqa: F401 (pig: fixture)

ARGS = dict(ismcts=False, rollout_depth=-1, exploration=0.5)
RAW = pig_raw(pig_state(s0=4, s1=6, tt=3))


def search(pig, prefix, root, sims, seed=2):
    mcts = _search.MCTS(pig, seed=seed, rollout_stop_prefix=prefix, **ARGS)
    return mcts.search(RAW, simulations=sims, root_actions=[root])


def test_a_rollout_that_starts_at_a_named_outcome_scores_at_once(pig):
    """The first simulation's leaf is the roll, a chance node: with the prefix
    "d" its sampled face ends the rollout before any ply; without a prefix the
    rollout plays on to the end of the game."""
    assert search(pig, "d", ROLL, 1)["mean_rollout_length"] == 0.0
    assert search(pig, "", ROLL, 1)["mean_rollout_length"] > 0.0


def test_rollouts_end_at_their_first_die(pig):
    """With "d" a rollout ends at its first die (only holds, which roll
    nothing, can take it further), so over the same 200 simulations the
    rollouts are shorter than without the prefix, which play to the end."""
    stopped = search(pig, "d", HOLD, 200)["mean_rollout_length"]
    assert 0.0 < stopped < search(pig, "", HOLD, 200)["mean_rollout_length"]


def test_a_prefix_that_names_no_outcome_changes_nothing(pig):
    off, never = search(pig, "", HOLD, 300), search(pig, "x", HOLD, 300)
    assert off["visits"] == never["visits"] and off["mean_rollout_length"] == never["mean_rollout_length"]


def test_bad_prefixes_are_refused(pig):
    with pytest.raises(ValueError, match="at most 15 characters"):
        _search.MCTS(pig, rollout_stop_prefix="x" * 16)
    game = ardsearch.load_game("stosstruppen")
    with pytest.raises(ValueError, match="rollout_stop_prefix must be text"):
        ardsearch.MCTSBot(game, rollout_stop_prefix=3)
    assert ardsearch.MCTSBot(game, simulations=10).shape["rollout_stop_prefix"] == ""
    assert ardsearch.MCTSBot(game, simulations=10, rollout_stop_prefix="card:").shape["rollout_stop_prefix"] == "card:"


# stop_weights (MCTS(stop_weights=[...]), MCTSBot(stop_weights=<eval.toml>)):
# the rollouts that end at the prefix are scored with their own weights, every
# other leaf as before (bench/README.md, "Stosstruppen: MCTS against greedy,
# session 12": a value fitted on the positions where a phase ends).

def _stoss_search(stop_weights, sims=150, seed=3):
    game = ardsearch.load_game("stosstruppen(scenario=villers)")
    bot = ardsearch.MCTSBot(game, simulations=10)   # the preset's shape, for the search's settings
    shape = dict(bot.shape, rollout_stop_prefix="card:")
    state = game.new_initial_state(seed=1)
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
        else:
            state.apply_action(state.legal_actions()[-1])
    mcts = _search.MCTS(game.capsule, seed=seed, ismcts=False, stop_weights=stop_weights, **shape)
    return game, mcts.search(state.raw(), simulations=sims)


def test_stop_weights_equal_to_the_games_change_nothing():
    game, off = _stoss_search(None)
    _, same = _stoss_search(list(game.weights))
    assert off["visits"] == same["visits"] and off["values"] == same["values"]


def test_stop_weights_score_the_stopped_rollouts():
    """Weights that score every stopped rollout as a draw (all zero) move the
    root values towards 0 where the rollouts stop at the card."""
    game, off = _stoss_search(None)
    _, zero = _stoss_search([0.0] * len(game.feature_names))
    assert off["values"] != zero["values"]


def test_stop_weights_are_checked():
    game = ardsearch.load_game("stosstruppen")
    n = len(game.feature_names)
    with pytest.raises(ValueError, match="give a prefix"):
        _search.MCTS(game.capsule, stop_weights=[0.0] * n)
    with pytest.raises(ValueError, match="features, got"):
        _search.MCTS(game.capsule, rollout_stop_prefix="card:", stop_weights=[0.0] * (n - 1))
    bot = ardsearch.MCTSBot(game, simulations=10, rollout_stop_prefix="card:",
                            stop_weights="data/eval.toml")
    assert bot.stop_weights_setting == "data/eval.toml"
    with pytest.raises(ValueError, match="stop_weights score"):
        ardsearch.MCTSBot(game, simulations=10, stop_weights="data/eval.toml")   # the preset has no prefix


# common_random (MCTS(common_random=True)): the n-th simulations of all root
# moves draw their chance outcomes from the same stream.

def test_common_random_numbers_are_reproducible_and_change_the_draws(pig):
    def run(crn, seed=2):
        mcts = _search.MCTS(pig, seed=seed, common_random=crn, **ARGS)
        return mcts.search(RAW, simulations=300)
    assert run(True)["visits"] == run(True)["visits"] and run(True)["values"] == run(True)["values"]
    assert run(True)["values"] != run(False)["values"]


def test_common_random_numbers_with_two_threads_replay_exactly(pig):
    """Root parallelism: each thread keeps its own common stream (seeded from
    its own seed), so a two-thread search with common_random gives the same
    statistics every time; 50 trials (run pinned to one core as well:
    `taskset -c 1 pytest -k two_threads`)."""
    def run():
        mcts = _search.MCTS(pig, seed=5, threads=2, common_random=True, **ARGS)
        r = mcts.search(RAW, simulations=400)
        return r["visits"], r["values"]
    first = run()
    assert all(run() == first for _ in range(50))


def test_common_random_numbers_give_both_root_moves_the_same_dice(pig):
    """Pig's roll and hold both roll the die after the root (hold passes the
    turn to the other player, who rolls): with common random numbers the
    n-th visits of the two moves see the same first die, so over equal
    visits the two moves' values move together from seed to seed more than
    without (a correlation over 24 seeds)."""
    import numpy as np

    def values(crn):
        out = []
        for seed in range(24):
            r = _search.MCTS(pig, seed=seed, common_random=crn, exploration=100.0, **{k: v for k, v in ARGS.items() if k != "exploration"}).search(RAW, simulations=60)
            out.append(r["values"])
        return np.array(out)
    on, off = values(True), values(False)
    corr = lambda v: float(np.corrcoef(v[:, 0], v[:, 1])[0, 1])  # noqa: E731
    assert corr(on) > corr(off)


def test_common_random_numbers_are_plain_mcts_only(pig):
    with pytest.raises(ValueError, match="common_random is for plain MCTS only"):
        _search.MCTS(pig, ismcts=True, common_random=True)
