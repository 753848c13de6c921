"""Micro Armour: the direct-fire weapon extras (RULES.md, "Weapons extras"), one
hand-built position per rule, each docstring quoting the digest
(shared/seeds/micro-armour.txt) words it checks. Every position is also
loaded into the reference model (check_reference), which must agree.

Positions use the `support` parameter's stands (scenarios/introductory.toml):
German mg (MG 34 MMG), grw (light mortar), schrk (Panzerschreck, D4), stug
(StuG III G, 'R'), ig (leIG 18, artillery with 2 HEAT rounds); Soviet maxim
(MMG), mrt (light mortar), how (122mm howitzer, artillery, big gun), aa (85mm
dual-purpose AA gun, big gun). Every stand not named is lost except the GHQs,
parked in far corners. Row y=3 of the map is clear.
"""
from __future__ import annotations

import os
import sys
from fractions import Fraction

import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import attack, chances, check_reference, deployed, keep_only, moves  # noqa: E402

CRT = ("-", "S", "(S)", "D", "E")


def spos(stands, params=None, **top):
    """A position of a game with the support stands and `params`."""
    params = {"support": True, **(params or {})}
    game = ardsearch.load_game("microarmour", **params)
    d = deployed(game.new_initial_state(seed=0).to_dict())
    d["stands"] = keep_only(d["stands"], stands)
    d.update(top)
    state = game.state_from_dict(d)
    check_reference(state)
    return state


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def column(cd, mod, no_effect_is_s=False, out_at=0):
    """The design CRT (contract: E r<=CD+1, D <=CD+3, (S) <=CD+5, S <=CD+7),
    worked out here from the 36 rolls of 2D6: {notation: probability}."""
    out = {}
    for a in range(1, 7):
        for b in range(1, 7):
            r = a + b + mod
            res = "E" if r <= cd + 1 else "D" if r <= cd + 3 else "(S)" if r <= cd + 5 else "S" if r <= cd + 7 else "-"
            if res == "-" and no_effect_is_s:
                res = "S"
            key = f"crt:{res}" + (":out" if a + b <= out_at else "")
            out[key] = out.get(key, 0) + Fraction(1, 36)
    return {k: float(v) for k, v in out.items()}


def crt_node(stands, firer, target, side="german", params=None, **top):
    return spos(stands, params, phase="fire", active=side, **attack([firer], target, step="crt", side=side), **top)


# ------------------------------------------------------------------ No Effect into S
def test_mmg_fire_turns_no_effect_into_s():
    """Digest *S and D*: "Artillery, MMG and light mortar fire turns 'No Effect'
    into S, so support weapons pin targets even when they do no damage." MG 34
    HE 5 against a rifle platoon (DV 5) at 4": CD 0, no range modifier."""
    st = crt_node({"mg": {"at": [5, 3]}, "rfla": {"at": [9, 3]}}, "mg", "rfla")
    assert chances(st) == pytest.approx(column(0, 0, no_effect_is_s=True))
    assert "crt:-" not in chances(st)


def test_light_mortar_fire_turns_no_effect_into_s():
    """Digest *S and D*: "Artillery, MMG and light mortar fire turns 'No Effect'
    into S". The Soviet light mortar (HE 3) at a Panzergrenadier platoon (DV 5) 6"
    away: CD -2, range +1."""
    st = crt_node({"mrt": {"at": [11, 3]}, "pgra": {"at": [5, 3]}}, "mrt", "pgra", side="soviet")
    assert chances(st) == pytest.approx(column(-2, 1, no_effect_is_s=True))
    st.apply("crt:S")
    assert stand(st, "pgra")["suppressed"]


def test_ordinary_fire_keeps_no_effect():
    """Digest *CRT*: results are "-, S, (S), D or E": a rifle platoon is not a
    support weapon, its misses stay '-'."""
    st = crt_node({"pgra": {"at": [5, 3]}, "rfla": {"at": [9, 3]}}, "pgra", "rfla")
    assert chances(st) == pytest.approx(column(4 - 5, 0))
    assert "crt:-" in chances(st)


