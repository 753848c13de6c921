"""Micro Armour: building areas (RULES.md, "Buildings"), one hand-built position
per rule, each docstring quoting the digest (shared/seeds/micro-armour.txt)
words it checks; the reference model must agree on every position.

The village (buildings, x 13..16, y 8..10) is twelve building areas, one per
square, light in the Introductory scenario; with the `support` parameter
(14,8) is heavy and (15,8), (14,9) are medium. Squares (13..16, 6..7) south of
the village are clear; row y=8 east of it (17..20) is clear.
"""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import attack, chances, moves  # noqa: E402
from test_microarmour_weapons import column, spos, stand  # noqa: E402


def building(state, x, y):
    return next(b for b in state.to_dict()["buildings"] if b["at"] == [x, y])


def tofire_ok(state):
    return chances(state)["c:ok"]


# ------------------------------------------------------------------ building classes
def test_building_classes_give_their_cover_to_both_rolls():
    """Digest *LOS*: "Target terrain modifiers apply to both the 'to fire'
    cohesion roll and the CRT roll and stack (e.g. medium IP + medium buildings =
    +5/+5 to the cohesion roll, +10 to the CRT roll)": medium buildings give +5 to
    each roll (design reading of the example: the two +5's are the IP's and the
    buildings'); light +3, heavy +7 (design). A Pz IV (HE 5) 2" south of a rifle
    platoon (DV 5): CD 0, range 0."""
    for x, cover in ((13, 3), (15, 5), (14, 7)):
        stands = {"pz4a": {"at": [x, 6], "facing": "n"}, "rfla": {"at": [x, 8]}}
        st = spos(stands, phase="fire", active="german", **attack(["pz4a"], "rfla"))
        assert tofire_ok(st) == pytest.approx((15 - cover) / 20)          # German cohesion 15
        st.apply("c:ok")
        assert chances(st) == pytest.approx(column(0, cover))


def test_introductory_village_is_light_buildings():
    """Without the support parameter every village square is a light building
    area: the Introductory scenario's +3/+3 cover, unchanged."""
    st = spos({"pz4a": {"at": [14, 6], "facing": "n"}, "rfla": {"at": [14, 8]}}, {"support": False},
              phase="fire", active="german", **attack(["pz4a"], "rfla"))
    assert building(st, 14, 8)["class"] == "light"
    assert tofire_ok(st) == pytest.approx(12 / 20)


# ------------------------------------------------------------------ artillery attacks buildings
def howitzer_at_village(target_at=(16, 8), target="pgra", **extra):
    return spos({"how": {"at": [20, 8], "facing": "w"}, target: {"at": list(target_at)}},
                phase="fire", active="soviet", **attack(["how"], target, step="crt", side="soviet"), **extra)


def test_artillery_attacks_the_building_area_of_its_target():
    """Digest *Improved positions*: "Artillery and bombs attack building areas (DV
    4/5/6 for light/medium/heavy)". The howitzer's direct fire is artillery fire
    ("Artillery direct and indirect fire ...", digest *Range*): after its CRT roll
    on a stand in a light building, the area is attacked with its HE 10 against
    DV 4 (CD 6, no range modifier): only an E harms a building."""
    st = howitzer_at_village()
    st.apply("crt:S")
    assert st.to_dict()["building_roll"] == {"at": [16, 8], "firepower": 10, "modifier": 0}
    e = column(6, 0)["crt:E"]
    assert chances(st) == pytest.approx({"crt:E": e, "crt:-": 1 - e})
    st.apply("crt:E")
    b = building(st, 16, 8)
    assert b["hits"] == 1 and b["burning"] == 2 and not b["rubble"]
    assert st.to_dict()["building_roll"] is None and st.to_dict()["attack"] is None


def test_building_roll_after_the_target_is_eliminated():
    """The building is attacked whatever happens to the stand in it: an E on the
    platoon draws its loss card first, then the building roll comes."""
    st = howitzer_at_village()
    st.apply("crt:E")
    assert not stand(st, "pgra")["alive"]
    st.apply("card:3")
    st.apply("brk:no")
    assert st.to_dict()["building_roll"]["at"] == [16, 8]
    st.apply("crt:-")
    assert building(st, 16, 8)["hits"] == 0


