"""Undaunted: the evaluation feature "goal" (RULES.md, *Evaluation*), the
committed evaluation (data/eval.toml: goal = 1).

"goal" is the first release's evaluation ("classic") read by each army's own
victory condition. With two capture goals it is classic exactly; where an
army must immobilize (scenario 3, Breakout: US immobilize, Germans capture 6)
classic scaled the US by a goal of 0 points and scored it on the Germans'
points alone, so its value sat near -0.8 whatever happened. Hand-built
positions, each docstring quoting the rulebook digest
(shared/seeds/undaunted-normandy.txt) or the contract it checks.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from test_undaunted_evaluation import (FIRST_RELEASE, GAME, NAMES, idx, position, random_positions, tok,
                                       walked, DATA)


def goal(st, p):
    """The feature as a value in (-1, 1), as evaluate() gives it with the committed weights."""
    return math.tanh(0.5 * st.features(p)[idx("goal")])


def classic(st, p):
    return math.tanh(0.5 * st.features(p)[idx("classic")])


US = dict(tokens={"rifA": tok("14A"), "rifB": tok("12B"), "rifC": tok("13A"), "sniper": tok("13A")},
          deck={"rifA": 1, "rifB": 1, "rifC": 1, "sniper": 1, "psgt": 1, "sl_A": 1, "fog": 2})
DE_TOKENS = {"rifA": tok("16A"), "rifB": tok("11B"), "mg": tok("17A"), "scoutA": tok("18A")}
DE_DECK = {"rifA": 1, "rifB": 1, "mg": 1, "scoutA": 1, "psgt": 1, "fog": 2}
DE_SUPPLY = {"rifA": 3, "rifB": 3, "mg": 2, "scoutA": 2, "mortar": 2, "fog": 8}


def breakout(de=None, us=None, **top):
    """Scenario 3 in the US turn of round 1: the Germans hold 16A, 11B (2 + 2
    points) and 18A, with their starting Rifleman cards (one of each in the
    deck, three of each in the supply) unless `de` says otherwise."""
    d = dict(tokens=DE_TOKENS, deck=DE_DECK, supply=DE_SUPPLY)
    d.update(de or {})
    return position(us=us or US, de=d, scenario=3, **top)


def test_goal_is_classic_when_both_armies_must_capture():
    """Contract, Scenario 1: "Each army wins by controlling objectives worth 5
    or more" (scenario 2 alike): with two capture goals "goal" is the first
    release's evaluation exactly, so scenarios 1 and 2 play as before."""
    n = 0
    for st in random_positions():
        if st.game.params["scenario"] in (1, 2):
            for p in (0, 1):
                assert st.features(p)[idx("goal")] == st.features(p)[idx("classic")]
            n += 1
    assert n >= 20


@pytest.mark.parametrize("scenario,seed,v0,v1", [r for r in FIRST_RELEASE if r[0] in (1, 2)])
def test_committed_weights_give_the_first_release_in_scenarios_1_and_2(scenario, seed, v0, v1):
    """The committed weights (goal = 1, every other 0) leave scenarios 1 and 2
    exactly as the first release evaluated them."""
    w = GAME.weights
    assert w[idx("goal")] == 1.0 and np.count_nonzero(w) == 1
    old = str(DATA / f"undaunted_scenario{scenario}_first_release.toml") if scenario == 2 else ""
    st = walked(scenario, seed, old)
    assert st.evaluate(0) == pytest.approx(v0, abs=1e-12)
    assert st.evaluate(1) == pytest.approx(v1, abs=1e-12)


def test_goal_is_zero_sum_where_an_army_must_immobilize():
    """"Victory will be yours if you fulfill the specific scenario victory
    condition": one side's win is the other's loss, and with an immobilize
    goal both sides are scaled by the one points goal in play (the Germans'
    6), so goal(US) = -goal(Germans)."""
    for st in (breakout(), breakout(de=dict(controlled=["16A", "11B", "18A", "15B"])),
               breakout(de=dict(deck={"rifA": 1, "mg": 1}, supply={"mg": 2})), breakout(round=30)):
        assert st.features(0)[idx("goal")] == pytest.approx(-st.features(1)[idx("goal")], abs=1e-12)


def test_us_one_hit_from_immobilizing_the_germans_reads_as_winning():
    """"Irremediable Situation: If a player can no longer win the scenario by
    the required objective points, they are considered immobilized. If the
    opponent's objective was to immobilize, they win immediately", and
    "Rifleman cards are the only ones capable of using the Control action".
    Scenario 3: the Germans down to one Rifleman card (rifB's token gone, no
    Rifleman card in the supply): the next hit on rifA wins for the US. goal
    reads the US ahead and well above the start; classic read the US as
    losing there (the defect fixed)."""
    start = breakout()
    near = breakout(de=dict(tokens={k: v for k, v in DE_TOKENS.items() if k != "rifB"},
                            deck={"rifA": 1, "mg": 1, "scoutA": 1, "psgt": 1, "fog": 2},
                            supply={"mg": 2, "scoutA": 2, "mortar": 2, "fog": 8}, removed={"rifA": 3, "rifB": 4}))
    assert goal(near, 0) > 0 > goal(start, 0)
    assert goal(near, 0) - goal(start, 0) > 0.3
    assert classic(near, 0) < -0.5                      # the first release: still "losing"
    # each German Rifleman card gone for good brings the US nearer
    values = [goal(breakout(de=dict(supply={**DE_SUPPLY, "rifA": k}, removed={"rifA": 3 - k})), 0) for k in (3, 2, 1, 0)]
    assert values == sorted(values) and values[-1] > values[0]


def test_germans_one_point_from_six_reads_as_winning_for_them():
    """Scenario 3's German goal, "Capture Objectives: Your army needs to control
    a specific number of objective points. The sum of points from all tiles
    you control must be equal to or greater than the required total" (6):
    with 15B taken (5 points) the Germans read better than at the start (4),
    and the US worse."""
    start = breakout()
    five = breakout(de=dict(controlled=["16A", "11B", "18A", "15B"]))
    assert goal(five, 1) > goal(start, 1) > 0
    assert goal(five, 0) < goal(start, 0)


def test_the_round_limit_weighs_the_points_lead_more_as_rounds_pass():
    """Contract, End: "Design choice: `max_rounds` (default 40) then most
    objective points": in scenario 3 the Germans start 4 points to 0 ahead,
    so each round the US fails to immobilize them brings the limit, and their
    win on points, nearer; goal reads the same position worse for the US in
    round 39 than in round 1 (classic did not see the round at all)."""
    early, late = breakout(round=1), breakout(round=39)
    assert goal(late, 0) < goal(early, 0) - 0.1
    assert classic(late, 0) == classic(early, 0)


def test_a_finished_game_gives_its_returns():
    """A finished game gives +1 / -1 for goal as for classic (RULES.md, Evaluation)."""
    st = breakout(phase="over", winner=0, end_reason="irremediable")
    assert st.features(0)[idx("goal")] == pytest.approx(2 * math.atanh(0.999))
    assert st.features(1)[idx("goal")] == pytest.approx(-2 * math.atanh(0.999))
    assert NAMES[20] == "goal"      # the zone-use features follow it (appended)