def test_close_assault_by_an_mmg_is_not_fire():
    """Digest *Close assault* rolls are not fire (RULES.md): the MMG's "fire turns
    'No Effect' into S" does not apply to its close assault (CD 0 at -3: rolls 11
    and 12 stay '-')."""
    st = spos({"mg": {"at": [5, 3], "posture": "move", "mp": 4}, "rfla": {"at": [6, 3]}},
              phase="movement", active="german", orders=[3, 3], orders_rolled=2,
              mover={"id": "mg", "step": "step", "ordered": True, "stopped": False})
    st.apply("assault rfla")
    st.apply("c:fail")          # the firing-posture defender's strike misses
    st.apply("c:ok")
    assert chances(st) == pytest.approx(column(0, -3))


# ------------------------------------------------------------------ artillery pieces' direct fire
def test_artillery_direct_fire_ignores_range_modifiers():
    """Digest *Range*: "Artillery direct and indirect fire ignore range
    modifiers." The howitzer (HE 10) at a Panzergrenadier platoon (DV 5) 12" away:
    CD 5 with no +2; the ZiS-3 at the same range takes the +2."""
    st = crt_node({"how": {"at": [17, 3]}, "pgra": {"at": [5, 3]}}, "how", "pgra", side="soviet")
    assert chances(st) == pytest.approx(column(5, 0, no_effect_is_s=True))
    zis = crt_node({"zis": {"at": [17, 3]}, "pgra": {"at": [5, 3]}}, "zis", "pgra", side="soviet")
    assert chances(zis) == pytest.approx(column(0, 2))


def test_artillery_may_attack_below_minus_three():
    """Digest *CRT*: "If the difference is lower than -3 and not an artillery
    attack, it has no effect." The howitzer's AP 6 against a Pz IV's front (DV 12)
    is CD -6: it may still fire, on the -3 column (design), where its 'No Effect'
    is an S; the ZiS-3 (AP 8, CD -4) may not."""
    st = spos({"how": {"at": [12, 3]}, "zis": {"at": [12, 2]}, "pz4a": {"at": [5, 3], "facing": "e"}},
              phase="fire", active="soviet")
    assert "fire how>pz4a" in moves(st)
    assert "fire zis>pz4a" not in moves(st)
    st.apply("fire how>pz4a")
    st.apply("go")
    st.apply("c:ok")
    assert chances(st) == pytest.approx(column(-3, 0, no_effect_is_s=True))


# ------------------------------------------------------------------ big guns
def test_big_guns_fire_he_at_tanks_within_4_inches():
    """Digest *Defence classes*: "Optional rules add ... big guns firing HE at
    tanks within 4"." With big_gun_he the howitzer uses HE 10 against a Pz IV
    (DV 12 front) at 4" (CD -2) and its AP 6 at 5" (CD -6); without the option
    AP at any range."""
    def cd(at, on):
        st = spos({"how": {"at": at}, "pz4a": {"at": [5, 3], "facing": "e"}}, {"big_gun_he": on},
                  phase="fire", active="soviet")
        return ardsearch.games.microarmour._engine._combat_diff(st.raw(), "how", "pz4a")
    assert cd([9, 3], True) == 10 - 12
    assert cd([10, 3], True) == 6 - 12
    assert cd([9, 3], False) == 6 - 12


# ------------------------------------------------------------------ special AP and HEAT
def test_special_ap_is_x1_5_until_a_roll_of_5_or_less():
    """Digest *Defence classes*: "special AP ammunition (x1.5 AP, used up on a CRT
    roll of 5 or less)". With special_ap a Pz IV (AP 10) fires AP 15 at a T-34's
    front (DV 11): CD 4; an unmodified roll of 5 or less is `:out` and uses the
    ammunition up: AP 10 (CD -1) from then on."""
    stands = {"pz4a": {"at": [5, 3], "facing": "e"}, "t34a": {"at": [9, 3], "facing": "w"},
              "t34b": {"at": [9, 2], "facing": "w"}}
    st = crt_node(stands, "pz4a", "t34a", params={"special_ap": True})
    assert chances(st) == pytest.approx(column(4, 0, out_at=5))
    st.apply("crt:E:out")
    assert stand(st, "pz4a")["special_ap_used"]
    assert ardsearch.games.microarmour._engine._combat_diff(st.raw(), "pz4a", "t34b") == -1
    plain = crt_node(stands, "pz4a", "t34a")
    assert chances(plain) == pytest.approx(column(-1, 0))


