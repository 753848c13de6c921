"""Micro Armour: indirect artillery and smoke (RULES.md, Indirect artillery),
one hand-built position per rule in the barrage scenario
(scenarios/barrage.toml), set up with game.state_from_dict and checked
through the public API; every position is also loaded into the reference
model (tests/reference/microarmour.py), which must agree (check_reference).
Each docstring quotes the rulebook digest (shared/seeds/micro-armour.txt).

Positions: every stand not named is lost, except the two GHQs: the German in
the woods at (3,6), where it sees nothing beyond them (so that only the
stands named plot), the Soviet at (29,19). Batteries (barrage.toml): German
lefh (10.5 cm, HE 8, 3 sections, closed sheaf, FO pgra, smoke), sfh (15 cm,
HE 11, 2 sections, open sheaf, FO ghq, barrage, markers stay 2 turns);
Soviet m30 (122 mm, HE 10, 3 sections, open, FO rfla, smoke, barrage since
session 11), zisb (76 mm,
HE 5: the on-board ZiS-3 gun `zis`, 1 section, FO shq; it plots only while
the gun lives). Plot cells are 3" squares aimed at
their centres: x and y in 1, 4, 7, ... Clear rows y=0 and y=3; woods at
(14..16, 4..5).
"""
from __future__ import annotations

import copy
import os
import random
import sys
import tempfile
from fractions import Fraction

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC, _data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import check_reference, chances, deployed, keep_only, moves, play  # noqa: E402

GAME = ardsearch.load_game("microarmour", scenario="barrage")
BASE = deployed(GAME.new_initial_state(seed=0).to_dict())
TWO_D6 = {r: Fraction(6 - abs(r - 7), 36) for r in range(2, 13)}


def position(stands, batteries=None, artillery=None, **top):
    """A barrage-scenario state from {id: {field: value}}, battery updates
    {id: {field: value}} (the to_dict battery schema) and top-level keys."""
    d = copy.deepcopy(BASE)
    d["stands"] = keep_only(d["stands"], stands, ghq_at=((3, 6), (29, 19)))
    for b in d["artillery"]["batteries"]:
        b.update((batteries or {}).get(b["id"], {}))
    d["artillery"].update(artillery or {})
    d.update(top)
    state = GAME.state_from_dict(d)
    check_reference(state)
    return state


def he(x, y):
    return {"kind": "he", "target": [x, y], "prereg": None}


def smoke(x, y):
    return {"kind": "smoke", "target": [x, y], "prereg": None}


def landing(bid, mission, turn=3, **extra):
    """Battery bid's fire due now, in the artillery phase of `turn`."""
    return {bid: {"state": "plotted", "mission": mission, "lands": turn, "plot_turn": turn - 2, **extra}}


def active(bid, mission, at=None, left=1):
    return {bid: {"state": "active", "mission": mission, "markers": [at or mission["target"]], "turns_left": left}}


def battery(state, bid):
    return next(b for b in state.to_dict()["artillery"]["batteries"] if b["id"] == bid)


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def crt(cd, mod=0, artillery=True):
    """The design CRT (charts.toml): E r<=cd+1, D r<=cd+3, (S) r<=cd+5, S r<=cd+7,
    else No Effect (S for artillery)."""
    cd = max(-3, min(9, cd))
    out = {}
    for r, p in TWO_D6.items():
        k = r + mod
        res = "E" if k <= cd + 1 else "D" if k <= cd + 3 else "(S)" if k <= cd + 5 else "S" if k <= cd + 7 else "-"
        if res == "-" and artillery:
            res = "S"
        out[f"crt:{res}"] = out.get(f"crt:{res}", 0) + p
    return {k: float(v) for k, v in out.items()}


# ------------------------------------------------------------------ the turn sequence
def test_artillery_fire_comes_before_standard_fire_and_joint_plot_after_it():
    """Digest, Phases: "2 Posture Determination; 3 Artillery Fire/Air Strike;
    4 Standard Fire; 5 Joint Plot (artillery plotted for later turns);
    6 Movement". "All fire happens before movement, and artillery has its own
    phase ahead of direct fire.\""""
    st = position({"pgra": {"at": [10, 3]}}, batteries=landing("lefh", he(10, 1)), phase="posture", turn=3)
    play(st, "pass", "pass")
    assert st.to_dict()["phase"] == "artillery"
    assert chances(st) == {"land:he 10,1": 1.0}
    st = position({"pgra": {"at": [10, 3]}}, phase="fire", turn=3)
    play(st, "pass", "pass")
    d = st.to_dict()
    assert d["phase"] == "plot" and d["artillery"]["current"] == "lefh" and st.current_player() == 0
    play(st, "hold", "hold")                   # the German batteries, then the Soviet ones
    assert st.current_player() == 1 and st.to_dict()["artillery"]["current"] == "m30"
    play(st, "hold")                           # (zisb: its gun is lost, no decision)
    assert st.to_dict()["phase"] == "orders"


