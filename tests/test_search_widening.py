"""Progressive widening ordered by the evaluation (MCTS(widening=c,
widening_exponent=a); csrc/ardsearch/search/mcts_worker.h): every new
decision node scores its children with evaluate(), orders them best first
for the mover, and selection considers only the first
max(1, ceil(c * visits^a)). Issue 15: "no game where search is no better
than one ply" (bench/README.md, "Stosstruppen: progressive widening")."""
import math

import pytest

import ardsearch
from ardsearch import _search
from test_search_mcts import MUST_BLOCK, WIN_IN_ONE, notation, position

ARGS = dict(ismcts=False, rollout_depth=0, exploration=0.5, normalize=True)


@pytest.fixture(scope="module")
def game():
    return ardsearch.load_game("ardennes")


def child_values(state):
    """evaluate() for the mover of the position after each legal move (a
    finished game: its result), as the search scores a new node's children."""
    me = state.current_player()
    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        out[a] = c.returns()[me] if c.is_terminal() else c.evaluate(me)
    return out


def test_the_narrowest_widening_is_the_greedy_move(game):
    """With k = 1 at every node, all simulations go down one root move: the
    one evaluate() scores best, which is greedy's move; the root's children
    are kept best first."""
    s = position(game, *MUST_BLOCK, ap=2)
    values = child_values(s)
    assert len(values) > 5
    mcts = _search.MCTS(game.capsule, seed=4, widening=1e-9, **ARGS)
    r = mcts.search(s.raw(), simulations=300)
    visited = [a for a, v in zip(r["actions"], r["visits"]) if v > 0]
    assert len(visited) == 1
    assert values[visited[0]] == pytest.approx(max(values.values()), abs=1e-6)
    evals = [e["eval"] for e in mcts.edges([])]
    assert evals == sorted(evals, reverse=True)
    assert len(evals) == len(values)


@pytest.mark.parametrize("sims", [50, 400])
def test_children_are_admitted_best_first_as_visits_grow(game, sims):
    """k = max(1, ceil(c * N^a)) children of the root may be visited after
    N visits, the best-evaluated first: the visited ones are a prefix of the
    ordered children, no longer than ceil(c * sims^a)."""
    s = position(game, *MUST_BLOCK, ap=2)
    mcts = _search.MCTS(game.capsule, seed=5, widening=1.0, widening_exponent=0.5, **ARGS)
    mcts.search(s.raw(), simulations=sims)
    visits = [e["visits"] for e in mcts.edges([])]
    used = sum(1 for v in visits if v > 0)
    assert 1 < used <= math.ceil(sims ** 0.5)
    assert all(v > 0 for v in visits[:used]) and not any(visits[used:])


def test_widening_keeps_the_tactics(game):
    """A widened search still blocks the opponent's winning road and takes a
    win in one (a won game is scored by its result, so it is ordered first)."""
    s = position(game, *MUST_BLOCK, ap=1)
    r = _search.MCTS(game.capsule, seed=2, widening=1.0, **ARGS).search(s.raw(), simulations=3000)
    assert notation(s, r) in ("M5", "Y5")
    s = position(game, *WIN_IN_ONE)
    r = _search.MCTS(game.capsule, seed=2, widening=1.0, **ARGS).search(s.raw(), simulations=50)
    assert notation(s, r) == "M3"


def test_widening_is_reproducible_and_changes_the_search(game):
    s = position(game, *MUST_BLOCK, ap=2)
    one = _search.MCTS(game.capsule, seed=6, widening=2.0, **ARGS).search(s.raw(), simulations=500)
    two = _search.MCTS(game.capsule, seed=6, widening=2.0, **ARGS).search(s.raw(), simulations=500)
    plain = _search.MCTS(game.capsule, seed=6, **ARGS).search(s.raw(), simulations=500)
    assert one["visits"] == two["visits"] and one["best"] == two["best"]
    assert one["visits"] != plain["visits"]


def test_bad_widening_is_refused(game):
    for kwargs, what in ((dict(widening=-1.0), "widening must be >= 0"),
                         (dict(widening_exponent=0.0), "widening_exponent"),
                         (dict(widening_exponent=1.5), "widening_exponent"),
                         (dict(widening=1.0, ismcts=True), "plain MCTS only")):
        with pytest.raises(ValueError, match=what):
            _search.MCTS(game.capsule, **kwargs)
    with pytest.raises(ValueError, match="widening"):
        ardsearch.MCTSBot(game, widening=-1)
    with pytest.raises(ValueError, match="widening_exponent"):
        ardsearch.MCTSBot(game, widening_exponent=0)
    bot = ardsearch.MCTSBot(game, widening=2, widening_exponent=0.4, simulations=50, ismcts=False)
    assert (bot.shape["widening"], bot.shape["widening_exponent"]) == (2.0, 0.4)


def test_root_margin_plays_only_one_ply_near_best_moves(game):
    """root_margin=m: root moves evaluated more than m below the best one
    are neither searched nor played."""
    s = position(game, *MUST_BLOCK, ap=2)
    values = child_values(s)
    top = max(values.values())
    for m in (0.005, 0.025):  # 2 and 8 of the 40 moves
        mcts = _search.MCTS(game.capsule, seed=7, widening=50.0, root_margin=m, **ARGS)
        r = mcts.search(s.raw(), simulations=600)
        searched = [a for a, v in zip(r["actions"], r["visits"]) if v > 0]
        assert searched and all(values[a] >= top - m - 1e-6 for a in searched)
        assert values[r["best"]] >= top - m - 1e-6
    wide = _search.MCTS(game.capsule, seed=7, widening=50.0, **ARGS).search(s.raw(), simulations=600)
    assert len(searched) < sum(1 for v in wide["visits"] if v > 0)
    with pytest.raises(ValueError, match="root_margin needs the root moves evaluated"):
        _search.MCTS(game.capsule, root_margin=0.1)
    with pytest.raises(ValueError, match="root_margin must be >= 0"):
        _search.MCTS(game.capsule, ismcts=False, widening=1.0, root_margin=-0.1)
    with pytest.raises(ValueError, match="root_margin is for plain MCTS only"):
        _search.MCTS(game.capsule, ismcts=True, eval_children=True, root_margin=0.1)


