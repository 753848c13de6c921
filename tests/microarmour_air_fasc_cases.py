"""Micro Armour airstrikes with a Forward Air Support Coordinator (RULES.md
"Airstrikes"): the cases of tests/test_microarmour_air_fasc.py, run in a
child process whose ARDSEARCH_MICROARMOUR_SCENARIOS names
tests/data/microarmour_fasc (the scenario folder is read when the engine is
imported, so the pytest process itself cannot add it).

The scenario is `airstrike_fasc`, the airstrike scenario as shipped until
session 10: the Introductory table; the Soviet Il-2 flies turns 1-3, strafe
7, bomb 9, 2 loads, no FASC, bomb point 6,10 plotted before play for turn 2;
the German Ju 87 flies turns 2-4, strafe 4, bomb 12, 1 load, with a FASC.
The shipped airstrike's Ju 87 has no FASC since (a design choice for
balance), and no other shipped file has a FASC aircraft.

Every stand not named is lost, except the two GHQs parked in far corners.
Rows y=0 and y=3 are clear terrain (CRT modifier 0).

Run as `python tests/microarmour_air_fasc_cases.py [CASE ...]`: prints one
JSON line {case: "ok" or the failure's traceback}."""
from __future__ import annotations

import json
import os
import random
import sys
import traceback

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC, _data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import deployed  # noqa: E402
import test_microarmour_air as air_tests  # noqa: E402
from test_microarmour_air import air, chances, moves, plane, step_and_check, strike  # noqa: E402

SCENARIO = "airstrike_fasc"
GAME = ardsearch.load_game("microarmour", scenario=SCENARIO)
BASE = deployed(GAME.new_initial_state(seed=0).to_dict())
GERMAN, SOVIET = 0, 1


# the helpers of tests/test_microarmour_air.py, on this scenario
def position(stands, planes=None, strike=None, **top):
    return air_tests.position(stands, planes, strike, game=GAME, base=BASE, **top)


def end_of_posture(turn, **stands):
    return air_tests.end_of_posture(turn, game=GAME, base=BASE, **stands)


# ------------------------------------------------------------------ the cases
def case_the_test_scenario_keeps_the_fasc():
    """The test copy loads with the Ju 87's FASC; the shipped airstrike has none."""
    sc = _data.load_scenario(SCENARIO)
    assert [(a["id"], a["fasc"]) for a in sc["aircraft"]] == [("il2", False), ("ju87", True)]
    assert [(a["id"], a["fasc"]) for a in _data.load_scenario("airstrike")["aircraft"]] == \
        [("il2", False), ("ju87", False)]


def case_a_fasc_cohesion_roll_frees_the_bomb_point():
    """Digest: "Bomb points are pre-plotted unless a Forward Air Support
    Coordinator is available (depends on nation/date and a cohesion roll)".
    The Ju 87 (German, FASC) rolls in its bombing turns: on a pass it may bomb
    any enemy stand's square; on a failure only a plotted point."""
    st = step_and_check(end_of_posture(3), "pass")
    step_and_check(st, "pass")                              # the Il-2 passes
    assert air(st)["strike"]["step"] == "fasc" and chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.25})
    ok = st.clone()
    step_and_check(ok, "c:ok")
    assert sorted(moves(ok)) == ["bomb 20,3", "bomb 29,19", "pass", "strafe sghq", "strafe t34a"]
    step_and_check(st, "c:fail")
    assert sorted(moves(st)) == ["pass", "strafe sghq", "strafe t34a"]
    # the Il-2 (Soviet, no FASC) never rolls
    assert position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire",
                    turn=3).is_chance_node() is False


def case_bombing_uses_an_ordnance_load_and_none_left_means_no_bombs():
    """Digest: "bomb only in turns 2-3 (using its Ordnance Load)". The Ju 87
    carries one load: after it no plot is asked for and no bomb offered (here
    after a passed FASC roll, which frees the bomb point)."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}},
                  planes={"ju87": {"fasc_ok": True}}, strike=strike("ju87", "choose"), phase="fire", turn=3)
    assert "bomb 20,3" in moves(st)
    step_and_check(st, "bomb 20,3")
    assert plane(st, "ju87")["ordnance"] == 0
    after = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, planes={"ju87": {"ordnance": 0}},
                     phase="fire", turn=3, passed=[True, False], active="soviet")
    step_and_check(after, "pass")                           # fire phase over: joint plot, then orders
    assert after.to_dict()["phase"] == "orders"
    spent = position({"t34a": {"at": [20, 3]}}, planes={"ju87": {"ordnance": 0, "fasc_ok": True}},
                     strike=strike("ju87", "choose"), phase="fire", turn=3)
    assert sorted(moves(spent)) == ["pass", "strafe sghq", "strafe t34a"]


def case_board_text_names_the_fasc():
    """The board text marks an aircraft with a FASC (RULES.md, Text board)."""
    st = position({"pz4a": {"at": [5, 3]}, "flak": {"at": [7, 3]}}, strike=strike("il2", "choose"),
                  phase="fire", turn=2)
    text = str(st)
    assert "aircraft ju87   German Ju 87 D Stuka flight: present, strafe 4, bomb 12 x1 left, FASC" in text
    il2 = next(line for line in text.splitlines() if "aircraft il2" in line)
    assert "FASC" not in il2                                # the Il-2 has none


def case_engine_matches_reference_with_a_fasc():
    """Seeded random games against the reference model (as
    tests/test_microarmour_differential.py plays the shipped airstrike): the
    FASC roll, the freed bomb point and the plots, close armies, 4-5 turns."""
    from test_microarmour_differential import play_both
    runs = [({"scenario": SCENARIO, "deployment": "close", "turns": 4}, 3000 + seed) for seed in range(30)] + \
           [({"scenario": SCENARIO, "deployment": "close", "turns": 5, "german_cohesion": 9 + seed % 10,
              "soviet_cohesion": 8 + seed % 11}, 3500 + seed) for seed in range(8)]
    fasc_rolls = 0
    for params, seed in runs:
        play_both(params, seed)
        state = ardsearch.Game(SPEC, params).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():              # the same game again, counting FASC rolls
            if state.is_chance_node():
                if (state.to_dict()["air"]["strike"] or {}).get("step") == "fasc":
                    fasc_rolls += 1
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert fasc_rolls > 0


CASES = {name[5:]: f for name, f in sorted(globals().items()) if name.startswith("case_")}


def main(names):
    out = {}
    for name in names or CASES:
        try:
            CASES[name]()
            out[name] = "ok"
        except Exception:                                   # noqa: BLE001 (reported to the parent test)
            out[name] = traceback.format_exc()
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
