"""Micro Armour: readings between the rule families (issues 11 and 12):
artillery impacts and bombs on improved positions, on unspotted markers and
dummies and (never) on stands off the table; flares at night; haze's 1D20%
alternative; scenario files with a base. One hand-built
position per rule, set up with game.state_from_dict and checked through the
public API; every position is also loaded into the reference model
(tests/reference/microarmour.py), which must agree (check_reference). Each
docstring quotes the rulebook digest (shared/seeds/micro-armour.txt) or names
the design choice (RULES.md).

Positions in the combined scenario (scenarios/combined.toml): batteries lefh
(German 10.5 cm, HE 8, 2 sections, open sheaf: a west-east line) and m30
(Soviet 122 mm, HE 10, 3 sections, closed sheaf: design choice, balance), aircraft il2 (Soviet, bomb
9) and ju87 (German, bomb 12); Soviet improved positions: medium at (15, 9)
(a light building area of the village) and light at (29, 8), both dug
facing west.
"""
from __future__ import annotations

import copy
import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import _data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_artillery import crt  # noqa: E402
from test_microarmour_rules import chances, check_reference, deployed, keep_only, play  # noqa: E402

COMBINED = ardsearch.load_game("microarmour", scenario="combined")
CBASE = deployed(COMBINED.new_initial_state(seed=0).to_dict())


def combined(stands, batteries=None, artillery=None, **top):
    """A combined-scenario state from {id: {field: value}}, battery updates
    {id: {field: value}} and top-level keys (GHQs in the far corners)."""
    d = copy.deepcopy(CBASE)
    d["stands"] = keep_only(d["stands"], stands)
    for b in d["artillery"]["batteries"]:
        b.update((batteries or {}).get(b["id"], {}))
    d["artillery"].update(artillery or {})
    d.update(top)
    state = COMBINED.state_from_dict(d)
    check_reference(state)
    return state


def he(x, y):
    return {"kind": "he", "target": [x, y], "prereg": None}


def lefh_on(x, y):
    """The lefh's markers down on (x, y) and (x+1, y) (open sheaf), its first
    marker's attack due in the artillery phase of turn 3."""
    return dict(batteries={"lefh": {"state": "active", "mission": he(16, 10), "markers": [[x, y]],
                                    "turns_left": 1}},
                artillery={"current": "lefh", "step": "hit", "marker": 0}, phase="artillery", turn=3)


def empty_square(top):
    """An impact state with no stand under the marker: its building roll due."""
    b = next(iter(top["batteries"]))
    x, y = top["batteries"][b]["markers"][0]
    he_ = 8 if b == "lefh" else 10                  # the batteries' HE (weapons.toml ger_105, sov_122)
    return {**top, "artillery": {"current": b, "step": "building", "marker": 0},
            "building_roll": {"at": [x, y], "firepower": he_, "modifier": 0}}


def pos(state, x, y):
    return next(p for p in state.to_dict()["positions"] if p["at"] == [x, y])


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


# ------------------------------------------------------------------ 1. impacts and bombs on improved positions
def test_position_charts_give_dv_5_and_8_and_heavy_none():
    """Digest, Improved positions: "Light ones (3 pts, DV 5) vanish if left
    empty, medium (6 pts, DV 8) need two E results, and heavy ones are usually
    indestructible". charts.toml [position.<class>] dv: 5, 8 and 0 (heavy:
    never attacked)."""
    pc = _data.load_charts()["position"]
    assert (pc["light"]["dv"], pc["medium"]["dv"], pc["heavy"]["dv"]) == (5, 8, 0)