@pytest.mark.parametrize("ap,length", [(2, 1.0), (1, 0.0)])
def test_rollouts_that_end_when_the_turn_passes(game, ap, length):
    """rollout_turn_end: a leaf is scored once the next decision is the
    other player's. After the first root move with 2 action points the
    mover has one action left (a rollout of one ply); with 1 the turn has
    passed (none). Without the option, rollout_depth 0 scores at once."""
    s = position(game, *MUST_BLOCK, ap=ap)
    r = _search.MCTS(game.capsule, seed=1, rollout_turn_end=True, **ARGS).search(s.raw(), simulations=1)
    assert r["mean_rollout_length"] == length
    r = _search.MCTS(game.capsule, seed=1, **ARGS).search(s.raw(), simulations=1)
    assert r["mean_rollout_length"] == 0.0
    capped = _search.MCTS(game.capsule, seed=1, **{**ARGS, "rollout_depth": 1}, rollout_turn_end=True)
    assert capped.search(position(game, *MUST_BLOCK, ap=4).raw(), simulations=1)["mean_rollout_length"] == 1.0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rollouts_that_play_the_opponents_answer(game, seed):
    """rollout_extra_runs n (with rollout_turn_end): the rollout plays n
    more runs of decisions after the leaf's mover's run before it scores; 1
    is the opponent's answer. With 1 action point the turn passes at the
    root move, so without the option the leaf is scored at once, and with
    it the rollout plays the opponent's turn. The same seed draws the same
    rollout, so each further run only lengthens it."""
    s = position(game, *MUST_BLOCK, ap=1)
    lengths = [_search.MCTS(game.capsule, seed=seed, rollout_turn_end=True, rollout_extra_runs=n, **ARGS)
               .search(s.raw(), simulations=1)["mean_rollout_length"] for n in (0, 1, 2)]
    assert lengths[0] == 0.0 and 0.0 < lengths[1] <= lengths[2]


def test_extra_runs_need_turn_end_rollouts(game):
    with pytest.raises(ValueError, match="rollout_turn_end=True"):
        _search.MCTS(game.capsule, rollout_extra_runs=1)
    with pytest.raises(ValueError, match="rollout_extra_runs must be >= 0"):
        _search.MCTS(game.capsule, rollout_turn_end=True, rollout_extra_runs=-1)


def walk_most_visited(mcts, plies):
    """The children of each node down the most visited line: [(chooser, children)]."""
    path, out = [], []
    for _ in range(plies):
        kids = mcts.edges(path)
        if not kids:
            break
        out.append((kids[0]["chooser"], kids))
        path.append(max(kids, key=lambda e: e["visits"])["action"])
    return out


def test_opponent_widening_zero_answers_a_greedy_opponent(game):
    """opponent_widening=0: at the other player's nodes selection admits only
    the first child, the opponent's best move by evaluate() (greedy's
    move), however many visits the node has; the searcher's own nodes
    widen as before. Off (-1), the opponent's nodes widen like the root."""
    s = position(game, *MUST_BLOCK, ap=1)
    me = s.current_player()
    modelled = _search.MCTS(game.capsule, seed=3, widening=2.0, opponent_widening=0.0, **ARGS)
    modelled.search(s.raw(), simulations=3000)
    line = walk_most_visited(modelled, 6)
    theirs = [kids for chooser, kids in line if chooser == 1 - me]
    mine = [kids for chooser, kids in line if chooser == me]
    assert len(theirs) >= 2 and len(mine) >= 2
    for kids in theirs:
        assert len(kids) > 1 and kids[0]["visits"] > 100
        assert all(e["visits"] == 0 for e in kids[1:])
        assert kids[0]["eval"] == max(e["eval"] for e in kids)
    assert any(sum(e["visits"] > 0 for e in kids) > 1 for kids in mine)
    plain = _search.MCTS(game.capsule, seed=3, widening=2.0, **ARGS)
    plain.search(s.raw(), simulations=3000)
    assert all(sum(e["visits"] > 0 for e in kids) > 1
               for chooser, kids in walk_most_visited(plain, 6) if chooser == 1 - me)


def test_opponent_widening_needs_widening_and_a_valid_coefficient(game):
    with pytest.raises(ValueError, match="give widening > 0 with it"):
        _search.MCTS(game.capsule, ismcts=False, opponent_widening=0.0)
    with pytest.raises(ValueError, match="opponent_widening must be a number"):
        _search.MCTS(game.capsule, ismcts=False, widening=1.0, opponent_widening=float("nan"))
    for bad in (-0.5, -2, "x"):
        with pytest.raises(ValueError, match="opponent_widening"):
            ardsearch.MCTSBot(game, widening=1.0, opponent_widening=bad, ismcts=False)
    bot = ardsearch.MCTSBot(game, widening=1.0, opponent_widening=0, simulations=20, ismcts=False)
    assert bot.shape["opponent_widening"] == 0.0
    assert ardsearch.MCTSBot(game, simulations=20).shape["opponent_widening"] == -1.0   # off by default
    # a plain-MCTS setting the preset gives falls back to off under ISMCTS
    assert ardsearch.MCTSBot(game, simulations=20, ismcts=True).shape["opponent_widening"] == -1.0