def test_the_introductory_scenario_has_no_artillery_phases():
    """Design (RULES.md): phases 3 and 5 exist only where the scenario has
    batteries; the Introductory scenario plays as before."""
    g = ardsearch.load_game("microarmour")
    st = g.new_initial_state(seed=1)
    seen = set()
    rng = random.Random(1)
    while not st.is_terminal() and st.to_dict()["turn"] < 3:
        seen.add(st.to_dict()["phase"])
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert "artillery" not in seen and "plot" not in seen and st.to_dict()["artillery"] is None


# ------------------------------------------------------------------ plotting
def test_plots_need_an_fo_or_hq_with_line_of_sight_to_the_point():
    """Digest: "Indirect missions are plotted by an FO or HQ with LOS"; LOS
    "may enter blocking terrain but not pass through it"."""
    st = position({"pgra": {"at": [19, 4]}}, phase="plot", turn=2)
    legal = moves(st)
    assert "plot he 19,4" in legal and "plot he 22,4" in legal and "plot smoke 19,4" in legal
    assert "plot he 16,4" in legal                 # into the woods (14..16, 4): LOS may enter
    assert "plot he 13,4" not in legal             # through the woods: no
    # without its FO the battery is plotted by an HQ (here the German HQ)
    st = position({"ghq": {"at": [19, 3]}}, phase="plot", turn=2)
    assert "plot he 19,4" in moves(st) and "plot he 25,4" in moves(st)
    # neither FO nor HQ sees anything from the woods: only pre-registered calls
    st = position({}, phase="plot", turn=2)
    assert sorted(moves(st)) == sorted(["hold", "plot he pre1", "plot he pre2", "plot smoke pre1",
                                        "plot smoke pre2"])


def test_plots_reach_no_further_than_the_turns_sighting():
    """Digest: "Indirect missions are plotted by an FO or HQ with LOS";
    Weather: "Light rain cuts sighting to 3D6", ... rolled at the start of
    the turn" and "At night ... sighting is typically 1-5", 10" at most"
    (RULES.md, Weather and night: "The turn's sighting limits spotting and
    fire"). The FO sees no further than the turn's sighting, so it plots no
    further: with light rain rolled at 3" the FO at (19,4) plots the cells
    within 3" (19,4 and 22,4 and 19,7 ...) and no longer 28,4 or 7,1 (9" and
    12" away), which it plots when the rain's roll is 18". Pre-registered calls need no LOS."""
    game = ardsearch.load_game("microarmour", scenario="barrage", weather="light_rain")
    d = copy.deepcopy(deployed(game.new_initial_state(seed=0).to_dict()))
    d["stands"] = keep_only(d["stands"], {"pgra": {"at": [19, 4]}}, ghq_at=((3, 6), (29, 19)))
    d.update(phase="plot", turn=2)
    d["conditions"] = dict(d["conditions"], sighting=3, sighting_turn=2)
    st = game.state_from_dict(d)
    check_reference(st)
    legal = moves(st)
    assert {"plot he 19,4", "plot he 22,4", "plot he 19,7", "plot he 16,1", "plot he 19,1"} <= set(legal)
    assert "plot he 28,4" not in legal and "plot he 7,1" not in legal and "plot he 19,10" not in legal
    assert "plot he pre1" in legal
    assert max(max(abs(x - 19), abs(y - 4)) for x, y in
               (map(int, m.split()[2].split(",")) for m in legal if m.startswith("plot he ") and "pre" not in m)) == 3
    d["conditions"] = dict(d["conditions"], sighting=18)       # the rain's best roll: 3D6 = 18
    far = game.state_from_dict(d)
    check_reference(far)
    assert "plot he 28,4" in moves(far) and "plot he 7,1" in moves(far)


def test_plots_from_higher_ground_reach_five_inches_further_a_level():
    """Contract, Table: "Higher ground: +5" sighting per level"; digest: "Units on higher
    ground gain 5" of sighting per level" and "Indirect missions are plotted by an FO or
    HQ with LOS" (RULES.md, Line of sight, Higher ground: the observer's levels above
    the point; Joint Plot phase: the same limit as on fire). With light rain rolled at
    3" the FO on the hill ((15,14), level 1) plots cells up to 3 + 5 = 8" away below it
    (22,13 at 7", 7,7 at 8") and none further (25,13 at 10"); on level ground ((19,16))
    it plots only within 3"."""
    game = ardsearch.load_game("microarmour", scenario="barrage", weather="light_rain")

    def plots_from(at):
        d = copy.deepcopy(deployed(game.new_initial_state(seed=0).to_dict()))
        d["stands"] = keep_only(d["stands"], {"pgra": {"at": at}}, ghq_at=((3, 6), (29, 19)))
        d.update(phase="plot", turn=2)
        d["conditions"] = dict(d["conditions"], sighting=3, sighting_turn=2)
        st = game.state_from_dict(d)
        check_reference(st)
        return {tuple(map(int, m.split()[2].split(","))) for m in moves(st)
                if m.startswith("plot he ") and "pre" not in m}

    hill = plots_from([15, 14])
    assert {(22, 13), (7, 7), (16, 13)} <= hill and (25, 13) not in hill
    assert max(max(abs(x - 15), abs(y - 14)) for x, y in hill) == 8
    flat = plots_from([19, 16])
    assert (22, 19) in flat and max(max(abs(x - 19), abs(y - 16)) for x, y in flat) == 3