def test_a_stand_dug_in_keeps_its_position_cover_under_an_impact():
    """Digest, LOS: "Target terrain modifiers apply to both the 'to fire'
    cohesion roll and the CRT roll and stack (e.g. medium IP + medium
    buildings = +5/+5 to the cohesion roll, +10 to the CRT roll)"; every stand
    under a marker is attacked. A rifle in the medium position (light
    building +3, position +5) facing the way it was dug takes the impact on
    the CRT +8; facing east (the position's benefit lost: "turning away from
    the original facing loses the benefit") +3."""
    rifle_dv = CBASE["types"]["rifle"]["dv"]
    st = combined({"rfla": {"at": [15, 9], "facing": "w"}}, **lefh_on(15, 9))
    assert chances(st) == pytest.approx(crt(8 - rifle_dv, mod=3 + 5))
    st = combined({"rfla": {"at": [15, 9], "facing": "e"}}, **lefh_on(15, 9))
    assert chances(st) == pytest.approx(crt(8 - rifle_dv, mod=3))


def m30_on(x, y):
    """The m30's closed sheaf (its three sections' markers on (x, y)), its first attack due."""
    return dict(batteries={"m30": {"state": "active", "mission": he(16, 10), "markers": [[x, y]],
                                   "turns_left": 1}},
                artillery={"current": "m30", "step": "hit", "marker": 0}, phase="artillery", turn=3, first="soviet")


def test_an_impact_attacks_the_building_then_the_medium_position_under_it():
    """Digest, Improved positions: "Artillery and bombs attack building areas
    (DV 4/5/6 ...)"; medium positions "(6 pts, DV 8) need two E results".
    After the stands' rolls each marker attacks the building area (HE 10 - DV
    4) and then the position on the same square (HE 10 - DV 8: column +2), a
    `crt:E` or `crt:-` each; the first E counts, the second destroys it, and
    the third marker attacks the building area alone. The lefh (HE 8, column
    0) cannot harm it: that column has no E."""
    st = combined({"rfla": {"at": [15, 9], "facing": "w"}}, **m30_on(15, 9))
    play(st, "crt:S", "crt:S", "crt:S")             # the rifle, once per marker (3 sections)
    assert st.to_dict()["building_roll"]["at"] == [15, 9] and st.to_dict()["position_roll"] is None
    play(st, "crt:-")
    d = st.to_dict()
    assert d["building_roll"] is None and d["position_roll"] == {"at": [15, 9], "firepower": 10, "modifier": 0}
    assert chances(st) == pytest.approx({"crt:E": crt(2)["crt:E"], "crt:-": 1 - crt(2)["crt:E"]})
    play(st, "crt:E")
    assert pos(st, 15, 9)["hits"] == 1 and not pos(st, 15, 9)["destroyed"]
    assert st.to_dict()["building_roll"]["at"] == [15, 9]    # the second marker: building, then position
    play(st, "crt:-", "crt:E")
    assert pos(st, 15, 9)["destroyed"] and pos(st, 15, 9)["hits"] == 2
    assert st.to_dict()["building_roll"]["at"] == [15, 9]    # the third marker: the building only
    play(st, "crt:-")
    assert st.to_dict()["position_roll"] is None and st.to_dict()["phase"] == "fire"
    st = combined({}, **empty_square(m30_on(15, 9)))
    assert chances(st) == pytest.approx({"crt:E": crt(6)["crt:E"], "crt:-": 1 - crt(6)["crt:E"]})  # 10 - DV 4
    play(st, "crt:-")                                # the building area
    st = combined({}, **empty_square(lefh_on(15, 9)))
    play(st, "crt:-")
    assert st.to_dict()["position_roll"]["at"] == [15, 9]
    assert chances(st) == {"crt:-": 1.0}             # HE 8 - DV 8: column 0, no E


def test_an_empty_medium_position_is_attacked_too():
    """Digest: the markers "attack every stand under them", and artillery and
    bombs attack what else is under them (building areas; positions with
    their DV): an empty medium position is still a target (design: it is
    attacked whether or not a stand holds it; a light one left empty has
    already vanished in the marker removal phase)."""
    st = combined({}, **empty_square(m30_on(15, 9)))
    play(st, "crt:-")
    assert st.to_dict()["position_roll"]["at"] == [15, 9]
    play(st, "crt:-")
    assert st.to_dict()["building_roll"]["at"] == [15, 9]    # the second marker