def test_special_ap_kept_on_a_roll_above_5():
    """Digest *Defence classes*: "used up on a CRT roll of 5 or less": a roll of 6
    or more (outcomes without `:out`) keeps it."""
    st = crt_node({"pz4a": {"at": [5, 3], "facing": "e"}, "t34a": {"at": [9, 3], "facing": "w"}},
                  "pz4a", "t34a", params={"special_ap": True})
    st.apply("crt:D")
    assert not stand(st, "pz4a")["special_ap_used"]


def test_heat_rounds_are_limited():
    """Digest *Defence classes*: "Optional rules add ... limited HEAT rounds". With
    heat the leIG 18 (AP 3) fires HEAT (AP 8) at armour until its 2 rounds
    (weapons.toml) are fired, one a CRT roll; then AP 3 again."""
    stands = {"ig": {"at": [5, 3], "facing": "e", "heat_fired": 1}, "t34a": {"at": [9, 3], "facing": "w"}}
    st = crt_node(stands, "ig", "t34a", params={"heat": True})
    ma = ardsearch.games.microarmour._engine
    assert ma._combat_diff(st.raw(), "ig", "t34a") == 8 - 11
    assert chances(st) == pytest.approx(column(-3, 0, no_effect_is_s=True))
    st.apply("crt:S")
    assert stand(st, "ig")["heat_fired"] == 2
    assert ma._combat_diff(st.raw(), "ig", "t34a") == 3 - 11


# ------------------------------------------------------------------ D# depletion
def test_d_number_stand_loses_ap_on_a_low_unmodified_roll():
    """Digest *D#*: "A stand with a 'D#' (bazooka, PIAT, Panzerschreck) loses its
    AP ability for the rest of the game when an unmodified AP CRT roll is at or
    below #." The Panzerschreck (AP 12, D4) at a T-34 front (DV 11) 2" away: CD 1;
    rolls 2-4 are `:out`."""
    st = crt_node({"schrk": {"at": [7, 3]}, "t34a": {"at": [9, 3], "facing": "w"}}, "schrk", "t34a")
    assert chances(st) == pytest.approx(column(1, 0, out_at=4))
    st.apply("crt:D:out")
    assert stand(st, "schrk")["depleted"] and stand(st, "t34a")["disorganized"]
    later = spos({"schrk": {"at": [7, 3], "depleted": True}, "t34a": {"at": [9, 3], "facing": "w"},
                  "rfla": {"at": [8, 2], "posture": "move"}}, phase="fire", active="german")
    assert "fire schrk>t34a" not in moves(later)          # no AP for the rest of the game
    assert "fire schrk>rfla" in moves(later)              # its HE is untouched


def test_d_number_uses_the_unmodified_roll_and_only_ap():
    """Digest: "Whenever a stand marked with a “D#” ... uses its AP firepower and
    the unmodified CRT roll result is equal to or less than the number following
    the “D” the platoon is out of ammo": HE fire never depletes, and the
    parameter depletion=false turns the rule off."""
    he = crt_node({"schrk": {"at": [7, 3]}, "rfla": {"at": [9, 3], "posture": "move"}}, "schrk", "rfla")
    assert not any(k.endswith(":out") for k in chances(he))
    off = crt_node({"schrk": {"at": [7, 3]}, "t34a": {"at": [9, 3], "facing": "w"}}, "schrk", "t34a",
                   params={"depletion": False})
    assert chances(off) == pytest.approx(column(1, 0))