def test_the_opponents_plot_is_hidden_until_it_lands():
    """Digest, Joint Plot: "Players plot the points of impact for artillery
    fire to be in following turns" (secretly: each side's plot is its own).
    The opponent sees `?` in its masked history and view."""
    st = position({"pgra": {"at": [13, 4]}}, phase="plot", turn=2)
    play(st, "plot he 10,4")
    view = st.view(1)
    b = battery(view, "lefh")
    assert b["state"] == "hidden" and b["mission"] is None
    assert battery(st.view(0), "lefh")["mission"] == he(10, 4)
    assert "plotted he 10,4" in str(st.view(0)) and "?" in str(view) and "10,4" not in str(view)
    # a determinization of the Soviet's view is a valid full state with some decision there
    full = st.resample_from_infostate(1, seed=3)
    assert battery(full, "lefh")["state"] in ("held", "plotted")


def test_arrival_delay_by_nationality():
    """Digest: indirect missions "arrive 1 (US, late UK), 2 (German, early
    UK) or 3 (others) turns later"."""
    assert _data.load_charts()["artillery"]["delay"] == {"us": 1, "uk_late": 1, "german": 2, "uk_early": 2,
                                                         "other": 3}
    st = position({"pgra": {"at": [13, 4]}, "rfla": {"at": [20, 3]}}, phase="plot", turn=2)
    play(st, "plot he 10,4", "hold", "plot he 19,1")       # (zisb: its gun is lost)
    assert battery(st, "lefh")["lands"] == 4       # German: 2 turns later
    assert battery(st, "m30")["lands"] == 5        # Soviet ("other"): 3 turns later


def test_pre_registered_call_lands_next_turn_at_minus_2():
    """Digest: "Mission types are support, pre-registered (-2, 1-turn
    call), ..."; Joint Plot: players "also record 'calls' for pre-registered
    indirect artillery fire"."""
    st = position({}, phase="plot", turn=2)
    play(st, "plot he pre1")
    assert battery(st, "lefh")["lands"] == 3
    st = position({}, batteries=landing("lefh", {"kind": "he", "target": [13, 10], "prereg": 1}),
                  phase="artillery", turn=3, artillery={"current": "lefh", "step": "arrive"})
    assert chances(st) == pytest.approx({"c:ok": 17 / 20, "c:fail": 3 / 20})   # cohesion 15, -2


def test_pre_registered_points_by_force_cohesion_are_data():
    """Digest, Cohesion: force cohesion sets "how many dummy minefields and
    pre-registered targets a force gets" (numbers: design, charts.toml)."""
    charts = _data.load_charts()
    assert [_data.prereg_allowed(charts, c) for c in (9, 12, 15, 18)] == [0, 1, 2, 3]


# ------------------------------------------------------------------ landing: arrival and deviation
def test_to_arrive_roll_and_a_failure_loses_the_fire():
    """Digest: missions "need 'to arrive' and 'to deviate' cohesion rolls";
    Cohesion: "The same roll gates ... artillery arrival and deviation"."""
    st = position({"t34a": {"at": [10, 1]}}, batteries=landing("lefh", he(10, 1)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "reveal"})
    play(st, "land:he 10,1")
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    play(st, "c:fail")
    assert battery(st, "lefh")["state"] == "none" and stand(st, "t34a")["suppressed"] is False


