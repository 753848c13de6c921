"""Micro Armour: the rules where indirect artillery meets the other
fire-support families (RULES.md, Indirect artillery, Airstrikes, Buildings,
Broken formations): artillery impacts and bombs attacking building areas, the
one armour rule for artillery and air, no new artillery plots for a broken
formation. One hand-built position per rule (helpers of the artillery and air
rule tests); every position is also checked against the reference model.
Each docstring quotes the rulebook digest (shared/seeds/micro-armour.txt).

The village squares of the Introductory table (shared by the barrage and
airstrike scenarios) are x 13..16, y 8..10: light building areas (DV 4).
"""
from __future__ import annotations

import os
import sys
from fractions import Fraction

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ardsearch  # noqa: E402
import test_microarmour_air as air_t  # noqa: E402
from test_microarmour_artillery import (BASE, battery, he, landing, play, position,  # noqa: E402
                                        stand)
from test_microarmour_rules import chances, check_reference, deployed, keep_only  # noqa: E402

TWO_D6 = {r: Fraction(6 - abs(r - 7), 36) for r in range(2, 13)}


def p_le(n):
    """P(2D6 <= n)."""
    return float(sum(p for r, p in TWO_D6.items() if r <= n))


def building(state, x, y):
    return next(b for b in state.to_dict()["buildings"] if b["at"] == [x, y])


