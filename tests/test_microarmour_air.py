"""Micro Armour airstrikes (RULES.md "Airstrikes"): one hand-built position per
rule, in the airstrike scenario (scenarios/airstrike.toml: the Introductory
table; the Soviet Il-2 flies turns 1-3, strafe 7, bomb 9, 2 loads, no FASC,
bomb point 6,10 plotted before play for turn 2; the German Ju 87 flies turns
2-4, strafe 4, bomb 12, 1 load, without a FASC since session 10 (a design
choice for balance; the FASC rules are tested on a copy of the scenario as
it was, in tests/test_microarmour_air_fasc.py); German AA: flak (20mm, range 8");
Soviet AA: aa85 (85mm, range 18")). Each position is also loaded into the
reference model, which must agree (check_reference).

Every stand not named is lost, except the two GHQs parked in far corners.
Rows y=0 and y=3 are clear terrain (CRT modifier 0)."""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import _data, _engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import check_reference, deployed, keep_only  # noqa: E402

GAME = ardsearch.load_game("microarmour", scenario="airstrike")
BASE = deployed(GAME.new_initial_state(seed=0).to_dict())
GERMAN, SOVIET = 0, 1


def position(stands, planes=None, strike=None, game=GAME, base=None, **top):
    """A state from {id: {field: value}}, aircraft fields by id and the strike
    in progress (the "air" schema of RULES.md, Structured state); `base` is
    the deployed start of `game`'s scenario (default: the airstrike's)."""
    base = BASE if base is None else base
    d = {k: v for k, v in base.items()}
    d["stands"] = keep_only(base["stands"], stands)
    air = [dict(a) for a in base["air"]["aircraft"]]
    for a in air:
        if a["plot"] is not None and a["plot"]["turn"] < top.get("turn", 1):
            a["plot"] = None                                # the scenario's plot, long flown
        a.update((planes or {}).get(a["id"], {}))
    d["air"] = {"aircraft": air, "strike": strike}
    d.update(top)
    state = game.state_from_dict(d)
    check_reference(state)
    return state


def strike(aircraft, step, kind="strafe", at=(0, 0), aa=0, direction="n", square=0):
    return {"aircraft": aircraft, "step": step, "kind": kind, "at": list(at), "aa": aa,
            "direction": direction, "square": square}


