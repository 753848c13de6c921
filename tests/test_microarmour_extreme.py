"""Micro Armour: extreme heat or cold (RULES.md, "Weather and night", Ground).

Digest, Weather and night: "Extreme cold freezes water to Rough 1, and extreme
heat or cold gives +2 to dismounted personnel movement rolls." Extreme cold is
the ground `frozen`, extreme heat the ground `extreme_heat` (design: a standing
condition of the scenario, as frost is). Dismounted personnel (design): a
personnel stand moving on foot, not on horseback; cargo makes no movement roll
and vehicles are not personnel. Every position is checked against the reference
model (check_reference), as the rules tests do.
"""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import _data_hidden

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import BASE, chances, check_reference, moves, movement  # noqa: E402
import test_microarmour_units as units  # noqa: E402

GROUND_PASS = [("normal", 0.75), ("snow", 0.75), ("deep_snow", 0.75), ("frozen", 0.65), ("extreme_heat", 0.65)]


def on(ground):
    return {"conditions": {**BASE["conditions"], "ground": ground}}


@pytest.mark.parametrize("ground,p", GROUND_PASS)
def test_extreme_heat_or_cold_gives_dismounted_personnel_plus_two(ground, p):
    """Digest: "extreme heat or cold gives +2 to dismounted personnel movement
    rolls". A Panzergrenadier platoon on foot, German cohesion 15, an ordered
    move: it passes on 1..15 (0.75), under extreme cold or heat on 1..13."""
    st = movement({"pgra": {"at": [5, 3], "posture": "move"}}, **on(ground))
    st.apply("order pgra")
    check_reference(st)
    assert chances(st) == pytest.approx({"c:ok": p, "c:fail": 1 - p})


@pytest.mark.parametrize("ground", ["frozen", "extreme_heat"])
def test_the_plus_two_adds_to_the_other_movement_modifiers(ground):
    """Digest: "extreme heat or cold gives +2 to dismounted personnel movement
    rolls" and (Movement orders) an independent move is +3: a Suppressed (+4)
    platoon moving independently (+3) in the cold or heat passes on 1..6."""
    st = movement({"pgra": {"at": [5, 3], "posture": "move", "suppressed": True}}, **on(ground))
    st.apply("indep pgra")
    check_reference(st)
    assert chances(st) == pytest.approx({"c:ok": 0.3, "c:fail": 0.7})


@pytest.mark.parametrize("sid", ["pz4a", "htka", "pak"])
def test_vehicles_and_towed_weapons_are_not_dismounted_personnel(sid):
    """Digest: the +2 is for "dismounted personnel movement rolls": a tank, a
    half-track and a towed PaK 40 (unarmoured equipment) roll as on normal ground."""
    st = movement({sid: {"at": [5, 3], "posture": "move"}}, **on("frozen"))
    st.apply(f"order {sid}")
    check_reference(st)
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.25})


def test_personnel_riding_as_cargo_make_no_movement_roll_and_add_nothing_to_the_carrier():
    """Digest: the +2 is for "dismounted" personnel; cargo "moves with its
    carrier" (RULES.md, Transport): a Panzergrenadier platoon aboard its
    half-track has no movement attempt of its own, and the half-track's roll is
    the normal one in extreme heat."""
    st = movement({"htka": {"at": [5, 3], "posture": "move"},
                   "pgra": {"at": [5, 3], "posture": "move", "carried_by": "htka"}}, **on("extreme_heat"))
    assert "order pgra" not in moves(st) and "indep pgra" not in moves(st)
    st.apply("order htka")
    check_reference(st)
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.25})


@pytest.mark.parametrize("mounted,p", [(True, 0.6), (False, 0.5)])
def test_mounted_cavalry_is_not_dismounted_personnel(mounted, p):
    """Digest: "+2 to dismounted personnel movement rolls"; cavalry may
    "mount/dismount" (Defence classes). Design: a platoon on horseback is
    mounted, so only the dismounted one gets the +2 in extreme cold. Soviet
    cohesion 12: an ordered roll passes on 1..12 (0.6), on foot on 1..10."""
    st = units.position({"kaz1": {"at": [20, 1], "posture": "move"}},
                        {"mounted": ["kaz1"] if mounted else [], "flame": None, "offtable": [], "group": None},
                        phase="movement", active="soviet", orders=[0, 2], orders_rolled=2,
                        conditions={**units.BASE["conditions"], "ground": "frozen"})
    units.play(st, "order kaz1")
    assert chances(st) == pytest.approx({"c:ok": p, "c:fail": 1 - p})


@pytest.mark.parametrize("sid", ["rad1", "ski", "geb"])
def test_bicycle_ski_and_mountain_troops_are_dismounted_personnel(sid):
    """Digest: "+2 to dismounted personnel movement rolls". Design: cyclists,
    ski and mountain troops move under their own power (class F, no horses, no
    vehicle), so they are dismounted personnel: 15 - 2 = 13 of 20 (German) or
    12 - 2 = 10 of 20 (Soviet ski troops)."""
    side = "soviet" if sid == "ski" else "german"
    st = units.position({sid: {"at": [20, 1], "posture": "move"}}, phase="movement", active=side,
                        orders=[2, 2], orders_rolled=2,
                        conditions={**units.BASE["conditions"], "ground": "extreme_heat"})
    units.play(st, f"order {sid}")
    p = 0.5 if side == "soviet" else 0.65
    assert chances(st) == pytest.approx({"c:ok": p, "c:fail": 1 - p})


def test_a_group_roll_gives_the_plus_two_to_its_personnel_only():
    """Digest, Movement: "Movement groups roll one base 1D20 and apply each
    stand's modifiers to it", and "extreme heat or cold gives +2 to dismounted
    personnel movement rolls": in extreme cold the group gbik (the HQ, a
    vehicle, and two bicycle platoons) moves the HQ on 1..17 (15, -2 for the HQ
    in the group) and the cyclists on 1..15 (+2 for the cold)."""
    stands = {k: {**v, "posture": "move"} for k, v in units.BIKES.items()}
    st = units.position(stands, phase="movement", active="german", orders=[2, 0],
                        conditions={**units.BASE["conditions"], "ground": "frozen"})
    units.play(st, "gorder gbik")
    assert chances(st) == pytest.approx({"g:1": 15 / 20, "g:16": 2 / 20, "g:18": 3 / 20})
    units.play(st, "g:16")
    assert st.to_dict()["units"]["group"]["attempting"] == ["ghq", "rad1", "rad2"]
    assert st.to_dict()["mover"]["id"] == "ghq" and st.to_dict()["units"]["group"]["to_move"] == []


def test_extreme_heat_is_a_ground_of_its_own_with_no_terrain_change():
    """Digest: "Extreme cold freezes water to Rough 1" (ground `frozen`); extreme
    heat changes no terrain (the digest gives it only the +2). The parameter and
    the scenario key accept it, to_dict names it, and its map costs are normal."""
    assert "extreme_heat" in _data_hidden.GROUNDS
    game = ardsearch.load_game("microarmour", ground="extreme_heat")
    st = game.new_initial_state(seed=0)
    assert st.to_dict()["conditions"]["ground"] == "extreme_heat"
    normal = ardsearch.load_game("microarmour").new_initial_state(seed=0)
    from ardsearch.games.microarmour import _engine
    for x, y in ((0, 0), (13, 10), (4, 6)):
        assert _engine._move_cost(st.raw(), "pgra", x, y) == _engine._move_cost(normal.raw(), "pgra", x, y)
    with pytest.raises(ValueError, match="ground"):
        ardsearch.load_game("microarmour", ground="heatwave")