def test_one_e_from_artillery_destroys_a_light_position():
    """Digest: "Light ones (3 pts, DV 5) vanish if left empty" (a DV, no E
    count: design, one E from an impact or a bomb destroys it). The lefh
    (HE 8) on the light position at (29, 8), column 8 - 5 = +3."""
    st = combined({"rfla": {"at": [29, 8], "facing": "w"}}, **lefh_on(29, 8))
    play(st, "crt:S")                                # the rifle (no building there)
    assert st.to_dict()["position_roll"]["at"] == [29, 8]
    assert chances(st)["crt:E"] == pytest.approx(crt(3)["crt:E"])
    play(st, "crt:E")
    assert pos(st, 29, 8)["destroyed"] and stand(st, "rfla")["alive"]


def test_a_bomb_attacks_the_medium_position_under_its_pattern():
    """Digest, Improved positions: "Artillery and bombs attack building areas"
    and positions have a DV (medium "DV 8"). A bomb's pattern over the medium
    position: after the building area, the position rolls against the bomb
    (Il-2 bomb 9 - DV 8, column +1). (Heavy positions, "usually
    indestructible", have dv 0 and are never attacked; a strafe attacks no
    position: RULES.md, Improved positions.)"""
    d = copy.deepcopy(CBASE)
    strike = {"step": "building", "aircraft": "il2", "kind": "bomb", "at": [15, 9], "aa": 0, "direction": "n",
              "square": 4}
    d["air"]["strike"] = strike
    st = combined({}, phase="fire", turn=2, air=d["air"],
                  building_roll={"at": [15, 9], "firepower": 9, "modifier": 0})
    play(st, "crt:-")
    assert st.to_dict()["position_roll"] == {"at": [15, 9], "firepower": 9, "modifier": 0}
    assert chances(st)["crt:E"] == pytest.approx(crt(9 - 8)["crt:E"])
    play(st, "crt:E")
    assert pos(st, 15, 9)["hits"] == 1 and st.to_dict()["position_roll"] is None


def test_a_position_roll_with_nothing_attacking_is_refused():
    """Nothing crashes on a corrupt state: a position roll outside an
    impact's or a bomb's resolution, or on a position with no DV or gone, is
    refused with a ValueError naming the problem."""
    with pytest.raises(ValueError):
        combined({}, phase="fire", turn=2, position_roll={"at": [15, 9], "firepower": 8, "modifier": 0})
    with pytest.raises(ValueError):
        combined({}, position_roll={"at": [3, 3], "firepower": 8, "modifier": 0})


# ------------------------------------------------------------------ 2. impacts and bombs on markers; off the table
# The ambush_support scenario (scenarios/ambush_support.toml): the Ambush (Soviet
# markers m1..m9 set up hidden, m2 a dummy; m5 and m8 dummies until session 10) with a German battery lefh
# (10.5 cm, HE 8, 2 sections, open sheaf: the point and 1" east) and a Stuka flight
# ju87 (turns 2-4, bomb 12, strafe 4).
AMBS = ardsearch.load_game("microarmour", scenario="ambush_support")
ABASE = AMBS.new_initial_state(seed=0).to_dict()


def ambush_support(stands, keep=(), batteries=None, artillery=None, **top):
    """An ambush_support state: `stands` applied, the markers in `keep` left as set
    up (hidden), every other stand but the GHQs lost (dummies not kept removed)."""
    d = copy.deepcopy(ABASE)
    d.update(conditions=dict(ABASE["conditions"], sighting=3, sighting_turn=3))
    d["stands"] = keep_only(d["stands"], stands, keep=keep)
    for b in d["artillery"]["batteries"]:
        b.update((batteries or {}).get(b["id"], {}))
    d["artillery"].update(artillery or {})
    d.update(top)
    state = AMBS.state_from_dict(d)
    check_reference(state)
    return state