def moves(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def chances(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def step_and_check(state, move):
    state.apply(move)
    check_reference(state)
    return state


def air(state):
    return state.to_dict()["air"]


def plane(state, pid):
    return next(a for a in air(state)["aircraft"] if a["id"] == pid)


def end_of_posture(turn, game=GAME, base=None, **stands):
    """The posture phase of `turn` with the German passed: the Soviet pass ends it."""
    return position(stands or {"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="posture",
                    turn=turn, passed=[True, False], active="soviet", first="german", game=game, base=base)


def p_of(coh, mod):
    return max(0, min(20, coh - mod)) / 20


# ------------------------------------------------------------------ when aircraft fly
def test_each_aircraft_flies_at_most_three_turns():
    """Digest: "Each aircraft may be in play for no more than 3 turns." The
    Il-2 (arrive 1, turns 3) flies in turns 1-3, the Ju 87 in turns 2-4."""
    present = {t: {a["id"] for a in air(end_of_posture(t))["aircraft"] if a["present"]} for t in range(1, 6)}
    assert present == {1: {"il2"}, 2: {"il2", "ju87"}, 3: {"il2", "ju87"}, 4: {"ju87"}, 5: set()}
    st = step_and_check(end_of_posture(4), "pass")
    assert air(st)["strike"]["aircraft"] == "ju87"          # the Il-2 is gone
    st = step_and_check(end_of_posture(5), "pass")
    assert air(st)["strike"] is None and "fire pz4a>t34a" in moves(st)


def test_airstrikes_come_before_standard_fire():
    """Digest: "Phases: 1 Initiative; 2 Posture Determination; 3 Artillery
    Fire/Air Strike; 4 Standard Fire; 5 Joint Plot"."""
    st = step_and_check(end_of_posture(1), "pass")
    d = st.to_dict()
    assert d["phase"] == "fire" and d["air"]["strike"]["step"] == "choose"
    assert st.current_player() == SOVIET
    assert moves(st) == ["pass", "strafe gghq", "strafe pz4a"]
    step_and_check(st, "pass")
    assert air(st)["strike"] is None and st.current_player() == GERMAN
    assert "fire pz4a>t34a" in moves(st)


def test_strafe_in_any_turn_bomb_only_in_turns_two_and_three():
    """Digest: "it may strafe once in any turn and bomb only in turns 2-3
    (using its Ordnance Load)". In its first turn the Il-2 may only strafe; in
    its second it may also bomb its plotted point."""
    first = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire", turn=1)
    assert moves(first) == ["pass", "strafe gghq", "strafe pz4a"]
    second = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire", turn=2)
    assert sorted(moves(second)) == ["bomb 6,10", "pass", "strafe gghq", "strafe pz4a"]


def test_never_strafe_and_bomb_in_one_turn():
    """Digest: "never both in one turn": one strike per aircraft per turn; a
    failed strike is its turn's strike too."""
    st = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "attack", at=(5, 3)), phase="fire", turn=2)
    step_and_check(st, "c:fail")
    assert air(st)["strike"] == strike("ju87", "choose")   # the next aircraft, never the Il-2 again
    step_and_check(st, "pass")
    assert air(st)["strike"] is None and st.current_player() in (GERMAN, SOVIET)


# test_bombing_uses_an_ordnance_load_and_none_left_means_no_bombs: its position is
# the Ju 87 after a passed FASC roll, so it is in tests/test_microarmour_air_fasc.py


# ------------------------------------------------------------------ plots and the FASC
def test_bomb_points_are_plotted_in_the_joint_plot_phase_for_next_turn():
    """Digest: "Bomb points are pre-plotted"; "5. Joint Plot Phase - Players
    plot the points of impact for artillery fire to be in following turns";
    "Bombing airstrikes ... are pre-plotted the same way". After standard fire
    each aircraft that may bomb next turn gets a plot (a 3" block centre) or
    a pass, then the orders follow."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="fire", turn=2,
                  passed=[True, False], active="soviet")
    step_and_check(st, "pass")
    assert air(st)["strike"] == strike("il2", "plot") and st.current_player() == SOVIET
    ms = moves(st)
    assert ms[0] == "pass" and len(ms) == 10 * 7 + 1 and "plot 4,4" in ms and "plot 28,19" in ms
    step_and_check(st, "plot 4,4")
    assert plane(st, "il2")["plot"] == {"turn": 3, "at": [4, 4]}
    assert air(st)["strike"] == strike("ju87", "plot") and st.current_player() == GERMAN
    step_and_check(st, "pass")
    assert plane(st, "ju87")["plot"] == {"turn": 3, "at": None}
    assert st.to_dict()["phase"] == "orders"


def test_no_plot_for_a_turn_after_the_last():
    """Joint Plot Phase: "Players plot the points of impact for artillery fire to
    be in following turns" (bomb points "are pre-plotted the same way"): a plot is
    for a following turn, so none in the last turn."""
    short = ardsearch.load_game("microarmour", scenario="airstrike", turns=3)
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="fire", turn=3, turns=3,
                  passed=[True, False], active="soviet", game=short)
    step_and_check(st, "pass")
    assert st.to_dict()["phase"] == "orders"


def test_plots_are_hidden_from_the_opponent_until_the_bomb_falls():
    """Contract: plots are hidden information; the opponent sees '?' for the
    plot decision (plot or pass) in views, masked histories and protocol."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="fire", turn=2,
                  passed=[True, False], active="soviet")
    st.apply("pass")
    st.apply("plot 4,4")
    assert st.masked_history(GERMAN)[-1] == "?" and st.masked_history(SOVIET)[-1] == "plot 4,4"
    view = st.view(GERMAN)
    assert plane(view, "il2")["plot"] == {"turn": 3, "at": "hidden"}
    assert "plot for turn 3: hidden" in view.observation_string(GERMAN)
    assert "plot for turn 3: 4,4" in st.view(SOVIET).observation_string(SOVIET)
    st.apply("pass")                                        # the German's pass is hidden from the Soviet too
    assert st.masked_history(SOVIET)[-1] == "?" and st.masked_history(GERMAN)[-1] == "pass"
    # the bomb's point shows when it falls
    turn3 = position({"pz4a": {"at": [4, 4]}}, planes={"il2": {"plot": {"turn": 3, "at": [4, 4]}}},
                     strike=strike("il2", "choose"), phase="fire", turn=3)
    assert "bomb 4,4" in moves(turn3)
    turn3.apply("bomb 4,4")
    assert turn3.masked_history(GERMAN)[-1] == "bomb 4,4"


