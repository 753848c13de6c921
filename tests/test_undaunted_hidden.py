"""Undaunted: Normandy: hidden hands, hidden draws and the hidden first bid.

A player's view must follow the game event by event from what that player
sees (its own draws, every public event, '?' for the rest), determinize()
must deal only what the view allows, and a bot's move must not depend on
what it cannot see.
"""
from __future__ import annotations

import copy
import random

import pytest

import ardsearch
from ardsearch.games import undaunted as U
from ardsearch.games.undaunted import _engine as E

HIDDEN = -2


def random_game(scenario, seed, max_rounds=8):
    """A seeded random game through the raw engine: the list of (raw state, action)."""
    rng = random.Random(seed)
    raw = E._init(U.pack_params({"scenario": scenario, "max_rounds": max_rounds}))
    steps = []
    while E._current(raw) != -4:
        if E._current(raw) == -1:
            acts, probs = zip(*E._chance(raw))
            a = rng.choices(acts, probs)[0]
        else:
            a = rng.choice(E._legal(raw))
        steps.append((raw, a))
        raw = E._apply(raw, a)
    steps.append((raw, None))
    return steps


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_views_follow_the_game_from_what_each_player_sees(scenario):
    hidden_bids = hidden_draws = 0
    for seed in range(25):
        steps = random_game(scenario, seed)
        for p in (0, 1):
            view = E._observe(steps[0][0], p)
            for raw, a in steps:
                assert view == E._observe(raw, p), f"seed {seed} player {p}"
                assert E._validate(view) is None
                if a is None:
                    break
                if E._visible(raw, a, p):
                    view = E._apply(view, a)
                else:
                    if E.to_dict(raw)["phase"] == "bid1":
                        hidden_bids += 1
                    else:
                        hidden_draws += 1
                    view = E._apply(view, HIDDEN)
    assert hidden_bids > 0 and hidden_draws > 0


def test_determinize_stays_inside_the_view():
    for seed in range(6):
        for raw, _ in random_game(1, seed)[::5]:
            for p in (0, 1):
                view = E._observe(raw, p)
                for k in range(3):
                    full = E._determinize(view, p, seed * 100 + k)
                    assert E._validate(full) is None
                    assert E.to_dict(full)["viewer"] == -1
                    assert E._observe(full, p) == view
                    own = E.to_dict(full)["armies"][p]
                    assert own["hand"] == E.to_dict(raw)["armies"][p]["hand"]


def test_determinize_deals_the_right_multiset():
    # the opponent holds 3 cards out of a pool of {fog x2, rifA, psgt, sl_A}
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    d["armies"][1].update(hand={"fog": 2, "rifA": 1}, deck={"psgt": 1, "sl_A": 1})
    raw = E.from_dict(d)
    view = E._observe(raw, 0)
    counts = {}
    n = 3000
    for seed in range(n):
        hand = E.to_dict(E._determinize(view, 0, seed))["armies"][1]["hand"]
        assert sum(hand.values()) == 3
        for c, k in hand.items():
            counts[c] = counts.get(c, 0) + k
    # each of the 5 pool cards is in hand with probability 3/5
    assert counts["fog"] / n == pytest.approx(2 * 0.6, abs=0.06)
    for c in ("rifA", "psgt", "sl_A"):
        assert counts[c] / n == pytest.approx(0.6, abs=0.05)


def _two_worlds():
    """Two full states at a US decision that differ only in the German hand."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us.update(hand={"rifA": 1, "scoutA": 1, "psgt": 1}, deck={"fog": 2, "rifB": 1})
    a = copy.deepcopy(d)
    a["armies"][1].update(hand={"rifA": 1, "scoutA": 1, "fog": 1}, deck={"psgt": 1, "sl_A": 1, "fog": 1})
    b = copy.deepcopy(d)
    b["armies"][1].update(hand={"psgt": 1, "sl_A": 1, "fog": 1}, deck={"rifA": 1, "scoutA": 1, "fog": 1})
    return a, b


def test_views_ignore_the_opponent_hand():
    a, b = _two_worlds()
    ra, rb = E.from_dict(a), E.from_dict(b)
    assert ra != rb
    assert E._observe(ra, 0) == E._observe(rb, 0)
    assert E._observe(ra, 1) != E._observe(rb, 1)
    assert E._evaluate(E._observe(ra, 0), 0) == E._evaluate(E._observe(rb, 0), 0)


def test_ismcts_move_does_not_depend_on_the_opponent_hand():
    from ardsearch._core import Game
    game = Game(U.SPEC, {})
    a, b = _two_worlds()
    moves = []
    for d in (a, b):
        state = game.state_from_dict(d)
        bot = ardsearch.ISMCTSBot(game, simulations=400, seed=7, reuse_tree=False)
        moves.append(state.action_to_string(bot.step(state)))
    assert moves[0] == moves[1]