# ------------------------------------------------------------------ buildings under artillery and bombs
def test_impact_markers_attack_the_building_area_under_them():
    """Digest, Improved positions: "Artillery and bombs attack building areas
    (DV 4/5/6 for light/medium/heavy), setting them alight with smoke and
    turning them to rubble after 2/3/5 'E' results". The lefh battery (HE 8,
    3 sections, closed sheaf) lands on the empty village square 13,10: each
    marker attacks the light building area (CD 8 - 4 = 4: E on 2D6 <= 5); two
    E's make it rubble, and rubble is not attacked again."""
    st = position({}, batteries=landing("lefh", he(13, 10)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    d = st.to_dict()
    assert d["artillery"]["step"] == "building" and d["artillery"]["marker"] == 0
    assert d["building_roll"] == {"at": [13, 10], "firepower": 8, "modifier": 0}
    assert chances(st) == pytest.approx({"crt:-": 1 - p_le(5), "crt:E": p_le(5)})
    play(st, "crt:E")
    assert building(st, 13, 10)["hits"] == 1 and building(st, 13, 10)["burning"] == 2
    assert st.to_dict()["artillery"]["marker"] == 1
    play(st, "crt:E")
    assert building(st, 13, 10)["rubble"]
    assert st.to_dict()["phase"] == "fire"          # the third marker finds rubble: no roll


def test_the_stands_under_the_markers_are_attacked_before_the_building_areas():
    """Digest: "The markers attack every stand under them, friend or foe" and
    "Artillery and bombs attack building areas". The sfh battery (HE 11, open
    sheaf of 2, barrage: two columns up) lands on 13,10: its markers lie on
    13,10 and 14,10; the Soviet rifle stand on 14,10 is attacked first, then each
    marker's building area, with the barrage's firepower 13 (design: the
    order, as a direct-fire artillery attack rolls its target first)."""
    st = position({"rflb": {"at": [14, 10]}}, batteries=landing("sfh", he(13, 10)), phase="artillery", turn=3,
                  artillery={"current": "sfh", "step": "deviate"})
    play(st, "c:ok")
    assert st.to_dict()["artillery"]["step"] == "hit" and st.to_dict()["artillery"]["marker"] == 1
    play(st, "crt:S")
    assert stand(st, "rflb")["suppressed"]
    d = st.to_dict()
    assert d["artillery"]["step"] == "building"
    assert d["building_roll"] == {"at": [13, 10], "firepower": 13, "modifier": 0}
    play(st, "crt:-")
    assert st.to_dict()["building_roll"]["at"] == [14, 10]
    play(st, "crt:-")
    assert st.to_dict()["phase"] == "fire" and not building(st, 14, 10)["hits"]


def test_smoke_attacks_no_building_area():
    """Digest: "Artillery and bombs attack building areas" (the high
    explosive): a smoke mission's markers attack nothing (RULES.md)."""
    smoke = {"kind": "smoke", "target": [13, 10], "prereg": None}
    st = position({}, batteries=landing("lefh", smoke), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    assert st.to_dict()["phase"] == "fire" and st.to_dict()["building_roll"] is None


def test_markers_that_stay_attack_the_building_area_again():
    """Digest: mission types include "multi-turn duration": the sfh markers
    (2 turns) attack again in the next artillery fire phase, building areas
    included."""
    st = position({}, batteries={"sfh": {"state": "active", "mission": he(13, 10), "markers": [[13, 10]],
                                         "turns_left": 1}},
                  phase="posture", turn=4, passed=[True, False], active="soviet", first="german")
    play(st, "pass")
    d = st.to_dict()
    assert d["phase"] == "artillery" and d["building_roll"]["at"] == [13, 10]


def test_a_bomb_attacks_every_building_area_under_its_pattern():
    """Digest, Improved positions: "Artillery and bombs attack building
    areas". The Ju 87's bomb (firepower 12) falls on 14,9: after the stands
    (none here) each of the 9 village squares of its 3" x 3" pattern is
    attacked, row by row from the south-west (CD 12 - 4 = 8: E on 2D6 <= 9)."""
    st = air_t.position({}, strike=air_t.strike("ju87", "deviate", kind="bomb", at=(14, 9)), phase="fire",
                        turn=3, planes={"ju87": {"ordnance": 0}})
    air_t.step_and_check(st, "c:ok")
    seen = []
    while st.to_dict()["building_roll"] is not None:
        d = st.to_dict()
        assert d["air"]["strike"]["step"] == "building" and d["building_roll"]["firepower"] == 12
        assert chances(st) == pytest.approx({"crt:-": 1 - p_le(9), "crt:E": p_le(9)})
        seen.append(tuple(d["building_roll"]["at"]))
        air_t.step_and_check(st, "crt:-")
    assert seen == [(x, y) for y in (8, 9, 10) for x in (13, 14, 15)]
    assert st.to_dict()["air"]["strike"] is None


def test_strafing_attacks_no_building_area():
    """Digest: "Artillery and bombs attack building areas" (not strafing)."""
    st = air_t.position({"t34a": {"at": [14, 9]}}, strike=air_t.strike("ju87", "deviate", at=(14, 9)),
                        phase="fire", turn=3)
    air_t.step_and_check(st, "c:ok")
    air_t.step_and_check(st, "crt:-")
    assert st.to_dict()["building_roll"] is None and st.to_dict()["air"]["strike"] is None


# ------------------------------------------------------------------ one armour rule
def test_artillery_and_air_attacks_share_the_armour_rule():
    """Digest, Defence classes: "Against artillery and air attacks armour
    keeps 50%, or 25% if open-topped ('U')". The same T-34 on a clear square
    under the m30's HE 10 marker and under the Il-2's bomb (firepower 9) is
    read on the column firepower - ceil(DV / 2) both times (the m30's fire is a
    barrage since session 11, two columns up: RULES.md Scenarios `barrage`)."""
    t34 = next(s for s in BASE["stands"] if s["id"] == "t34a")
    dv = BASE["types"][t34["type"]]["dv"]
    st = position({"t34a": {"at": [10, 1]}}, batteries=landing("m30", he(10, 1)), phase="artillery", turn=3,
                  artillery={"current": "m30", "step": "deviate"})
    play(st, "c:ok")
    assert chances(st)["crt:E"] == pytest.approx(p_le(10 - -(-dv // 2) + 2 + 1))      # + 2: a barrage
    sky = air_t.position({"t34a": {"at": [10, 1]}},
                         strike=air_t.strike("il2", "crt", kind="bomb", at=(10, 1), square=4),
                         phase="fire", turn=2)
    assert chances(sky)["crt:E"] == pytest.approx(p_le(9 - -(-dv // 2) + 1))


# ------------------------------------------------------------------ broken formations
def test_a_broken_formation_makes_no_new_artillery_plots():
    """Digest, Break points: "the formation breaks: -5 cohesion except for
    movement, fires only if fired on, no new artillery plots, airstrikes
    cancelled". In the joint plot phase the broken Soviet side's batteries
    get no decision; the German batteries plot as before."""
    cards = dict(BASE["cards"])
    cards["soviet"] = {**BASE["cards"]["soviet"], "broken": True, "broken_turn": 2}
    st = position({"pgra": {"at": [10, 3]}, "rfla": {"at": [20, 3]}}, phase="fire", turn=3, cards=cards,
                  passed=[True, False], active="soviet")
    play(st, "pass")
    assert st.to_dict()["phase"] == "plot" and st.to_dict()["artillery"]["current"] == "lefh"
    play(st, "hold", "hold")
    assert st.to_dict()["phase"] == "orders"                  # m30 is never asked


def test_fire_plotted_before_a_break_lands_at_the_broken_cohesion():
    """Digest, Break points: "-5 cohesion except for movement": the Soviet
    m30 fire plotted before its side broke still lands (only new plots
    stop); its 'to arrive' roll is made at cohesion 12 - 5 = 7."""
    cards = dict(BASE["cards"])
    cards["soviet"] = {**BASE["cards"]["soviet"], "broken": True, "broken_turn": 2}
    st = position({}, batteries=landing("m30", he(10, 1)), phase="artillery", turn=3, cards=cards,
                  artillery={"current": "m30", "step": "arrive"})
    assert chances(st) == pytest.approx({"c:ok": 7 / 20, "c:fail": 13 / 20})
    assert battery(st, "m30")["state"] == "plotted"


# ------------------------------------------------------------------ one joint plot phase
COMBINED = ardsearch.load_game("microarmour", scenario="combined")


def combined_position(stands, **top):
    """A state of the combined scenario (scenarios/combined.toml: batteries
    and aircraft on both sides) from {id: {field: value}} and top-level keys."""
    d = deployed(COMBINED.new_initial_state(seed=0).to_dict())
    d["stands"] = keep_only(d["stands"], stands)
    d.update(top)
    state = COMBINED.state_from_dict(d)
    check_reference(state)
    return state


def test_air_and_artillery_plots_share_one_joint_plot_phase():
    """Digest, Phases: "5 Joint Plot (artillery plotted for later turns)";
    "5. Joint Plot Phase - Players plot the points of impact for artillery
    fire to be in following turns"; "Bombing airstrikes ... are pre-plotted
    the same way". After standard fire one `plot` phase holds the Il-2's bomb
    plot for turn 2 and then every battery's plot decision; the orders
    follow."""
    st = combined_position({"pgra": {"at": [10, 3]}, "rfla": {"at": [20, 3]}}, phase="fire", turn=1,
                           passed=[True, False], active="soviet", first="german")
    play(st, "pass")
    d = st.to_dict()
    assert d["phase"] == "plot" and d["air"]["strike"]["step"] == "plot" and st.current_player() == 1
    play(st, "plot 4,4")
    d = st.to_dict()
    assert d["phase"] == "plot" and d["air"]["strike"] is None and d["artillery"]["current"] == "lefh"
    assert st.current_player() == 0
    play(st, "plot he 10,4")
    assert st.to_dict()["artillery"]["current"] == "m30" and st.current_player() == 1
    play(st, "hold")
    assert st.to_dict()["phase"] == "orders"


def test_the_batteries_fire_before_the_aircraft_strike():
    """Digest, Phases: "3 Artillery Fire/Air Strike" (RULES.md, Turn
    sequence: the artillery resolves first, then the aircraft). In turn 2
    the lefh fire due lands first; then the Il-2 chooses its strike."""
    st = combined_position({"pgra": {"at": [10, 3]}, "rfla": {"at": [20, 3]}}, phase="posture", turn=2,
                           passed=[True, False], active="soviet", first="german")
    d = st.to_dict()
    d["artillery"]["batteries"][0].update(state="plotted", mission={"kind": "he", "target": [10, 1], "prereg": None},
                                          lands=2, plot_turn=1)
    st = COMBINED.state_from_dict(d)
    play(st, "pass")
    assert st.to_dict()["phase"] == "artillery" and chances(st) == {"land:he 10,1": 1.0}
    play(st, "land:he 10,1", "c:fail")                    # lost on its 'to arrive' roll
    d = st.to_dict()
    assert d["phase"] == "fire" and d["air"]["strike"]["aircraft"] == "il2"


def test_a_broken_stand_passes_no_friend_it_could_not_step_off_toward_its_edge():
    """Digest, Break points: a broken formation "must move toward its friendly
    edge" (RULES.md, Broken formations: each step nearer the edge). A broken
    Soviet T-34 one square from the east edge may not step onto a friend
    standing on the edge (no step off it leads further east); unbroken, it
    may pass through. Found by an mcts bot in the barrage scenario."""
    import test_microarmour_rules as rules_t
    stands = {"t34a": {"at": [28, 3], "posture": "move", "mp": 20, "facing": "e"}, "rfla": {"at": [29, 3]}}
    top = dict(phase="movement", turn=2, active="soviet", first="soviet",
               mover={"id": "t34a", "step": "step", "ordered": True})
    whole = rules_t.position(stands, **top)
    assert "step e" in rules_t.moves(whole)
    cards = dict(rules_t.BASE["cards"])
    cards["soviet"] = {**rules_t.BASE["cards"]["soviet"], "broken": True, "broken_turn": 1}
    broken = rules_t.position(stands, cards=cards, **top)
    assert "step e" not in rules_t.moves(broken) and "step ne" in rules_t.moves(broken)