def test_a_view_resamples_a_hidden_plot_over_the_viewers_stands_or_none():
    """Determinization fills an unseen plot with none or the block centre over
    one of the viewer's live stands."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="fire", turn=2,
                  passed=[True, False], active="soviet")
    st.apply("pass")
    st.apply("plot 4,4")
    seen = set()
    for seed in range(40):
        full = st.resample_from_infostate(GERMAN, seed=seed)
        at = plane(full, "il2")["plot"]["at"]
        seen.add(None if at is None else tuple(at))
        assert full.view(GERMAN).raw() == st.view(GERMAN).raw()
    assert seen == {None, (1, 1), (4, 4)}                   # gghq at 0,0 and pz4a at 5,3


def test_a_plot_not_flown_in_its_turn_is_lost():
    """Design choice (RULES.md, Airstrikes): a mission is recorded with its "turn
    of arrival", so a plotted bomb point is for that one turn; an aircraft that
    strafes or passes instead ("never both in one turn") loses it."""
    st = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire", turn=2)
    assert plane(st, "il2")["plot"] == {"turn": 2, "at": [6, 10]}
    step_and_check(st, "pass")
    step_and_check(st, "pass")                              # the Ju 87 (no bombs in its first turn)
    assert plane(st, "il2")["plot"] is None and plane(st, "il2")["ordnance"] == 2


def test_without_a_fasc_a_bomb_falls_only_on_its_plotted_point():
    """Digest: "Bomb points are pre-plotted unless a Forward Air Support
    Coordinator is available". The Ju 87 has no FASC here: no roll, and in a
    bombing turn it may bomb its plotted point only (the FASC roll that frees
    the point: tests/test_microarmour_air_fasc.py)."""
    st = step_and_check(end_of_posture(3), "pass")
    step_and_check(st, "pass")                              # the Il-2 passes
    assert not st.is_chance_node() and air(st)["strike"] == strike("ju87", "choose")
    assert sorted(moves(st)) == ["pass", "strafe sghq", "strafe t34a"]
    plotted = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}},
                       planes={"ju87": {"plot": {"turn": 3, "at": [20, 4]}}}, strike=strike("ju87", "choose"),
                       phase="fire", turn=3)
    assert sorted(moves(plotted)) == ["bomb 20,4", "pass", "strafe sghq", "strafe t34a"]


# ------------------------------------------------------------------ AA
def test_aa_40mm_or_less_adds_two_to_attack_and_deviate_rolls():
    """Digest: "Each AA stand that passes cohesion adds +2 (40mm or less) or
    +1 (larger) to the strike's 'to attack' and 'to deviate' cohesion
    rolls." The German 20mm flak (cohesion 15) within its range of the Il-2's
    target; Soviet cohesion 12."""
    st = position({"pz4a": {"at": [5, 3]}, "flak": {"at": [7, 3]}}, strike=strike("il2", "choose"),
                  phase="fire", turn=1)
    step_and_check(st, "strafe pz4a")
    assert chances(st) == pytest.approx({"aa:0": 0.25, "aa:2": 0.75})
    step_and_check(st, "aa:2")
    assert chances(st) == pytest.approx({"c:ok": p_of(12, 2), "c:fail": 1 - p_of(12, 2)})
    step_and_check(st, "c:ok")
    assert chances(st) == pytest.approx({"c:ok": p_of(12, 2), "c:fail": 1 - p_of(12, 2)})   # to deviate


def test_aa_larger_than_40mm_adds_one():
    """Digest: "+1 (larger)": the Soviet 85mm gun against the Ju 87 (German
    cohesion 15, Soviet 12)."""
    st = position({"t34a": {"at": [20, 3]}, "aa85": {"at": [25, 3]}}, strike=strike("ju87", "choose"),
                  phase="fire", turn=2)
    step_and_check(st, "strafe t34a")
    assert chances(st) == pytest.approx({"aa:0": 0.4, "aa:1": 0.6})
    step_and_check(st, "aa:1")
    assert chances(st) == pytest.approx({"c:ok": p_of(15, 1), "c:fail": 1 - p_of(15, 1)})


def test_aa_out_of_range_or_shaken_counts_less():
    """"Each AA stand that passes cohesion adds +2 (40mm or less) or +1 (larger)
    to the strike's 'to attack' and 'to deviate' cohesion rolls": an AA stand
    counts only within its weapon range of the aimed point (design choice,
    RULES.md) and rolls cohesion with its own S/D modifiers ("A Suppressed
    stand adds +4 and a Disorganized stand +3 to all its cohesion rolls")."""
    far = position({"pz4a": {"at": [5, 3]}, "flak": {"at": [14, 3]}}, strike=strike("il2", "choose"),
                   phase="fire", turn=1)
    step_and_check(far, "strafe pz4a")
    assert air(far)["strike"]["step"] == "attack"           # 9" > 8": no AA roll
    shaken = position({"pz4a": {"at": [5, 3]}, "flak": {"at": [7, 3], "suppressed": True}},
                      strike=strike("il2", "choose"), phase="fire", turn=1)
    step_and_check(shaken, "strafe pz4a")
    assert chances(shaken) == pytest.approx({"aa:0": 0.45, "aa:2": 0.55})


def test_data_classes_aa_calibres():
    """Weapons data: the AA class by calibre, 40mm or less +2, larger +1."""
    assert [_data.aa_class(mm) for mm in (0, 20, 40, 41, 85)] == [0, 2, 2, 1, 1]


# ------------------------------------------------------------------ deviation and the attack
def test_deviation_is_1d8_direction_and_1d6_inches_bombs_1d6_half_strafing():
    """Digest: "Deviation is 1D8 direction and 1D6 inches (1D6/2 for
    strafing)." 1D6/2 rounds up (1-3 inches)."""
    st = position({"t34a": {"at": [20, 3]}}, strike=strike("ju87", "deviate", kind="bomb", at=(20, 3)),
                  phase="fire", turn=3, planes={"ju87": {"ordnance": 0}})
    step_and_check(st, "c:fail")
    assert chances(st) == pytest.approx({f"dir:{d}": 0.125 for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw")})
    step_and_check(st, "dir:w")
    assert chances(st) == pytest.approx({f"dist:{k}": 1 / 6 for k in range(1, 7)})
    strafe = position({"t34a": {"at": [20, 3]}}, strike=strike("ju87", "direction", at=(20, 3)), phase="fire",
                      turn=2)
    step_and_check(strafe, "dir:w")
    assert chances(strafe) == pytest.approx({f"dist:{k}": 1 / 3 for k in range(1, 4)})


def test_a_deviated_strike_attacks_whatever_stand_is_there_friend_or_foe():
    """Digest: "If the 'to deviate' cohesion roll fails, the impact sheaf
    shifts (1D8 direction, 1D6 distance for air strikes) and attacks
    whatever stand occupies the new location, friend or foe." The Il-2's
    strafe on pz4a slides 2" east onto a Soviet rifle platoon."""
    st = position({"pz4a": {"at": [5, 3]}, "rfla": {"at": [7, 3]}}, strike=strike("il2", "distance", at=(5, 3),
                                                                                  direction="e"),
                  phase="fire", turn=1)
    step_and_check(st, "dist:2")
    assert air(st)["strike"]["at"] == [7, 3] and air(st)["strike"]["step"] == "crt"
    step_and_check(st, "crt:E")
    rfla = next(s for s in st.to_dict()["stands"] if s["id"] == "rfla")
    assert not rfla["alive"]
    empty = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "distance", at=(5, 3), direction="e"),
                     phase="fire", turn=1)
    step_and_check(empty, "dist:1")                         # nothing there: no attack
    assert air(empty)["strike"] is None


def test_a_strike_deviating_off_the_table_lands_nowhere():
    """RULES.md, Airstrikes: a point pushed off the table attacks nothing."""
    st = position({"pz4a": {"at": [1, 3]}}, strike=strike("il2", "distance", at=(1, 3), direction="w"),
                  phase="fire", turn=1)
    step_and_check(st, "dist:3")
    assert air(st)["strike"] is None


def test_a_bomb_attacks_every_stand_under_it_friend_or_foe():
    """Digest: "All stands in an artillery impact sheaf are subject to attack,
    regardless of nationality"; the bomb pattern is the 3" x 3" block around
    the point (design, charts.toml [air]); strafing attacks one stand."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [4, 2]}, "pgra": {"at": [6, 4]},
                   "t34b": {"at": [7, 3]}},
                  strike=strike("ju87", "deviate", kind="bomb", at=(5, 3)), phase="fire", turn=3,
                  planes={"ju87": {"ordnance": 0}})
    hit = []
    step_and_check(st, "c:ok")
    while air(st)["strike"] and air(st)["strike"]["step"] == "crt":
        hit.append(air(st)["strike"]["square"])
        lightest = next(r for r in ("crt:-", "crt:S", "crt:(S)") if r in chances(st))
        step_and_check(st, lightest)
    assert hit == [0, 4, 8]                                 # t34a (4,2), pz4a (5,3), pgra (6,4); t34b is outside


def test_air_attacks_halve_armour_and_quarter_open_topped():
    """Digest: "Against artillery and air attacks armour keeps 50%, or 25% if
    open-topped ('U')." The Ju 87's bomb (12) against a Pz IV (DV 12 -> 6,
    CD 6) and a half-track (U, DV 6 -> 2, CD 10, the table's top column 9);
    clear terrain, no range modifier."""
    def crt_at(target, at):
        st = position({target: {"at": list(at)}}, strike=strike("ju87", "deviate", kind="bomb", at=at),
                      phase="fire", turn=3, planes={"ju87": {"ordnance": 0}})
        step_and_check(st, "c:ok")
        return chances(st)

    def column(cd):
        two = {r: (6 - abs(r - 7)) / 36 for r in range(2, 13)}
        return {"crt:E": sum(p for r, p in two.items() if r <= cd + 1)}

    assert crt_at("pz4a", (5, 3))["crt:E"] == pytest.approx(column(6)["crt:E"])
    assert crt_at("htka", (5, 3)).get("crt:E") == pytest.approx(column(9)["crt:E"])


def column_e(cd, mod):
    """P(E) on the design CRT: 2D6 + mod <= CD + 1."""
    return sum((6 - abs(r - 7)) / 36 for r in range(2, 13) if r + mod <= min(cd, 9) + 1)


def test_air_attacks_take_the_targets_terrain_crt_modifier_and_no_range_modifier():
    """Digest: "Target terrain modifiers apply to both the 'to fire' cohesion
    roll and the CRT roll"; "Artillery direct and indirect fire ignore range
    modifiers" (air likewise, design). A Pz IV in woods under the Ju 87's bomb."""
    woods = next(t for t in _data.load_charts()["terrain"] if t["name"] == "woods")["crt"]
    st = position({"pz4a": {"at": [15, 4]}}, strike=strike("ju87", "deviate", kind="bomb", at=(15, 4)),
                  phase="fire", turn=3, planes={"ju87": {"ordnance": 0}})
    step_and_check(st, "c:ok")
    assert chances(st).get("crt:E", 0) == pytest.approx(column_e(12 - 6, woods))


def test_personnel_out_of_firing_posture_halve_their_defence_against_air():
    """Digest: "Personnel ('P') stands halve their defence when not in firing
    posture". Il-2 strafe 7 against a Panzergrenadier platoon (DV 5, 3 moving)."""
    def p_e(posture):
        st = position({"pgra": {"at": [5, 3], "posture": posture}},
                      strike=strike("il2", "deviate", at=(5, 3)), phase="fire", turn=1)
        step_and_check(st, "c:ok")
        return chances(st).get("crt:E", 0)
    assert p_e("firing") == pytest.approx(column_e(7 - 5, 0))
    assert p_e("move") == pytest.approx(column_e(7 - 3, 0))


def test_only_the_enemys_aa_stands_fire_at_an_aircraft():
    """Digest: AA stands defend against the strike: the German flak does not
    roll against the German Ju 87, though it stands next to the target."""
    st = position({"t34a": {"at": [20, 3]}, "flak": {"at": [21, 3]}}, strike=strike("ju87", "choose"),
                  phase="fire", turn=2)
    step_and_check(st, "strafe t34a")
    assert air(st)["strike"]["step"] == "attack"


def test_losses_to_an_airstrike_draw_cards_then_the_strike_goes_on():
    """Digest *Break points*: "draw one card per stand lost"; the bomb's other
    stands are attacked after the loss's cards and break check."""
    st = position({"t34a": {"at": [4, 2]}, "t34b": {"at": [5, 3]}},
                  strike=strike("ju87", "crt", kind="bomb", at=(5, 3), square=0), phase="fire", turn=3,
                  planes={"ju87": {"ordnance": 0}})
    step_and_check(st, "crt:E")
    assert st.is_chance_node() and st.to_dict()["cards"]["soviet"]["pending"] == 1
    step_and_check(st, "card:2")
    step_and_check(st, "brk:no")
    assert air(st)["strike"]["step"] == "crt" and air(st)["strike"]["square"] == 4


def test_a_view_with_a_hidden_plot_accepts_the_bomb_where_it_falls():
    """Protocol: the opponent's engine, holding only its view, must accept the
    owner's `bomb x,y` wherever the hidden plot was: in the view every block
    centre is a possible bombing point."""
    st = position({"pz4a": {"at": [4, 4]}}, planes={"il2": {"plot": {"turn": 3, "at": [4, 4]}}},
                  strike=strike("il2", "choose"), phase="fire", turn=3)
    view = st.view(GERMAN)
    bombs = [m for m in moves(view) if m.startswith("bomb")]
    assert len(bombs) == 70 and "bomb 4,4" in bombs and "bomb 4,4" in moves(st)
    view.apply("bomb 4,4")
    st.apply("bomb 4,4")
    assert view.raw() == st.view(GERMAN).raw()


def test_a_view_accepts_the_bomb_on_the_point_plotted_before_play():
    """RULES.md, Airstrikes: an aircraft's optional `plot` is "a bomb point
    plotted before play for its first bombing turn"; "Hidden": "A bomb point
    plotted before play (the scenario's `plot`) is hidden the same way, so in
    the opponent's view an enemy aircraft with a hidden plot for this turn may
    bomb any block centre and, on its first bombing turn, the scenario's point
    too (which need not be a centre: the `airstrike` Il-2's 6,10)". So the
    German view offers 6,10 beside the 70 centres on turn 2, and only then:
    on turn 3 a hidden plot is a joint plot's, always a centre. (Found by the
    masked-history replay of tests/test_conformance.py, airstrike at close
    deployment, seeds 21 and 29.)"""
    st = position({"pz4a": {"at": [6, 10]}}, strike=strike("il2", "choose"), phase="fire", turn=2)
    assert plane(st, "il2")["plot"] == {"turn": 2, "at": [6, 10]}
    view = st.view(GERMAN)
    assert plane(view, "il2")["plot"] == {"turn": 2, "at": "hidden"}
    bombs = [m for m in moves(view) if m.startswith("bomb")]
    assert len(bombs) == 71 and "bomb 6,10" in bombs
    assert [m for m in moves(st) if m.startswith("bomb")] == ["bomb 6,10"]
    view.apply("bomb 6,10")
    st.apply("bomb 6,10")
    assert view.raw() == st.view(GERMAN).raw()
    later = position({"pz4a": {"at": [6, 10]}}, planes={"il2": {"plot": {"turn": 3, "at": [4, 10]}}},
                     strike=strike("il2", "choose"), phase="fire", turn=3)
    bombs = [m for m in moves(later.view(GERMAN)) if m.startswith("bomb")]
    assert len(bombs) == 70 and "bomb 6,10" not in bombs


# ------------------------------------------------------------------ a broken formation
BROKEN_TEXT = ("Digest *Break points*: \"When the total drawn exceeds the break point the formation "
               "breaks: ... no new artillery plots, airstrikes cancelled\"")
# the German formation one card short of its break point: 15 units x 0.35 x 7 = 36.75
GERMAN_AT_36 = {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False, "broken": False,
                "broken_turn": None, "total": 36, "deck": [4] * 8 + [0, 16]}
SOVIET_BROKEN = {**BASE["cards"]["soviet"], "broken": True, "broken_turn": 1}


def test_airstrikes_cancelled_for_a_broken_formation():
    """Digest *Break points*: "When the total drawn exceeds the break point the
    formation breaks: -5 cohesion except for movement, fires only if fired
    on, no new artillery plots, airstrikes cancelled". A broken formation plays
    on (RULES.md, Broken formations): in turn 2 the Soviet formation, broken
    in turn 1, has no Il-2 any more; its bomb point plotted for turn 2 is never
    flown; the German Ju 87 strikes as before."""
    cards = {"german": BASE["cards"]["german"], "soviet": SOVIET_BROKEN}
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="posture", turn=2,
                  passed=[True, False], active="soviet", first="german", cards=cards)
    assert plane(st, "il2")["present"] is False and plane(st, "ju87")["present"] is True
    assert not st.is_terminal()
    step_and_check(st, "pass")                              # posture over: phase 3
    assert air(st)["strike"] == strike("ju87", "choose") and st.current_player() == GERMAN
    step_and_check(st, "pass")
    assert air(st)["strike"] is None and plane(st, "il2")["plot"] is None   # 6,10 never bombed
    assert plane(st, "il2")["ordnance"] == 2