def test_medium_and_heavy_buildings_have_dv_5_and_6():
    """Digest: "building areas (DV 4/5/6 for light/medium/heavy)": the howitzer's
    HE 10 is CD 5 against the medium area (15,8) and CD 4 against the heavy (14,8)."""
    for at, cd in (((15, 8), 5), ((14, 8), 4)):
        st = spos({"how": {"at": [at[0], 4], "facing": "n"}, "pgra": {"at": list(at)}},
                  phase="fire", active="soviet", **attack(["how"], "pgra", step="crt", side="soviet"))
        st.apply("crt:S")
        assert chances(st)["crt:E"] == pytest.approx(column(cd, 0)["crt:E"])


def test_other_direct_fire_does_not_attack_buildings():
    """Design reading: the digest names "Artillery and bombs" as what attacks
    building areas; a tank's HE at a stand in a building attacks only the stand."""
    st = spos({"t34a": {"at": [20, 8], "facing": "w"}, "pgra": {"at": [16, 8]}},
              phase="fire", active="soviet", **attack(["t34a"], "pgra", step="crt", side="soviet"))
    st.apply("crt:S")
    assert st.to_dict()["building_roll"] is None and st.to_dict()["attack"] is None


# ------------------------------------------------------------------ fire and smoke
def test_a_burning_building_is_smoke_that_blocks_los_and_adds_3():
    """Digest: artillery sets building areas "alight with smoke"; *LOS*: "Smoke and
    impact markers block LOS and add +3 to fire into or out of them". A rifle
    platoon in the burning light building (16,8): a Pz IV 2" away takes +3 (cover)
    +3 (smoke) on its 'to fire' roll; the platoon firing out takes +3 too; LOS
    through the burning square is blocked even once it is rubble."""
    st = spos({"pz4a": {"at": [16, 6], "facing": "n"}, "rfla": {"at": [16, 8]}},
              buildings=[{"at": [16, 8], "hits": 1, "burning": 2}],
              phase="fire", active="german", **attack(["pz4a"], "rfla"))
    assert tofire_ok(st) == pytest.approx((15 - 6) / 20)
    out = spos({"pz4a": {"at": [18, 8], "facing": "w"}, "rfla": {"at": [16, 8]}},
               buildings=[{"at": [16, 8], "hits": 1, "burning": 2}],
               phase="fire", active="soviet", **attack(["rfla"], "pz4a", side="soviet"))
    assert tofire_ok(out) == pytest.approx((12 - 3) / 20)
    seen = spos({"pz4a": {"at": [18, 8], "facing": "w"}, "rfla": {"at": [15, 8]}},
                buildings=[{"at": [16, 8], "hits": 2, "burning": 1}], phase="fire", active="german")
    assert "fire pz4a>rfla" not in moves(seen)


def test_fires_burn_down_after_their_turns():
    """Design: a building area that took an E burns for 2 turns (charts.toml
    burn_turns): the rest of this turn and the next, then the smoke is gone."""
    st = spos({"pz4a": {"at": [5, 3]}}, buildings=[{"at": [16, 8], "hits": 1, "burning": 2}],
              phase="movement", active="german", orders=[0, 0], orders_rolled=2)
    st.apply("pass")
    st.apply("pass")
    d = st.to_dict()
    assert d["turn"] == 2 and building(st, 16, 8)["burning"] == 1


# ------------------------------------------------------------------ rubble
def test_rubble_after_2_3_5_e_results():
    """Digest: artillery turns building areas "to rubble after 2/3/5 'E' results"
    (light/medium/heavy): the light area (16,8) with one E becomes rubble on its
    second."""
    st = howitzer_at_village(buildings=[{"at": [16, 8], "hits": 1, "burning": 0}])
    st.apply("crt:S")
    st.apply("crt:E")
    b = building(st, 16, 8)
    assert b["rubble"] and b["hits"] == 2
    heavy = spos({"pgra": {"at": [5, 3]}}, buildings=[{"at": [14, 8], "hits": 4}, {"at": [15, 8], "hits": 2}],
                 phase="fire", active="german")
    assert not building(heavy, 14, 8)["rubble"] and not building(heavy, 15, 8)["rubble"]
    with pytest.raises(ValueError, match="hits"):
        spos({"pgra": {"at": [5, 3]}}, buildings=[{"at": [15, 8], "hits": 4}], phase="fire", active="german")