def deviating(aim, turn=3):
    """The lefh's fire plotted on `aim` due now, its 'to deviate' roll next."""
    return dict(batteries={"lefh": {"state": "plotted", "mission": he(*aim), "lands": turn, "plot_turn": turn - 2}},
                artillery={"current": "lefh", "step": "deviate"}, phase="artillery", turn=turn)


def ids(state):
    return {s["id"] for s in state.to_dict()["stands"]}


def test_a_dummy_under_an_impact_is_shown_and_removed():
    """Digest: "The markers attack every stand under them, friend or foe";
    dummies are "revealed as a dummy (removed)" (Minefields; RULES.md: the dummy
    stands work alike). Design (the boxed game): an impact landing on an
    unspotted marker shows it first, as a public chance outcome; a dummy is
    removed and the impact attacks nothing there. The lefh aimed at 19,16
    deviates 1" north onto the dummy m2 at 19,17."""
    st = ambush_support({}, keep=("m2",), **deviating((19, 16)))
    play(st, "c:fail", "dev:n1")
    assert chances(st) == {"shown:dummy": 1.0}
    play(st, "shown:dummy")
    assert "m2" not in ids(st) and st.to_dict()["artillery"]["step"] != "hit"


def test_a_real_stand_under_an_impact_is_shown_then_attacked():
    """Digest: "Every stand covered by an artillery impact sheaf is attacked
    regardless of nationality." Design: the unspotted marker m3 under the
    impact at 16,10 is shown (`shown:<type>`, public), then attacked as the
    stand it is (its type's defence, the village's cover); m6 at 18,9 is not
    under the sheaf (16,10 and 17,10) and stays hidden."""
    st = ambush_support({}, keep=("m3", "m6"), **deviating((16, 10)))
    truth = next(s for s in ABASE["stands"] if s["id"] == "m3")["type"]
    play(st, "c:ok")
    assert chances(st) == {f"shown:{truth}": 1.0}
    play(st, f"shown:{truth}")
    by = {s["id"]: s for s in st.to_dict()["stands"]}
    assert not by["m3"]["hidden"] and by["m6"]["hidden"]
    d = st.to_dict()["artillery"]
    assert d["step"] == "hit" and d["marker"] == 0 and "crt:S" in chances(st)


def test_the_reveal_under_an_impact_keeps_one_view_for_two_truths():
    """RULES.md, Hidden information: a view shows a marker, not what is under it.
    Which markers an impact shows depends only on where the markers are
    (public): two truths that differ under the markers give the German the same
    view before the reveal; the view's `shown:` node lists what is still under
    the Soviet markers by count, and after the true outcome the view follows the
    game."""
    st = ambush_support({}, keep=("m1", "m3", "m2"), **deviating((16, 10)))
    d = st.to_dict()
    by = {s["id"]: s for s in d["stands"]}
    by["m1"]["type"], by["m3"]["type"] = by["m3"]["type"], by["m1"]["type"]
    other = AMBS.state_from_dict(d)
    assert st.view(0).raw() == other.view(0).raw()
    play(st, "c:ok")
    other.apply("c:ok")
    assert st.view(0).raw() == other.view(0).raw()
    view = st.view(0)
    got = {view.action_to_string(a): p for a, p in view.chance_outcomes()}
    assert set(got) == {"shown:" + by["m1"]["type"], "shown:" + by["m3"]["type"], "shown:dummy"}
    truth = next(iter(chances(st)))
    st.apply(truth)
    view.apply(truth)
    assert view.raw() == st.view(0).raw()