def test_a_broken_formations_aa_rolls_at_its_cohesion_less_5():
    """Digest *Break points*: a broken formation has "-5 cohesion except for
    movement"; *Airstrikes*: "Each AA stand that passes cohesion adds +2
    (40mm or less) or +1 (larger)". The AA roll is no movement roll: the
    broken Soviet 85mm gun in range of the Ju 87's strafe passes at cohesion
    12 - 5 = 7 (7 in 20), where it passes 12 in 20 unbroken."""
    cards = {"german": BASE["cards"]["german"], "soviet": SOVIET_BROKEN}
    st = position({"t34a": {"at": [20, 3]}, "aa85": {"at": [25, 3]}}, strike=strike("ju87", "choose"),
                  phase="fire", turn=2, cards=cards)
    step_and_check(st, "strafe t34a")
    assert chances(st) == pytest.approx({"aa:0": 0.65, "aa:1": 0.35})


def test_a_broken_formation_plots_no_more_bombs():
    """Digest *Break points*: "airstrikes cancelled" (and "no new artillery
    plots"): in the joint plot phase after standard fire the broken Soviet
    side is not asked for a bomb point for the Il-2's turn 3; the German Ju 87
    plots as before."""
    cards = {"german": BASE["cards"]["german"], "soviet": SOVIET_BROKEN}
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}, phase="fire", turn=2,
                  passed=[True, False], active="soviet", cards=cards, planes={"il2": {"plot": None}})
    step_and_check(st, "pass")                              # standard fire over: joint plot
    assert air(st)["strike"] == strike("ju87", "plot") and st.current_player() == GERMAN
    step_and_check(st, "pass")
    assert air(st)["strike"] is None and st.to_dict()["phase"] == "orders"
    assert plane(st, "il2")["plot"] is None