def test_rubble_changes_the_terrain_effects():
    """Rubble "changing the terrain's effects" (design, charts.toml
    [building.rubble]): cover +2/+2 instead of the building's, LOS passes, foot
    movement 2 MP an inch instead of 1, and it cannot be attacked again."""
    rub = [{"at": [16, 8], "hits": 2, "burning": 0}]
    st = spos({"pz4a": {"at": [16, 6], "facing": "n"}, "rfla": {"at": [16, 8]}}, buildings=rub,
              phase="fire", active="german", **attack(["pz4a"], "rfla"))
    assert tofire_ok(st) == pytest.approx((15 - 2) / 20)
    seen = spos({"pz4a": {"at": [18, 8], "facing": "w"}, "rfla": {"at": [15, 8]}}, buildings=rub,
                phase="fire", active="german")
    assert "fire pz4a>rfla" in moves(seen)
    intact = spos({"pz4a": {"at": [18, 8], "facing": "w"}, "rfla": {"at": [15, 8]}}, phase="fire", active="german")
    assert "fire pz4a>rfla" not in moves(intact)
    walk = spos({"pgra": {"at": [17, 8], "posture": "move", "mp": 8, "steps": 1}}, buildings=rub,
                phase="movement", active="german", orders=[3, 3], orders_rolled=2,
                mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    walk.apply("step w")
    assert stand(walk, "pgra")["mp"] == 8 - 4
    again = howitzer_at_village(buildings=rub)
    again.apply("crt:S")
    assert again.to_dict()["building_roll"] is None


# ------------------------------------------------------------------ board and bad states
def test_board_shows_burning_and_rubble():
    st = spos({"pz4a": {"at": [5, 3]}}, buildings=[{"at": [16, 8], "hits": 1, "burning": 2},
                                                    {"at": [13, 10], "hits": 2}], phase="fire", active="german")
    text = str(st)
    rows = {int(line[:2]): line[3:] for line in text.splitlines()[1:21]}
    assert rows[8][16] == "^" and rows[10][13] == "%"
    assert "building 16,8 light: 1 E burning 2" in text and "building 13,10 light: 2 E rubble" in text


def test_corrupt_building_bytes_are_refused():
    """validate() refuses a building roll with no artillery attack behind it and
    damage beyond rubble; state_from_dict names the key."""
    with pytest.raises(ValueError, match="building roll without"):
        spos({"pz4a": {"at": [5, 3]}}, building_roll={"at": [16, 8], "firepower": 10, "modifier": 0},
             phase="fire", active="german")
    with pytest.raises(ValueError, match="burning"):
        spos({"pz4a": {"at": [5, 3]}}, buildings=[{"at": [16, 8], "burning": 9}], phase="fire", active="german")
    with pytest.raises(ValueError, match="building square"):
        spos({"pz4a": {"at": [5, 3]}}, buildings=[{"at": [5, 5]}], phase="fire", active="german")
    game = ardsearch.load_game("microarmour")
    raw = bytearray(game.new_initial_state(seed=0).serialize())
    # bld_hits[0] (area 13,8) is byte 222 of the state (RULES.md, The state struct:
    # the weapons-extras block at offset 186, bld_hits after df_options, the roll's 3 bytes, ammo[32])
    body = len(raw) - game.state_size
    raw[body + 222] = 7
    with pytest.raises(ValueError):
        game.deserialize_state(bytes(raw))


def test_building_cover_stacks_with_a_wreck():
    """Digest *LOS*: target terrain modifiers "stack": a wreck (+1/+1,
    charts.toml [wreck]) in the medium building area (15,8) adds to its +5/+5."""
    st = spos({"pz4a": {"at": [15, 6], "facing": "n"}, "rfla": {"at": [15, 8]},
               "t34a": {"at": [15, 8], "alive": False, "wreck": True}},
              phase="fire", active="german", **attack(["pz4a"], "rfla"))
    assert tofire_ok(st) == pytest.approx((15 - 6) / 20)
    st.apply("c:ok")
    assert chances(st) == pytest.approx(column(0, 6))


def test_los_may_be_traced_into_a_burning_building():
    """Digest: "A line of sight may not be traced through terrain which blocks
    line of sight. However, it may be traced into or out of the terrain type":
    the smoke of a burning building blocks only the LOS passing through it."""
    st = spos({"pz4a": {"at": [16, 6], "facing": "n"}, "rfla": {"at": [16, 8]}},
              buildings=[{"at": [16, 8], "hits": 1, "burning": 2}], phase="fire", active="german")
    assert "fire pz4a>rfla" in moves(st)
    back = spos({"pgra": {"at": [16, 6]}, "rfla": {"at": [16, 8]}},
                buildings=[{"at": [16, 8], "hits": 1, "burning": 2}], phase="fire", active="soviet")
    assert "fire rfla>pgra" in moves(back)
