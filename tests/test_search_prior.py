"""The one-ply value as a prior worth k visits (MCTS(prior_visits=k,
prior_drift=...); csrc/ardsearch/search/mcts_worker.h): a child's evaluate()
after its move counts as k virtual visits in the value UCB exploits and in
the root move played, q = (k * prior + visits * mean) / (k + visits).
Issue 15: Stosstruppen's search got worse with more simulations, its noisy
rollouts re-ranking moves one ply orders better (bench/README.md, "Session
14: the one-ply value as a prior")."""
import pytest

import ardsearch
from ardsearch import _search
from ardsearch.tournament import parse_bot
from test_search_mcts import MUST_BLOCK, position
from test_search_widening import child_values as one_ply  # evaluate() after each move

STOSS = "stosstruppen(scenario=kaiserschlacht)"


@pytest.fixture(scope="module")
def ardennes():
    return ardsearch.load_game("ardennes")


@pytest.fixture(scope="module")
def stoss():
    return ardsearch.load_game(STOSS)


def decision(game, seed=0, plies=0):
    """A decision point of `game`: the start (chance resolved by its first
    outcome), then `plies` moves of a seeded random game."""
    import random
    rng = random.Random(seed)
    s = game.new_initial_state()
    done = 0
    while True:
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        if done >= plies or s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
        done += 1
    assert not s.is_terminal()
    return s


def shape(game, **kw):
    """The game's mcts preset shape (Stosstruppen: widening, root_margin,
    turn-end rollouts), with overrides."""
    return {**ardsearch.MCTSBot(game, simulations=1, ismcts=False).shape, **kw}


def test_prior_is_accepted_everywhere_and_off_by_default(stoss):
    bot = ardsearch.MCTSBot(stoss, simulations=50, ismcts=False)
    assert bot.shape["prior_visits"] == 0.0 and bot.shape["prior_drift"] is False
    bot = ardsearch.load_bot("mcts", stoss, simulations=50, prior_visits=10, prior_drift=True)
    assert bot.shape["prior_visits"] == 10.0 and bot.shape["prior_drift"] is True
    # the tournament's spelling reaches the bot's keywords
    entrant = parse_bot("mcts:nodes=1000,prior_visits=1e9,prior_drift=true")
    assert entrant.options == {"prior_visits": 1e9, "prior_drift": True}
    # ISMCTS cannot take it: the preset's plain-MCTS setting falls back to off
    assert ardsearch.ISMCTSBot(stoss, simulations=10).shape["prior_visits"] == 0.0


def test_off_plays_as_before_for_a_seed(stoss):
    """prior_visits=0 (the default) is the search without the option: same
    visits and values, move after move, with the tree kept between moves."""
    runs = []
    for extra in ({}, {"prior_visits": 0.0, "prior_drift": False}):
        bot = ardsearch.MCTSBot(stoss, simulations=120, seed=3, ismcts=False, **extra)
        s = decision(stoss, seed=1)
        out = []
        for _ in range(4):
            r = bot.analyze(s)
            out.append((r["move"], r["visits"], r["values"]))
            s.apply_action(r["best"])
            while s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
        runs.append(out)
    assert runs[0] == runs[1]


def test_bad_prior_is_refused(ardennes, stoss):
    with pytest.raises(ValueError, match="prior_visits must be >= 0"):
        _search.MCTS(ardennes.capsule, ismcts=False, eval_children=True, prior_visits=-1)
    with pytest.raises(ValueError, match="prior_visits needs the moves evaluated"):
        _search.MCTS(ardennes.capsule, ismcts=False, prior_visits=5)
    with pytest.raises(ValueError, match="prior_visits is for plain MCTS only"):
        _search.MCTS(ardennes.capsule, ismcts=True, eval_children=True, prior_visits=5)
    with pytest.raises(ValueError, match="minimax_weight overwrites"):
        _search.MCTS(ardennes.capsule, ismcts=False, eval_children=True, minimax_weight=0.5, prior_visits=5)
    with pytest.raises(ValueError, match="final_lcb=0"):
        _search.MCTS(ardennes.capsule, ismcts=False, eval_children=True, final_lcb=1.0, prior_visits=5)
    with pytest.raises(ValueError, match="prior_drift shifts the prior"):
        _search.MCTS(ardennes.capsule, ismcts=False, eval_children=True, prior_drift=True)
    with pytest.raises(ValueError, match="prior_visits"):
        ardsearch.MCTSBot(stoss, simulations=10, ismcts=False, prior_visits="many")