def test_a_break_in_the_air_strike_phase_cancels_the_rest_of_it():
    """Digest *Break points*: "airstrikes cancelled" takes effect at the break:
    the Il-2 strafes pz4a, its loss card breaks the German formation, and the
    Ju 87 (next in scenario order, its bomb point plotted for this turn) flies
    no strike: no FASC roll, no choice; standard fire follows. The state stays
    one validate() accepts (checked against the reference at every step)."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}},
                  planes={"ju87": {"plot": {"turn": 3, "at": [19, 4]}}},
                  strike=strike("il2", "crt", at=(5, 3)), phase="fire", turn=3,
                  cards={"german": GERMAN_AT_36, "soviet": BASE["cards"]["soviet"]})
    step_and_check(st, "crt:E")
    step_and_check(st, "card:1")                            # 37 > 36.75
    assert chances(st) == {"brk:yes": 1.0}
    step_and_check(st, "brk:yes")
    assert not st.is_terminal() and st.to_dict()["cards"]["german"]["broken"]
    assert air(st)["strike"] is None and plane(st, "ju87")["plot"] is None
    assert plane(st, "ju87")["present"] is False and plane(st, "ju87")["ordnance"] == 1
    assert st.to_dict()["phase"] == "fire" and not st.is_chance_node()
    st.game.state_from_dict(st.to_dict())                  # validate() accepts it


def test_a_bomb_that_breaks_its_own_side_attacks_no_further():
    """Digest *Break points*: "airstrikes cancelled"; digest *Airstrikes*: a
    sheaf attacks "whatever stand occupies the new location, friend or foe".
    The Ju 87's bomb lands on its own pz4a first (pattern square 0); the loss
    card breaks the German formation, and the rest of the pattern (t34b) is
    not attacked (design: cancelled at the break, RULES.md Broken formations)."""
    st = position({"pz4a": {"at": [4, 2]}, "t34b": {"at": [5, 3]}},
                  strike=strike("ju87", "crt", kind="bomb", at=(5, 3), square=0), phase="fire", turn=3,
                  planes={"ju87": {"ordnance": 0}},
                  cards={"german": GERMAN_AT_36, "soviet": BASE["cards"]["soviet"]})
    step_and_check(st, "crt:E")
    assert air(st)["strike"]["square"] == 4                 # t34b would be next
    step_and_check(st, "card:1")
    step_and_check(st, "brk:yes")
    assert air(st)["strike"] is None
    t34b = next(s for s in st.to_dict()["stands"] if s["id"] == "t34b")
    assert t34b["alive"] and not t34b["suppressed"]


# ------------------------------------------------------------------ notation, board, bad input
def test_air_notation_round_trips_and_bad_text_is_rejected():
    st = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire", turn=2)
    for a in st.legal_actions():
        assert st.string_to_action(st.action_to_string(a)) == a
    for text in ("plot 4,4", "bomb 12,7", "aa:3", "dir:ne", "dist:6", "strafe pz4a"):
        assert st.action_to_string(st.string_to_action(text)) == text
    for bad in ("plot 2,2", "aa:13", "dist:0", "dir:up", "strafe t34a", "bomb 4", "bomb 99,1"):
        with pytest.raises(ardsearch.InvalidMoveError):
            st.apply(bad)
    with pytest.raises(ardsearch.IllegalMoveError):
        st.apply("bomb 4,4")                                # not the plotted point, no FASC


def test_board_text_shows_aircraft_and_the_strike():
    st = position({"pz4a": {"at": [5, 3]}, "flak": {"at": [7, 3]}}, strike=strike("il2", "choose"),
                  phase="fire", turn=2)
    text = str(st)
    assert "aircraft il2    Soviet Il-2 Shturmovik flight: present, strafe 7, bomb 9 x2 left" in text
    assert "plot for turn 2: 6,10" in text
    assert "aircraft ju87   German Ju 87 D Stuka flight: present, strafe 4, bomb 12 x1 left" in text
    assert "FASC" not in text                               # no FASC aircraft (tests/test_microarmour_air_fasc.py)
    assert "airstrike: il2 strafe at 0,0 [choose]" in text
    assert text.splitlines()[1 + 19 - 3][3 + 7] == "A"      # the flak at 7,3 (row y=3)


def test_corrupt_air_bytes_are_refused():
    st = position({"pz4a": {"at": [5, 3]}}, strike=strike("il2", "choose"), phase="fire", turn=2)
    data = st.serialize()
    # find the airstrike block in the bytes (other families may add fields
    # before it): the one byte that changes with the Il-2's ordnance
    fewer = position({"pz4a": {"at": [5, 3]}}, planes={"il2": {"ordnance": 1}}, strike=strike("il2", "choose"),
                     phase="fire", turn=2).serialize()
    diff = [i for i in range(len(data)) if data[i] != fewer[i]]
    assert len(diff) == 1
    base = diff[0] - 10                                     # the scn byte (RULES.md, state struct)
    fields = {"scn": 0, "air_step": 1, "air_cur": 2, "air_mod": 6, "air_sq": 8, "air_fasc": 9,
              "ordnance": 10, "plot_x": 14, "plot_y": 18, "plot_turn": 22}
    for name, value in (("scn", 9), ("air_step", 10), ("air_cur", 3), ("air_mod", 13), ("air_sq", 1),
                        ("air_fasc", 16), ("ordnance", 7), ("plot_x", 40), ("plot_x", 254), ("plot_turn", 1),
                        ("plot_turn", 0)):
        bad = bytearray(data)
        bad[base + fields[name]] = value
        with pytest.raises(ValueError):
            GAME.deserialize_state(bytes(bad))
    assert GAME.deserialize_state(data).raw() == st.raw()


def test_bad_air_dicts_name_the_problem():
    d = position({"pz4a": {"at": [5, 3]}}, phase="fire", turn=2).to_dict()
    with pytest.raises(ValueError, match=r"air.aircraft\[0\].id"):
        GAME.state_from_dict({**d, "air": {"aircraft": [{"id": "b17"}], "strike": None}})
    with pytest.raises(ValueError, match=r"plot.at\[0\]"):
        GAME.state_from_dict({**d, "air": {"aircraft": [{"id": "il2", "plot": {"turn": 2, "at": [30, 1]}}],
                                           "strike": None}})
    with pytest.raises(ValueError, match="ordnance"):
        GAME.state_from_dict({**d, "air": {"aircraft": [{"id": "ju87", "ordnance": 2}], "strike": None}})
    with pytest.raises(ValueError, match="hidden bomb plot"):
        GAME.state_from_dict({**d, "air": {"aircraft": [{"id": "il2", "plot": {"turn": 2, "at": "hidden"}}],
                                           "strike": None}})


def test_the_evaluation_sees_incoming_bombs():
    """RULES.md, Evaluation: a known plot over one's own stands is bad before
    the bomb falls (and good for the side that plotted it)."""
    stands = {"pz4a": {"at": [4, 4]}, "pz4b": {"at": [5, 5]}, "t34a": {"at": [20, 3]}}
    quiet = position(stands, planes={"il2": {"plot": None}}, phase="posture", turn=2)
    plotted = position(stands, phase="posture", turn=2, planes={"il2": {"plot": {"turn": 2, "at": [4, 4]}}})
    assert plotted.evaluate(GERMAN) < quiet.evaluate(GERMAN) - 0.02
    assert plotted.evaluate(SOVIET) > quiet.evaluate(SOVIET) + 0.02
    # the German's view does not know where (or whether) the Il-2 plotted
    assert plotted.view(GERMAN).evaluate(GERMAN) == pytest.approx(quiet.evaluate(GERMAN))


def test_the_evaluation_sees_a_strike_before_its_rolls():
    """RULES.md, Evaluation: a strike aimed at a stand counts its expected
    damage before the 'to attack' roll (so a one-ply search sees a strafe)."""
    stands = {"pz4a": {"at": [5, 3]}, "t34a": {"at": [20, 3]}}
    quiet = position(stands, strike=strike("il2", "choose"), phase="fire", turn=1)
    aimed = position(stands, strike=strike("il2", "attack", at=(5, 3)), phase="fire", turn=1)
    assert aimed.evaluate(SOVIET) > quiet.evaluate(SOVIET) + 0.005
    assert aimed.evaluate(GERMAN) < quiet.evaluate(GERMAN) - 0.005
    deviating = position(stands, strike=strike("il2", "direction", at=(5, 3)), phase="fire", turn=1)
    assert deviating.evaluate(SOVIET) == pytest.approx(quiet.evaluate(SOVIET))


def test_introductory_scenario_has_no_aircraft():
    st = ardsearch.load_game("microarmour").new_initial_state(seed=1)
    assert st.to_dict()["air"] == {"aircraft": [], "strike": None}
    assert st.to_dict()["scenario"] == "introductory"


# ------------------------------------------------------------------ scenario and weapons data
SHIPPED = _data.HERE


def scenario_text():
    return open(os.path.join(SHIPPED, "scenarios", "airstrike.toml")).read()


def load_text(tmp_path, text, name="airstrike.toml"):
    p = tmp_path / name
    p.write_text(text)
    return _data.load_scenario(path=str(p))


def test_shipped_airstrike_scenario_loads():
    sc = _data.load_scenario("airstrike")
    assert [(a["id"], a["side"], a["arrive"], a["turns"], a["ordnance"], a["fasc"], a["plot"])
            for a in sc["aircraft"]] == [("il2", 1, 1, 3, 2, False, (6, 10)), ("ju87", 0, 2, 3, 1, False, None)]
    assert "airstrike" in _engine.SCENARIO_NAMES and _engine.SCENARIO_NAMES[0] == "introductory"


@pytest.mark.parametrize("old,new,message", [
    ("arrive = 2\n", "", r"airstrike\.toml: aircraft\[1\]\.arrive: expected the turn the aircraft arrives"),
    ("arrive = 2\n", "arrive = 0\n", r"airstrike\.toml: aircraft\[1\]\.arrive: expected an integer from 1 to 50"),
    ("turns = 3\nordnance = 1", "turns = 4\nordnance = 1",
     r"airstrike\.toml: aircraft\[1\]\.turns: expected the number of turns it is present, 1 to 3"),
    ("plot = [6, 10]", "plot = [30, 10]", r"airstrike\.toml: aircraft\[0\]\.plot: expected a bomb point \[x, y\] on the table"),
    ("plot = [6, 10]", "plot = [6]", r"aircraft\[0\]\.plot: expected a bomb point"),
    ('side = "soviet"\narrive', 'side = "british"\narrive', r"aircraft\[0\]\.side: expected german or soviet"),
    ("fasc = false\nplot", 'fasc = "yes"\nplot', r"aircraft\[0\]\.fasc: expected true or false"),
    ("strafe = 7", "strafe = 99", r"aircraft\[0\]\.strafe: expected an integer from 0 to 30"),
    ('id = "ju87"', 'id = "il2"', r"aircraft\[1\]\.id: expected a unique alphanumeric id"),
    ("ordnance = 2\nstrafe = 7", "ordnance = 0\nstrafe = 7",
     r"aircraft\[0\]\.plot: expected no plot: the aircraft never bombs"),
])
def test_bad_aircraft_are_refused_naming_file_key_and_reason(tmp_path, old, new, message):
    text = scenario_text()
    assert old in text
    with pytest.raises(ValueError, match=message):
        load_text(tmp_path, text.replace(old, new, 1))


def test_too_many_aircraft_or_aa_stands_are_refused(tmp_path):
    text = scenario_text()
    planes = text[text.index("[[aircraft]]\nid = \"ju87\""):]
    more = text + "\n" + "\n".join(planes.replace('id = "ju87"', f'id = "ju{i}"') for i in range(3))
    with pytest.raises(ValueError, match=r"airstrike\.toml: aircraft: expected at most 4 aircraft, got 5"):
        load_text(tmp_path, more)
    flak = text.replace('type = "pz4h"', 'type = "flak38"').replace('type = "pzgren"', 'type = "flak38"')
    with pytest.raises(ValueError, match=r"stand: expected at most 6 AA stands for side german, got 7"):
        load_text(tmp_path, flak)


def test_bad_aa_calibre_is_refused(tmp_path):
    text = open(os.path.join(SHIPPED, "data", "weapons.toml")).read()
    p = tmp_path / "weapons.toml"
    p.write_text(text.replace("aa = 20", "aa = 400", 1))
    with pytest.raises(ValueError, match=r"weapons\.toml: flak38\.aa: expected an AA calibre in mm from 1 to 150"):
        _data.load_weapons(str(p))
    p.write_text(text.replace("aa = 20", "aa = true", 1))
    with pytest.raises(ValueError, match=r"flak38\.aa: expected an AA calibre"):
        _data.load_weapons(str(p))


def test_bad_bomb_radius_is_refused(tmp_path):
    text = open(os.path.join(SHIPPED, "data", "charts.toml")).read()
    p = tmp_path / "charts.toml"
    p.write_text(text.replace("bomb_radius = 1", "bomb_radius = 5", 1))
    with pytest.raises(ValueError, match=r"charts\.toml: air\.bomb_radius: expected an integer from 0 to 2, got 5"):
        _data.load_charts(str(p))