# ------------------------------------------------------------------ R weapons
def test_r_weapon_uses_printed_values_only_in_its_arc():
    """Digest *Facing*: "'R' weapons use their printed values only in the Firing
    Arc template and otherwise fight with infantry HQ values." The StuG faces
    east: a T-34 to its east is in reach of its AP 10 (range 20); behind it the
    infantry HQ values apply (AP 2 cannot hurt a T-34; range 4)."""
    st = spos({"stug": {"at": [10, 3], "facing": "e"}, "t34a": {"at": [14, 3], "facing": "w"},
               "t34b": {"at": [4, 3], "facing": "e"}, "rfla": {"at": [7, 2]}, "rflb": {"at": [4, 1]},
               "rflc": {"at": [16, 2]}}, phase="fire", active="german")
    m = moves(st)
    assert "fire stug>t34a" in m and "fire stug>rflc" in m     # in the arc: printed values
    assert "fire stug>t34b" not in m                            # behind: AP 2 vs DV 11
    assert "fire stug>rfla" in m                                # behind, 3": infantry HQ HE 3
    assert "fire stug>rflb" not in m                            # behind, 6": beyond the HQ's 4"
    ma = ardsearch.games.microarmour._engine
    assert ma._combat_diff(st.raw(), "stug", "rfla") == 3 - 5
    assert ma._combat_diff(st.raw(), "stug", "rflc") == 5 - 5


# ------------------------------------------------------------------ dual-purpose AA
def test_dual_purpose_aa_uses_wider_range_bands():
    """Digest *Range*: "The chart gives -1 at 1" or less, 0 at 2-5", +1 at 6-10",
    +2 at 11-15" and a further +1 per extra 5"; dual-purpose AA guns use wider
    bands." The 85mm AA gun (AP 10) at a Pz IV front (DV 12): 0 at 8" (design band
    2-8"), +1 at 16" (9-16"), where a PaK would take +1 and +3."""
    near = crt_node({"aa": {"at": [13, 3]}, "pz4a": {"at": [5, 3], "facing": "e"}}, "aa", "pz4a", side="soviet")
    assert chances(near) == pytest.approx(column(-2, 0))
    far = crt_node({"aa": {"at": [21, 3]}, "pz4a": {"at": [5, 3], "facing": "e"}}, "aa", "pz4a", side="soviet")
    assert chances(far) == pytest.approx(column(-2, 1))


# ------------------------------------------------------------------ notation and bad states
def test_out_outcomes_round_trip_in_notation():
    st = crt_node({"schrk": {"at": [7, 3]}, "t34a": {"at": [9, 3], "facing": "w"}}, "schrk", "t34a")
    for a, _ in st.chance_outcomes():
        text = st.action_to_string(a)
        assert st.string_to_action(text) == a
    assert st.string_to_action("crt:(S):out") == 1814 + 2    # A_CRT_OUT (RULES.md, Notation)


def test_ammunition_marks_that_do_not_fit_are_refused():
    """A Pz IV has no D#: a state saying it is depleted is refused, naming the
    problem; so is special AP marked used while the option is off."""
    game = ardsearch.load_game("microarmour")
    d = game.new_initial_state(seed=0).to_dict()
    d["stands"][2]["depleted"] = True
    with pytest.raises(ValueError, match="ammunition marks"):
        game.state_from_dict(d)
    d["stands"][2]["depleted"] = False
    d["stands"][2]["special_ap_used"] = True
    with pytest.raises(ValueError, match="ammunition marks"):
        game.state_from_dict(d)


def test_support_stands_only_with_the_support_parameter():
    """The support stands are not in the Introductory order of battle: listing one
    in a game without support=true is refused."""
    game = ardsearch.load_game("microarmour")
    d = game.new_initial_state(seed=0).to_dict()
    assert "mg" not in {s["id"] for s in d["stands"]}
    with_support = ardsearch.load_game("microarmour", support=True).new_initial_state(seed=0).to_dict()
    d["stands"].append(next(s for s in with_support["stands"] if s["id"] == "mg"))
    d["support"] = False
    with pytest.raises(ValueError, match="support"):
        game.state_from_dict(d)


