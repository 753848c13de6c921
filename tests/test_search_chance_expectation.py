"""Chance nodes by expectation (MCTS(chance_expectation=True);
csrc/ardsearch/search/mcts_worker.h): a move that leaves a chance node is
valued, where its parent's UCB compares it, by the probability-weighted mean
of its visited outcomes' means, and the outcomes are visited in proportion to
their probabilities (the one furthest below its share p * (N + 1) - n next),
not sampled. Issue 15: "no game where search is no better than one ply"
(bench/README.md, "Stosstruppen: chance by expectation and the noise the
search fights"). Checked on the toy Pig of tests/search_toy_pig.c, whose
loaded die has unequal probabilities."""
import pytest

import ardsearch
from ardsearch import _search
from test_search_expectimax import FACE1, HOLD, ROLL, pig, pig_raw, pig_state  # noqa: F401 (pig: fixture)

FACE_PROB = (0.25, 0.15, 0.15, 0.15, 0.15, 0.15)  # search_toy_pig.c's kFaceProb
ARGS = dict(ismcts=False, rollout_depth=0, exploration=0.5, normalize=True)


def roll_only(pig, sims, seed=3, **kw):
    """A search whose root may only roll: every simulation goes through the die."""
    mcts = _search.MCTS(pig, seed=seed, **ARGS, **kw)
    mcts.search(pig_raw(pig_state(s0=4, s1=6, tt=3)), simulations=sims, root_actions=[ROLL])
    return mcts


@pytest.mark.parametrize("sims", [2, 7, 41, 400])
def test_outcomes_are_visited_in_proportion_to_their_probabilities(pig, sims):
    """The root's roll was a leaf on its first visit; each later visit goes to
    the outcome furthest below its share, so after V - 1 visits through the
    die every face f has p_f (V - 1) visits to within one."""
    mcts = roll_only(pig, sims, chance_expectation=True)
    (roll,) = mcts.edges([])
    assert roll["action"] == ROLL and roll["visits"] == sims
    faces = {e["action"]: e["visits"] for e in mcts.edges([ROLL])}
    assert sum(faces.values()) == sims - 1
    for f, p in enumerate(FACE_PROB):
        assert abs(faces.get(FACE1 + f, 0) - p * (sims - 1)) <= 1.0


def test_the_sampled_die_is_not_stratified(pig):
    """Without the option the outcomes are sampled: over 400 visits the counts
    stray from their shares by more than one (the seed is fixed)."""
    mcts = roll_only(pig, 400, chance_expectation=False)
    faces = {e["action"]: e["visits"] for e in mcts.edges([ROLL])}
    assert max(abs(faces.get(FACE1 + f, 0) - p * 399) for f, p in enumerate(FACE_PROB)) > 1.0


@pytest.mark.parametrize("on", [True, False])
def test_a_roll_is_valued_by_the_expectation_over_the_die(pig, on):
    """With the option the value UCB compares for the roll (edges()' q) is
    sum p_f * mean_f over the visited faces / sum p_f (player 0 rolls, and an
    outcome's mean is player 0's); without it, the plain mean of its visits.
    (Solver off: a proven outcome counts with its proven value, which
    edges() does not report.)"""
    mcts = roll_only(pig, 300, chance_expectation=on, solver=False)
    (roll,) = mcts.edges([])
    faces = [e for e in mcts.edges([ROLL]) if e["visits"] > 0]
    prob = {FACE1 + f: p for f, p in enumerate(FACE_PROB)}
    expected = sum(prob[e["action"]] * e["value"] for e in faces) / sum(prob[e["action"]] for e in faces)
    # (the tree keeps probabilities as 32-bit floats)
    assert roll["q"] == pytest.approx(expected if on else roll["value"], abs=1e-7)
    if on:
        assert roll["q"] != pytest.approx(roll["value"], abs=1e-9)  # the raw mean counts the leaf visit too


def test_chance_expectation_is_reproducible_and_changes_the_search(pig):
    raw = pig_raw(pig_state(s0=4, s1=6, tt=3))
    runs = [_search.MCTS(pig, seed=9, chance_expectation=on, **ARGS).search(raw, simulations=500)
            for on in (True, True, False)]
    assert runs[0]["visits"] == runs[1]["visits"] and runs[0]["best"] == runs[1]["best"]
    assert runs[0]["visits"] != runs[2]["visits"]
    assert set(runs[0]["actions"]) == {HOLD, ROLL}


def test_chance_expectation_is_plain_mcts_only_and_off_by_default():
    """Information-set MCTS samples its chance outcomes per determinization:
    the option is refused there, and forced ISMCTS drops it; no preset turns
    it on, so a bare MCTSBot searches without it."""
    game = ardsearch.load_game("stosstruppen")
    with pytest.raises(ValueError, match="chance_expectation is for plain MCTS only"):
        _search.MCTS(game.capsule, ismcts=True, chance_expectation=True)
    assert ardsearch.MCTSBot(game, simulations=10).shape["chance_expectation"] is False
    bot = ardsearch.MCTSBot(game, simulations=10, chance_expectation=True)
    assert bot.shape["chance_expectation"] is True
    assert ardsearch.MCTSBot(game, simulations=10, ismcts=True).shape["chance_expectation"] is False
    with pytest.raises(ValueError, match="chance_expectation"):
        ardsearch.MCTSBot(game, chance_expectation="maybe")