@pytest.mark.parametrize("drift", [False, True])
def test_prior_is_reproducible_and_changes_the_search(stoss, drift):
    s = decision(stoss, seed=2, plies=3)
    args = shape(stoss, prior_visits=10.0, prior_drift=drift)
    a = _search.MCTS(stoss.capsule, seed=9, **args).search(s.raw(), simulations=300)
    b = _search.MCTS(stoss.capsule, seed=9, **args).search(s.raw(), simulations=300)
    assert (a["best"], a["visits"], a["values"]) == (b["best"], b["visits"], b["values"])
    off = _search.MCTS(stoss.capsule, seed=9, **shape(stoss)).search(s.raw(), simulations=300)
    assert a["visits"] != off["visits"]


@pytest.mark.parametrize("drift", [False, True])
@pytest.mark.parametrize("plies", [0, 5, 11])
def test_a_huge_prior_plays_the_one_ply_choice_in_stosstruppen(stoss, drift, plies):
    """k = 1e9: the search, widening from the best-evaluated move, plays a
    move one ply rates best (the drift, one number per node, cannot reorder)."""
    s = decision(stoss, seed=4, plies=plies)
    values = one_ply(s)
    if len(values) < 2:
        pytest.skip("a forced move")
    r = _search.MCTS(stoss.capsule, seed=1, **shape(stoss, prior_visits=1e9, prior_drift=drift)).search(
        s.raw(), simulations=400)
    assert values[r["best"]] == pytest.approx(max(values.values()), abs=1e-6)


def test_a_huge_prior_plays_the_one_ply_choice_with_eval_children(ardennes):
    """Without widening (eval_children): every root move may be searched,
    and the one played is still the one-ply best."""
    s = position(ardennes, *MUST_BLOCK, ap=2)
    values = one_ply(s)
    r = _search.MCTS(ardennes.capsule, seed=2, ismcts=False, rollout_depth=0, exploration=0.5, normalize=True,
                     eval_children=True, prior_visits=1e9).search(s.raw(), simulations=600)
    assert sum(1 for v in r["visits"] if v > 0) > 1  # others were searched, yet not chosen
    assert values[r["best"]] == pytest.approx(max(values.values()), abs=1e-6)


@pytest.mark.parametrize("drift", [False, True])
def test_the_move_played_has_the_best_blend(stoss, drift):
    """The root move played is the searched move with the highest
    (k * (eval + shift) + visits * mean) / (k + visits), shift the
    visit-weighted mean of (mean - eval) over the searched moves (drift)."""
    k = 20.0
    s = decision(stoss, seed=6, plies=2)
    m = _search.MCTS(stoss.capsule, seed=5, **shape(stoss, prior_visits=k, prior_drift=drift))
    r = m.search(s.raw(), simulations=500)
    evals = {e["action"]: e["eval"] for e in m.edges([])}
    rows = [(a, n, v) for a, n, v, p in zip(r["actions"], r["visits"], r["values"], r["proven_values"])
            if n > 0 and p is None]
    assert len(rows) > 1
    shift = 0.0
    if drift:
        shift = sum(n * (v - evals[a]) for a, n, v in rows) / sum(n for _, n, _ in rows)
    blend = {a: (k * (evals[a] + shift) + n * v) / (k + n) for a, n, v in rows}
    assert blend[r["best"]] == pytest.approx(max(blend.values()), abs=1e-5)