def test_a_bomb_shows_the_markers_under_its_pattern():
    """Digest, Airstrikes: a bomb attacks where it lands ("attacks whatever
    stand occupies the new location, friend or foe"). Design: every unspotted
    marker under the 3" x 3" pattern is shown first; a dummy is removed. The
    Stuka's bomb on 19,16 covers m2 (the ambush's one dummy, 19,17; until
    session 10 this was m5 on 12,6, now a T-34)."""
    d = copy.deepcopy(ABASE)
    d["air"]["strike"] = {"step": "deviate", "aircraft": "ju87", "kind": "bomb", "at": [19, 16], "aa": 0,
                          "direction": "n", "square": 0}
    st = ambush_support({}, keep=("m2",), phase="fire", turn=3, air=d["air"])
    play(st, "c:ok")
    assert chances(st) == {"shown:dummy": 1.0}
    play(st, "shown:dummy")
    assert "m2" not in ids(st)


def test_unspotted_markers_are_no_strafe_or_fasc_targets():
    """RULES.md, Hidden set-up: "an unspotted marker cannot be attacked (no
    enemy has spotted a target there)": the Stuka may strafe a spotted stand
    but no marker."""
    d = copy.deepcopy(ABASE)
    d["air"]["strike"] = {"step": "choose", "aircraft": "ju87", "kind": "strafe", "at": [0, 0], "aa": 0,
                          "direction": "n", "square": 0}
    st = ambush_support({"m1": {"hidden": False}}, keep=("m3",), phase="fire", turn=3, air=d["air"])
    got = [st.action_to_string(a) for a in st.legal_actions()]
    assert "strafe m1" in got and "strafe m3" not in got


MEETING_AIR = '''title = "Meeting with air support (test)"
base = "meeting"

[[aircraft]]
id = "il2"
name = "Il-2 Shturmovik flight"
side = "soviet"
arrive = 1
turns = 3
ordnance = 2
strafe = 7
bomb = 9
fasc = true
'''

OFF_TABLE_CHECK = '''
import sys
sys.path.insert(0, {tests!r})
import ardsearch
from test_microarmour_rules import check_reference
g = ardsearch.load_game("microarmour", scenario="meeting_air")
d = g.new_initial_state(seed=0).to_dict()
off = d["units"]["offtable"]
ger = [s for s in d["stands"] if s["side"] == "german" and s["id"] in off]
t = ger[0]
d.update(phase="fire", turn=1, active="soviet", first="soviet")
d["air"]["strike"] = {{"step": "choose", "aircraft": "il2", "kind": "strafe", "at": [0, 0], "aa": 0,
                      "direction": "n", "square": 0}}
d["air"]["aircraft"][0]["fasc_ok"] = False
st = g.state_from_dict(d)
check_reference(st)
legal = [st.action_to_string(a) for a in st.legal_actions()]
assert not any(m.startswith("strafe " + s["id"]) and m == "strafe " + s["id"] for s in ger for m in legal), legal
d["air"]["strike"] = {{"step": "deviate", "aircraft": "il2", "kind": "strafe", "at": t["at"],
                      "aa": 0, "direction": "n", "square": 0}}
st = g.state_from_dict(d)
check_reference(st)
st.apply("c:ok")
check_reference(st)
dd = st.to_dict()
assert dd["air"]["strike"] is None or dd["air"]["strike"]["step"] != "crt", dd["air"]["strike"]
print("ok")
'''