def test_mmg_opportunity_fire_pins_a_mover_even_on_no_effect():
    """Digest *S and D*: MMG fire turns 'No Effect' into S, "so support weapons
    pin targets even when they do no damage"; *Opportunity fire*: "Any S, (S) or D
    result forces the mover to pass cohesion or stop". The Maxim (HE 5) fires at
    a Panzergrenadier platoon moving in the open (DV 5 halved to 3 out of firing
    posture) 6" away: CD 2, range +1, and every roll is at least an S."""
    st = spos({"pgra": {"at": [5, 3], "posture": "move", "mp": 8}, "maxim": {"at": [12, 3]}},
              phase="movement", active="german", orders=[3, 3], orders_rolled=2,
              mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    st.apply("step e")
    assert set(moves(st)) == {"fire maxim>pgra", "pass"}
    st.apply("fire maxim>pgra")
    st.apply("go")
    st.apply("c:ok")
    assert chances(st) == pytest.approx(column(2, 1, no_effect_is_s=True))
    st.apply("crt:S")
    assert st.to_dict()["mover"]["step"] == "stopcheck"


def test_hot_shot_shifts_columns_but_not_the_unmodified_roll():
    """Digest *Cohesion*: "a natural 1 on a fire roll shifts two CRT columns ('Hot
    Shot')"; *D#*: depletion reads "an unmodified AP CRT roll": with a Hot Shot
    the Panzerschreck's CD 1 attack is read on column 3, yet only 2D6 rolls of 4 or
    less are `:out`."""
    st2 = spos({"schrk": {"at": [7, 3]}, "t34a": {"at": [9, 3], "facing": "w"}}, {"hot_shot": True},
               phase="fire", active="german", **attack(["schrk"], "t34a", step="tofire"))
    st2.apply("c:n1")
    assert chances(st2) == pytest.approx(column(3, 0, out_at=4))


def test_special_ap_is_rounded_down():
    """Digest: "special AP ammunition (x1.5 AP ...)": a PaK 40's AP 11 becomes 16
    (16.5 rounded down, design) against a T-34's front (DV 11): CD 5."""
    st = spos({"pak": {"at": [5, 3], "facing": "e"}, "t34a": {"at": [9, 3], "facing": "w"}}, {"special_ap": True},
              phase="fire", active="german")
    assert ardsearch.games.microarmour._engine._combat_diff(st.raw(), "pak", "t34a") == 16 - 11


def test_depletion_lasts_for_the_rest_of_the_game():
    """Digest *D#*: "loses its AP ability for the rest of the game": the mark
    survives the end of the turn (the other marks of the turn are cleared)."""
    st = spos({"schrk": {"at": [7, 3], "depleted": True, "fired": True}}, phase="movement", active="german",
              orders=[0, 0], orders_rolled=2)
    st.apply("pass")
    st.apply("pass")
    s = stand(st, "schrk")
    assert st.to_dict()["turn"] == 2 and s["depleted"] and not s["fired"]


def test_each_firer_of_an_attack_keeps_its_own_weapon_rules():
    """Digest *To fire*: "Each stand in an attack rolls its own 'to fire' cohesion
    check" (and its own CRT roll): in one attack by the MG 34 and a
    Panzergrenadier platoon, only the MMG's roll turns 'No Effect' into S."""
    st = spos({"mg": {"at": [5, 3]}, "pgra": {"at": [5, 2]}, "rfla": {"at": [9, 3]}},
              phase="fire", active="german", **attack(["pgra", "mg"], "rfla", step="crt"))
    assert chances(st) == pytest.approx(column(4 - 5, 0))     # the platoon first (stand order)
    st.apply("crt:-")
    st.apply("c:ok")                                   # the MMG's own 'to fire'
    assert chances(st) == pytest.approx(column(5 - 5, 0, no_effect_is_s=True))


def test_a_corrupt_stand_type_is_refused_before_its_ammunition_is_read():
    """Corrupt bytes are refused, never read out of bounds: a stand whose type
    byte names no weapon (with the ammunition rules in play) is refused by the
    stand check; the ammunition check no longer indexes the weapon tables with
    it (an UBSan report in the sanitizer run's corrupted-state tests)."""
    game = ardsearch.load_game("microarmour", deployment="close", support=True, special_ap=True,
                               heat=True, big_gun_he=True)
    raw = bytearray(game.new_initial_state(seed=3).raw())
    stands = len(raw) - 32 * 8          # Stand st[32] ends the state, 8 bytes each
    assert raw[stands] != 255           # slot 0 holds a stand
    raw[stands] = 200                   # its type: past every weapon in the tables
    with pytest.raises(ValueError):
        game.state_from_raw(bytes(raw))