def test_deviation_is_1d8_direction_and_1d8_over_2_inches_doubled_on_a_natural_20():
    """Digest: "Deviation is 1D8 direction and 1D8/2 inches"; the 'to deviate'
    roll is a cohesion roll; issue 11: "natural 20 doubles the deviation"."""
    st = position({}, batteries=landing("lefh", he(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 4 / 20, "c:n20": 1 / 20})
    st2 = st.clone()
    play(st, "c:fail")
    ch = chances(st)
    assert len(ch) == 32 and all(p == pytest.approx(1 / 32) for p in ch.values())
    assert {k[4:].rstrip("0123456789") for k in ch} == set(_data.DIRS)
    assert {int(k.lstrip("dev:nsew")) for k in ch} == {1, 2, 3, 4}
    play(st, "dev:ne3")
    assert battery(st, "lefh")["markers"] == [[13, 10]] * 3
    play(st2, "c:n20")
    assert {int(k.lstrip("dev:nsew")) for k in chances(st2)} == {2, 4, 6, 8}
    play(st2, "dev:w8")
    assert battery(st2, "lefh")["markers"] == [[2, 7]] * 3


def test_fire_deviating_off_the_table_is_lost():
    """Design (RULES.md): a point of impact off the table lands nowhere."""
    st = position({}, batteries=landing("lefh", he(1, 1)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "scatter"})
    play(st, "dev:sw4")
    assert battery(st, "lefh")["state"] == "none" and st.to_dict()["phase"] == "fire"


def test_adjusted_fire_deviates_less():
    """Digest: mission types include "adjusted" fire (design: -2 to deviate
    when aimed at the battery's last landed target)."""
    st = position({}, batteries=landing("lefh", he(10, 7), last=he(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    assert chances(st) == pytest.approx({"c:ok": 17 / 20, "c:fail": 2 / 20, "c:n20": 1 / 20})


# ------------------------------------------------------------------ sheafs and impact attacks
def test_closed_and_open_sheafs_place_one_marker_per_section():
    """Digest: "Each battery section places one 1" impact marker in a closed
    (one spot) or open (line) sheaf"."""
    st = position({}, batteries=landing("lefh", he(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    assert battery(st, "lefh")["markers"] == [[10, 7]] * 3          # closed: 3 sections on one spot
    st = position({}, batteries=landing("sfh", he(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "sfh", "step": "deviate"})
    play(st, "c:ok")
    assert battery(st, "sfh")["markers"] == [[10, 7], [11, 7]]      # open: a line
    assert "X" in str(st).splitlines()[13]                            # the board row y=7


def test_every_stand_under_a_marker_is_attacked_friend_or_foe():
    """Digest: "The markers attack every stand under them, friend or foe";
    "All stands in an artillery impact sheaf are subject to attack,
    regardless of nationality"."""
    st = position({"pgrb": {"at": [10, 7]}, "rflb": {"at": [11, 7]}}, batteries=landing("sfh", he(10, 7)),
                  phase="artillery", turn=3, artillery={"current": "sfh", "step": "deviate"})
    play(st, "c:ok")
    d = st.to_dict()["artillery"]
    assert d["step"] == "hit" and d["marker"] == 0         # the German under the first marker
    play(st, "crt:(S)")
    assert stand(st, "pgrb")["suppressed"] and st.to_dict()["artillery"]["marker"] == 1
    play(st, "crt:D")
    assert stand(st, "rflb")["disorganized"] and st.to_dict()["phase"] == "fire"


def test_a_closed_sheaf_attacks_once_per_section():
    """Digest: each section places one marker; every marker attacks the stand
    under it (a closed sheaf's markers lie on one spot)."""
    st = position({"rflb": {"at": [10, 7]}}, batteries=landing("lefh", he(10, 7)), phase="artillery",
                  turn=3, artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok", "crt:S", "crt:S")
    assert st.to_dict()["artillery"]["marker"] == 2 and st.to_dict()["phase"] == "artillery"
    play(st, "crt:S")
    assert st.to_dict()["phase"] == "fire"


def test_armour_keeps_half_its_defence_against_artillery_and_open_topped_a_quarter():
    """Digest, Defence classes: "Against artillery and air attacks armour
    keeps 50%, or 25% if open-topped ('U')"; artillery ignores range
    modifiers: "Artillery direct and indirect fire ignore range modifiers"."""
    st = position({"pz4a": {"at": [10, 3]}}, batteries=active("lefh", he(10, 4), at=[10, 3]), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "hit", "marker": 0})
    assert chances(st) == pytest.approx(crt(8 - 6))             # Pz IV DV 12 -> 6
    st = position({"htka": {"at": [10, 3]}}, batteries=active("lefh", he(10, 4), at=[10, 3]), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "hit", "marker": 0})
    assert chances(st) == pytest.approx(crt(8 - 2))             # half-track DV 6, open-topped -> 2


def test_artillery_turns_no_effect_into_s():
    """Digest: "Artillery, MMG and light mortar fire turns 'No Effect' into
    S, so support weapons pin targets even when they do no damage"."""
    st = position({"t34a": {"at": [10, 3]}}, batteries=active("zisb", he(10, 4), at=[10, 3]), phase="artillery", turn=3,
                  artillery={"current": "zisb", "step": "hit", "marker": 0})
    assert "crt:-" not in chances(st) and "crt:S" in chances(st)


def test_artillery_attacks_use_the_target_terrain_but_no_range_modifier():
    """Digest: "Target terrain modifiers apply to both the 'to fire' cohesion
    roll and the CRT roll"; "Artillery direct and indirect fire ignore range
    modifiers"."""
    st = position({"pz4a": {"at": [16, 4]}}, batteries=active("zisb", he(16, 4)), phase="artillery", turn=3,
                  artillery={"current": "zisb", "step": "hit", "marker": 0})
    assert chances(st) == pytest.approx(crt(5 - 6, mod=3))      # HE 5 on a Pz IV (6) in woods (+3)


def test_barrage_fire_shifts_two_columns():
    """Digest: mission types include "barrage (+2 CRT)" (design: two columns
    in the attacker's favour, as the Hot Shot's shift)."""
    st = position({"t34a": {"at": [10, 3]}}, batteries=active("sfh", he(10, 4), at=[10, 3]), phase="artillery", turn=3,
                  artillery={"current": "sfh", "step": "hit", "marker": 0})
    assert chances(st) == pytest.approx(crt(11 - 6 + 2))        # HE 11, T-34 DV 11 -> 6, +2 columns


def test_multi_turn_markers_attack_again_next_turn_then_go():
    """Digest: mission types include "multi-turn duration"; Marker Removal
    removes markers (design: a battery's duration in turns, barrage.toml)."""
    st = position({"t34a": {"at": [10, 3]}}, batteries=active("sfh", he(10, 4), at=[10, 3], left=2),
                  phase="posture", turn=3)
    play(st, "pass", "pass")
    d = st.to_dict()
    assert d["phase"] == "artillery" and d["artillery"]["step"] == "hit"
    st = position({}, batteries=active("sfh", he(10, 4), at=[10, 3], left=2), phase="movement", turn=3)
    play(st, "pass", "pass")                       # marker removal: one turn less
    assert st.to_dict()["turn"] == 4 and battery(st, "sfh")["turns_left"] == 1
    st = position({}, batteries=active("sfh", he(10, 4), at=[10, 3], left=1), phase="movement", turn=3)
    play(st, "pass", "pass")
    assert battery(st, "sfh")["state"] == "none" and battery(st, "sfh")["markers"] == []


def test_a_stand_moving_into_an_impact_area_is_attacked():
    """Digest: the markers attack every stand under them "and any stand that
    moves in during the turn"; "Stands that move into an impact marker in the
    following Movement Phase also roll for effect"."""
    st = position({"t34a": {"at": [12, 3], "posture": "move", "mp": 28}, "ghq": {"at": [12, 19]}},
                  batteries=active("lefh", he(10, 4), at=[10, 3]), phase="movement", turn=3, active="soviet",
                  first="soviet", mover={"id": "t34a", "step": "step", "ordered": True})
    play(st, "step w")
    assert st.to_dict()["mover"]["step"] == "step"              # (11,3): no marker
    play(st, "step w")
    d = st.to_dict()
    assert d["mover"]["step"] == "artillery" and st.is_chance_node()
    assert chances(st) == pytest.approx(crt(8 - 6))
    play(st, "crt:S", "crt:S", "crt:S")                         # three sections
    assert st.to_dict()["mover"]["step"] == "step" and stand(st, "t34a")["suppressed"]


def test_a_stand_retreating_into_an_impact_area_is_attacked():
    """Digest: the markers attack every stand under them "and any stand that
    moves in during the turn", "friend or foe". A Soviet rifle stand beaten
    in a close assault (a D: it must retreat 1") retreats east onto 7,3, under
    the German lefh's three markers (closed sheaf, still down this turn):
    each attacks it (HE 8 against DV 5: CD 3), then the assault is over."""
    st = position({"pgra": {"at": [5, 3], "posture": "move", "mp": 4}, "rfla": {"at": [6, 3], "fired": True}},
                  batteries=active("lefh", he(7, 4), at=[7, 3]), phase="movement", turn=3, active="german",
                  first="german", mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    play(st, "assault rfla", "c:ok", "crt:-", "c:ok", "crt:D")
    assert st.to_dict()["mover"]["step"] == "retreat" and "retreat e" in moves(st)
    play(st, "retreat e")
    d = st.to_dict()
    assert d["mover"]["step"] == "artillery_retreat" and d["mover"]["close_target"] == "rfla"
    assert stand(st, "rfla")["at"] == [7, 3] and st.is_chance_node()
    assert chances(st) == pytest.approx(crt(8 - 5))
    play(st, "crt:S", "crt:S")
    assert st.to_dict()["mover"]["step"] == "artillery_retreat"     # the third marker
    play(st, "crt:S")
    assert st.to_dict()["mover"] is None and stand(st, "rfla")["alive"]


def test_a_stand_retreating_onto_a_clear_square_is_not_attacked():
    """The same retreat with the lefh's markers one square further east: the
    assault ends at once (only a square under a marker is an impact area)."""
    st = position({"pgra": {"at": [5, 3], "posture": "move", "mp": 4}, "rfla": {"at": [6, 3], "fired": True}},
                  batteries=active("lefh", he(7, 4), at=[8, 3]), phase="movement", turn=3, active="german",
                  first="german", mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    play(st, "assault rfla", "c:ok", "crt:-", "c:ok", "crt:D", "retreat e")
    assert st.to_dict()["mover"] is None


# ------------------------------------------------------------------ smoke, markers and LOS
def test_smoke_missions_are_turns_times_0_3_rounded_down():
    """Digest: "Each artillery stand has smoke missions equal to scenario turns
    x 0.3 (rounded down), recorded by stand"."""
    assert [b["smoke_left"] for b in BASE["artillery"]["batteries"]] == [6, 0, 6, 0]   # 20 turns; sfh, zis no 'S'
    st = position({"pgra": {"at": [13, 4]}}, batteries={"lefh": {"smoke_left": 0}}, phase="plot", turn=2)
    assert not any(m.startswith("plot smoke") for m in moves(st))
    st = position({}, batteries=landing("lefh", smoke(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    b = battery(st, "lefh")
    assert b["smoke_left"] == 5 and b["turns_left"] == 2 and "&" in str(st)     # one of its 6 missions used


def test_smoke_and_impact_markers_block_los_and_add_3_to_fire_into_or_out_of_them():
    """Digest, LOS: "Smoke and impact markers block LOS and add +3 to fire
    into or out of them"."""
    stands = {"pz4a": {"at": [5, 3], "facing": "e"}, "t34a": {"at": [12, 3], "facing": "w"}}
    st = position(stands, phase="fire", turn=3)
    assert "fire pz4a>t34a" in moves(st)
    st = position(stands, batteries=active("lefh", smoke(7, 4), at=[8, 3]), phase="fire", turn=3)
    assert "fire pz4a>t34a" not in moves(st)                     # LOS passes through smoke
    st = position(stands, batteries=active("lefh", smoke(13, 4), at=[12, 3]), phase="fire", turn=3)
    assert "fire pz4a>t34a" in moves(st)                         # into smoke: LOS may enter
    play(st, "fire pz4a>t34a", "go")
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})   # 15, +3 into smoke
    st = position(stands, batteries=active("lefh", he(4, 4), at=[5, 3]), phase="fire", turn=3)
    play(st, "fire pz4a>t34a", "go")
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})   # +3 out of the impact area


# ------------------------------------------------------------------ scenario data refused on load
def _scenario(text):
    f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    f.write(text)
    f.close()
    return f.name


def _load_text(text):
    """load_scenario on `text` written to a temporary file: (the scenario, the file's name)."""
    path = _scenario(text)
    try:
        return _data.load_scenario(path=path), os.path.basename(path)
    finally:
        os.unlink(path)


def _refusal(text):
    """The one-line message load_scenario refuses `text` with, and the file's name."""
    path = _scenario(text)
    try:
        with pytest.raises(ValueError) as e:
            _data.load_scenario(path=path)
    finally:
        os.unlink(path)
    return str(e.value), os.path.basename(path)


GOOD = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "barrage.toml")).read()


@pytest.mark.parametrize("change,key,words", [
    (('observer = "pgra"\n', ''), "battery[0].observer", "without an observer"),
    (('observer = "pgra"', 'observer = "rfla"'), "battery[0].observer", "a stand of side german"),
    (("prereg = [[13, 10], [22, 16]]", "prereg = [[13, 10], [31, 16]]"), "side.german.prereg[1]", "on the table"),
    (("prereg = [[13, 10], [22, 16]]", "prereg = [[13, 10], [21, 15]]"), "side.german.prereg[1]",
     "the aiming square of a plot cell, as every plot (here [22, 16])"),
    (("prereg = [[13, 10], [22, 16]]", "prereg = [[13, 10], [13, 10]]"), "side.german.prereg[1]", "not listed twice"),
    (("prereg = [[16, 10]]", "prereg = [[16, 10], [4, 4]]"), "side.soviet.prereg", "at most 1"),
    (('nationality = "german"', 'nationality = "prussian"'), "side.german.nationality", "one of"),
    (('type = "ger_105"', 'type = "pz4h"'), "battery[0].type", "indirect-fire"),
    (("sections = 3", "sections = 4"), "sections", "1 to 3"),
    (('sheaf = "closed"', 'sheaf = "wide"'), "battery[0].sheaf", "closed"),
    (('\nbase = "introductory"', '\nbase = "barrage"'), "base", "introductory"),
    (("\nturns = 20", "\nturns = 0"), "turns", "an integer from 1 to 50"),
    (('\nbase = "introductory"', '\nbase = "introductory"\ndensity = "open"'), "density",
     "no such key in a scenario with a base (allowed: aircraft, base, battery, map, position, side, title, turns)"),
    (('nationality = "german"', 'nationality = "german"\ncohesion = 14'), "side.german.cohesion",
     "only nationality and prereg"),
])
def test_bad_artillery_data_is_refused_on_load_with_one_line(change, key, words):
    """Issue 11, Bad input: "a scenario file with an artillery battery without
    an observer, a plot outside the table, ... is refused on load with a
    one-line error naming the file, the key and the reason"."""
    old, new = change
    assert old in GOOD
    msg, name = _refusal(GOOD.replace(old, new, 1))
    assert "\n" not in msg and name in msg and key in msg and words in msg


def test_a_scenario_with_a_base_may_set_its_own_turns():
    """RULES.md, Scenarios: a file with `base` may set `turns` (session 11), which
    replaces the base's and sets the smoke missions (turns x 0.3); it may not end
    the game before the base's paratroop drop."""
    assert "\nturns = 20" in GOOD
    sc, _ = _load_text(GOOD.replace("\nturns = 20", "\nturns = 13", 1))
    assert sc["turns"] == 13 and _data.load_scenario("introductory")["turns"] == 12
    assert [b["smoke"] for p in range(2) for b in sc["batteries"][p]] == [3, 0, 3, 0]     # 13 x 0.3 = 3.9
    assert [b["smoke"] for p in range(2) for b in _data.load_scenario("barrage")["batteries"][p]] == [6, 0, 6, 0]
    assert sc["stands"] == _data.load_scenario("barrage")["stands"]
    msg, _ = _refusal('base = "airdrop"\nturns = 1\n')
    assert "\n" not in msg and "turns: expected at least the base's drop turn, 2, got 1" in msg


def _rows(text):
    """The `map = [...]` block of a scenario file's text."""
    start = text.index("\nmap = [\n") + 1
    return text[start:text.index("\n]\n", start) + 3]


def test_a_scenario_with_a_base_may_set_its_own_map():
    """RULES.md, Scenarios (`barrage`, `combined`): a file with `base` may give
    its own `map`, of the base's size, under the base's forces and terms
    (session 46: barrage and combined keep the table they were balanced on
    when the Introductory's road was shortened). A bad row is the variant's
    error; a table the base's stands or buildings do not fit is refused with
    the base's reason."""
    intro = _data.load_scenario("introductory")
    barrage = _data.load_scenario("barrage")
    assert barrage["stands"] == intro["stands"] and barrage["buildings"] == intro["buildings"]
    assert barrage["grid"] != intro["grid"] and barrage["grid"] == _data.load_scenario("combined")["grid"]
    rows = _rows(GOOD)
    open_table = rows.replace("w", ".")                      # no woods: the base's forces still fit
    sc, _ = _load_text(GOOD.replace(rows, open_table, 1))
    assert sc["stands"] == barrage["stands"] and sc["batteries"] == barrage["batteries"]
    woods = [t["char"] for t in _data.load_charts()["terrain"]].index("w")
    assert woods in {cell for row in barrage["grid"] for cell in row}
    assert woods not in {cell for row in sc["grid"] for cell in row}
    msg, name = _refusal(GOOD.replace(rows, rows.replace("rrr", "rZr", 1), 1))
    assert "\n" not in msg and name in msg and "map[1][22]: expected a terrain character" in msg
    msg, name = _refusal(GOOD.replace(rows, rows.replace('",\n', '.",\n'), 1))
    assert "\n" not in msg and name in msg and "map: expected the base's size, 30 x 20, got '31 x 20'" in msg
    no_village = GOOD.replace(rows, rows.replace("b", "."), 1)
    msg, name = _refusal(no_village)       # the base's buildings (support_building) need village squares
    assert "\n" not in msg and name in msg and "map: expected a table the base's stands" in msg
    assert "support_building[0].at" in msg


def test_bad_plots_in_a_structured_state_are_refused():
    """Issue 11: "a plot outside the table" is refused (structured state: a
    target that is no plot cell's aiming square, a pre-registered point the
    side does not have)."""
    for mission in ({"kind": "he", "target": [40, 3], "prereg": None},
                    {"kind": "he", "target": [2, 3], "prereg": None},
                    {"kind": "he", "target": [0, 0], "prereg": 3}):
        with pytest.raises(ValueError):
            position({}, batteries=landing("lefh", mission), phase="posture", turn=3)


def test_corrupt_plot_and_marker_bytes_are_refused_or_safe():
    """DESIGN.md: "corrupt bytes -> ValueError, never a crash" (here aimed at
    the battery missions and markers of states with fire on the way)."""
    rng = random.Random(5)
    good = []
    st = GAME.new_initial_state(seed=4)
    while not st.is_terminal() and len(good) < 12:
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
        if any(b["state"] != "none" for b in st.to_dict()["artillery"]["batteries"]) and rng.random() < 0.05:
            good.append(st.serialize())
    assert good
    accepted = 0
    for raw in good:
        start = len(raw) - len(GAME.new_initial_state(seed=0).raw())    # the header's length
        for _ in range(40):
            b = bytearray(raw)
            i = start + 400 + rng.randrange(112)     # the artillery block of the state, bytes 400..511
            b[i] = rng.choice((0, 1, 2, 3, 4, 7, 255, rng.randrange(256)))
            try:
                s2 = GAME.deserialize_state(bytes(b))
            except ValueError:
                continue
            accepted += 1
            str(s2)
            s2.to_dict()
            for p in (0, 1):
                s2.view(p)
            for _ in range(30):
                if s2.is_terminal():
                    break
                if s2.is_chance_node():
                    s2.apply_random_chance()
                else:
                    s2.apply_action(rng.choice(s2.legal_actions()))
    assert accepted > 0


# ------------------------------------------------------------------ the evaluation sees incoming fire
def test_the_evaluation_sees_a_plotted_barrage_before_it_lands():
    """Issue 11, Bots: "The evaluation must see incoming fire (a plotted
    barrage on one's own stands is bad before it lands)" (RULES.md,
    Evaluation: design)."""
    stands = {"pgrb": {"at": [10, 4]}, "rflb": {"at": [25, 10]}}
    calm = position(stands, phase="posture", turn=3)
    shelled = position(stands, batteries={"m30": {"state": "plotted", "mission": he(10, 4), "lands": 4,
                                                  "plot_turn": 1}}, phase="posture", turn=3)
    assert shelled.evaluate(0) < calm.evaluate(0) and shelled.evaluate(1) > calm.evaluate(1)
    # the German's own plot on the Soviet stand is good for the German
    mine = position(stands, batteries={"lefh": {"state": "plotted", "mission": he(25, 10), "lands": 4,
                                                "plot_turn": 2}}, phase="posture", turn=3)
    assert mine.evaluate(0) > calm.evaluate(0)
    # the Soviet does not see it in its view: its evaluation there is unchanged
    assert mine.view(1).evaluate(1) == pytest.approx(calm.view(1).evaluate(1))


def test_an_on_board_indirect_fire_stand_is_a_battery_while_it_lives():
    """Digest, Stands: codes include "'I' (indirect-fire capable)"; a stand
    may be "an artillery battery of 1-3 sections". Design: an on-board 'I'
    stand named by a battery fires as it; lost, it plots no more and its
    plotted fire does not land."""
    st = position({"zis": {"at": [26, 9]}, "shq": {"at": [22, 4]}}, phase="plot", turn=2,
                  first="soviet", active="soviet")
    assert st.to_dict()["artillery"]["current"] == "m30"
    play(st, "hold")
    assert st.to_dict()["artillery"]["current"] == "zisb" and "plot he 19,4" in moves(st)
    assert not any(m.startswith("plot smoke") for m in moves(st))      # the ZiS-3 has no smoke
    play(st, "plot he 19,4")
    assert battery(st, "zisb")["lands"] == 5
    # the gun lost before its fire is due: nothing lands
    st = position({"shq": {"at": [22, 4]}}, batteries=landing("zisb", he(19, 4), turn=5), phase="artillery",
                  turn=5, artillery={"current": "zisb", "step": "reveal"})
    assert chances(st) == {"land:none": 1.0}
    play(st, "land:none")
    assert battery(st, "zisb")["state"] == "none"


def test_smoke_markers_attack_nobody():
    """Digest: smoke is a mission of its own ("smoke missions ... recorded by
    stand"); its markers block LOS (+3) but only impact markers "attack every
    stand under them"."""
    st = position({"t34a": {"at": [10, 7]}}, batteries=landing("lefh", smoke(10, 7)), phase="artillery",
                  turn=3, artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    assert st.to_dict()["phase"] == "fire" and not stand(st, "t34a")["suppressed"]


def test_batteries_fire_in_the_initiative_order():
    """Digest: "In the Artillery and Standard Fire Phases the initiative player
    chooses who attacks first" (design: the first player's batteries, then the
    other's, each in scenario order)."""
    both = {**landing("lefh", he(10, 1)), **landing("m30", he(19, 1))}
    st = position({}, batteries=both, phase="posture", turn=3, first="soviet", active="soviet")
    play(st, "pass", "pass")
    assert st.to_dict()["artillery"]["current"] == "m30"
    st = position({}, batteries=both, phase="posture", turn=3, first="german", active="german")
    play(st, "pass", "pass")
    assert st.to_dict()["artillery"]["current"] == "lefh"


def test_a_view_built_event_by_event_equals_the_view_of_the_full_state():
    """Hidden plots (RULES.md): the opponent's plot is `?` in its history; a
    view that applies `?` there holds what observe() shows of the full state."""
    st = position({"pgra": {"at": [19, 4]}, "rfla": {"at": [22, 7]}}, phase="plot", turn=2)
    view = st.view(1)
    for move, hidden in (("plot he 22,7", True), ("hold", True), ("plot smoke 19,4", False)):
        st.apply(move)
        view.apply("?" if hidden else move)
        assert view.to_dict() == st.view(1).to_dict()
    assert battery(view, "lefh")["state"] == "hidden" and battery(view, "sfh")["state"] == "hidden"