def test_stands_off_the_table_are_never_attacked_by_aircraft(tmp_path):
    """RULES.md, Entry from the table edge (design): a stand waiting off the
    table "neither fires nor is attacked"; its entry square is only where it
    will come on. A scenario with entering stands and aircraft now loads (the
    meeting scenario with an Il-2, written to a scenario folder named by
    ARDSEARCH_MICROARMOUR_SCENARIOS): on turn 1 the Il-2 may not strafe a
    German stand still off the table, and a strafe landing on its entry
    square (as a deviated one may) makes no CRT roll against it. (Bombs fly
    from an aircraft's second turn and fire plotted in turn 1 lands in turn 2
    at the earliest, when every stand has entered; they use the same rule.)"""
    import subprocess
    (tmp_path / "meeting_air.toml").write_text(MEETING_AIR, encoding="utf-8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = OFF_TABLE_CHECK.format(tests=os.path.join(root, "tests"))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=root, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path)))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


# ------------------------------------------------------------------ 4. haze's 1D20% alternative
def test_haze_percent_cuts_the_board_sighting_by_1d20_percent():
    """Digest, Weather: "haze/light fog to 2D8" (or by 1D20%)" "rolled at the
    start of the turn". Weather `haze_percent`: the board's 20" less 1D20
    percent, rounded down: 19" for 1-5%, 18" for 6-10%, 17" for 11-15%, 16" for
    16-20% (each 5/20); `haze` keeps its 2D8."""
    g = ardsearch.load_game("microarmour", scenario="introductory", weather="haze_percent")
    st = g.new_initial_state(seed=0)
    check_reference(st)
    assert chances(st) == pytest.approx({"sight:16": 0.25, "sight:17": 0.25, "sight:18": 0.25, "sight:19": 0.25})
    play(st, "sight:17")
    assert st.to_dict()["conditions"]["sighting"] == 17 and st.to_dict()["conditions"]["weather"] == "haze_percent"
    g = ardsearch.load_game("microarmour", scenario="introductory", weather="haze")
    assert len(chances(g.new_initial_state(seed=0))) == 15          # 2D8: 2..16


# ------------------------------------------------------------------ 3. flares at night
def test_a_side_decides_to_fire_a_flare_at_the_start_of_a_night_turn():
    """Digest, Weather: "At night, force cohesion drops by up to 4 (flares can
    offset this)". The ambush at night (`night=night`): the Germans lose 2 and
    have 2 flares, the Soviets lose 3 and have 1 (scenario data). After the
    turn's sighting roll each side with flares left decides, German first
    (`flare` or `pass`); a flare gives the side back what the night took, for
    that turn (design)."""
    g = ardsearch.load_game("microarmour", scenario="ambush", night="night")
    st = g.new_initial_state(seed=0)
    assert st.to_dict()["cohesion"] == [13, 9]
    play(st, next(iter(chances(st))))                 # the sighting roll
    assert st.current_player() == 0 and sorted(st.action_to_string(a) for a in st.legal_actions()) == ["flare", "pass"]
    play(st, "flare")
    d = st.to_dict()
    assert d["cohesion"] == [15, 9] and d["conditions"]["flares"] == [1, 1] and d["conditions"]["flare"] == [True, False]
    assert st.current_player() == 1
    play(st, "pass")
    d = st.to_dict()
    assert d["cohesion"] == [15, 9] and d["conditions"]["flare_decided"] == [True, True] and st.is_chance_node()
    assert set(chances(st)) == {"init:G"}   # the initiative roll: 15 + 1D6 against 9 + 1D6


def test_a_flare_burns_for_its_turn_only_and_a_side_without_flares_is_not_asked():
    """Digest: flares "offset" the night's loss: one flare, one turn (design).
    At the next turn the German cohesion is 13 again; the Soviets, their one
    flare spent, are not asked."""
    g = ardsearch.load_game("microarmour", scenario="ambush", night="night")
    d = g.new_initial_state(seed=0).to_dict()
    d.update(phase="fire", turn=1, active="soviet", first="german", passed=[True, False])
    d["cohesion"] = [15, 12]
    d["conditions"].update(flares=[1, 0], flare=[True, True], flare_decided=[True, True], sighting=3, sighting_turn=1)
    st = g.state_from_dict(d)
    check_reference(st)
    for _ in range(300):                              # to the start of turn 2, passing where one may
        if st.to_dict()["turn"] == 2:
            break
        legal = [st.action_to_string(a) for a in st.legal_actions()] if not st.is_chance_node() else []
        play(st, next(iter(chances(st))) if st.is_chance_node() else "pass" if "pass" in legal else legal[0])
    d = st.to_dict()
    assert d["turn"] == 2 and d["cohesion"] == [13, 9] and d["conditions"]["flare"] == [False, False]
    play(st, next(iter(chances(st))))                 # the sighting roll
    assert st.current_player() == 0                   # the Germans decide; the Soviets have no flare left
    play(st, "pass")
    assert st.is_chance_node() and set(chances(st)) <= {"init:G", "init:S"}


def test_flares_are_public_and_day_games_have_none():
    """The decision is public (both views show it); by day the scenario's flares
    and night loss do not apply (Weather and night: "At night")."""
    g = ardsearch.load_game("microarmour", scenario="ambush")
    d = g.new_initial_state(seed=0).to_dict()
    assert d["cohesion"] == [15, 12] and d["conditions"]["flares"] == [0, 0] and d["conditions"]["night_loss"] == [0, 0]
    with pytest.raises(ValueError):
        bad = copy.deepcopy(d)
        bad["conditions"]["flares"] = [1, 0]
        g.state_from_dict(bad)


# ------------------------------------------------------------------ scenario files
def _load_text(tmp_path, text, name="variant"):
    p = tmp_path / f"{name}.toml"
    p.write_text(text, encoding="utf-8")
    return _data.load_scenario(name, path=str(p))


def test_a_base_scenario_takes_positions_checked_like_any_scenario(tmp_path):
    """Digest, Improved positions: light ones "vanish if left empty": a
    `[[position]]` added on a base (RULES.md, Scenarios) is checked as in any
    scenario file: a light position on a square with no stand of its side is
    refused on load with one line naming the file and the key."""
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "combined.toml")).read()
    assert [(q["x"], q["y"], q["class"]) for q in _load_text(tmp_path, text)["positions"]] == [(15, 9, 1), (29, 8, 0)]
    bad = text.replace("at = [29, 8]\nclass = \"light\"", "at = [20, 9]\nclass = \"light\"")
    assert bad != text
    with pytest.raises(ValueError) as e:
        _load_text(tmp_path, bad)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("variant.toml: position[1].at")


def test_a_base_must_be_a_scenario_without_a_base(tmp_path):
    """RULES.md, Scenarios (design): `base` names a scenario file without a
    base of its own (a variant is written once, on a full scenario)."""
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "ambush_support.toml")).read()
    assert _load_text(tmp_path, text)["title"] == "Ambush under Fire Support"
    with pytest.raises(ValueError, match="base: expected the name of a scenario file without a base"):
        _load_text(tmp_path, text.replace('base = "ambush"', 'base = "combined"'))


def test_a_strafe_landing_on_a_dummy_shows_and_removes_it():
    """Digest, Airstrikes: "Deviation is 1D8 direction and 1D6 inches (1D6/2
    for strafing)"; a strike "attacks whatever stand occupies the new
    location". A strafe that lands on the dummy m2 (19,17; m8 until session 10,
    now a T-34) shows it first
    (`shown:dummy`, public) and attacks nothing; a real marker there would be
    attacked as the stand it is."""
    d = copy.deepcopy(ABASE)
    d["air"]["strike"] = {"step": "distance", "aircraft": "ju87", "kind": "strafe", "at": [19, 16], "aa": 0,
                          "direction": "n", "square": 0}
    st = ambush_support({}, keep=("m2",), phase="fire", turn=3, air=d["air"])
    play(st, "dist:1")                                # 1" north: onto m2
    assert chances(st) == {"shown:dummy": 1.0}
    play(st, "shown:dummy")
    assert "m2" not in ids(st) and (st.to_dict()["air"]["strike"] is None
                                    or st.to_dict()["air"]["strike"]["step"] != "crt")
