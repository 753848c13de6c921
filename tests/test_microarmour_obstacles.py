"""Micro Armour: improved positions, wire, anti-tank ditches and minefields
(RULES.md "Improved positions", "Wire and anti-tank ditches", "Minefields"),
one hand-built position per rule of the `minefield` scenario, each docstring
quoting the digest (shared/seeds/micro-armour.txt) words it checks; the
reference model (tests/reference/microarmour_obstacles.py) must agree on every
position (check_reference).

The minefield scenario (scenarios/minefield.toml) is the Introductory table:
village (buildings, light) at x 13..16, y 8..10, road along y=10, clear rows
y=11..13 east of x=12. Soviet improved positions: light (16,9), medium (16,10),
heavy (16,11), medium (15,11) and an empty medium (12,12), all dug facing west.
Wire (12,8) (12,10) (12,11) (13,8); AT ditches (11,5) (11,6) (11,13) (11,14).
Soviet minefield markers: standard (10,9), hasty (10,10), concentrated (11,12),
standard (9,7), dummies (10,8) and (11,11); German: hasty (20,9), dummy (20,10).
"""
from __future__ import annotations

import os
import random
import sys
from fractions import Fraction

import pytest

import ardsearch
from ardsearch.games.microarmour import _data, _obstacles_data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import attack, chances, check_reference, deployed, keep_only, mover_record, moves, play  # noqa: E402
from test_microarmour_weapons import column  # noqa: E402

GAME = ardsearch.load_game("microarmour", scenario="minefield")
BASE = deployed(GAME.new_initial_state(seed=0).to_dict())


def mpos(stands, **top):
    """A position of the minefield scenario: only `stands` (and the GHQs)."""
    d = dict(BASE)
    d["stands"] = keep_only(BASE["stands"], stands)
    d.update(top)
    state = GAME.state_from_dict(d)
    check_reference(state)
    return state


def mlocal(sid):
    """A stand's index within its side in the minefield scenario (its Soviet force, one
    T-34 and the ZiS-3 fewer than the Introductory's since the session-9 balance change,
    no longer lines up with the Introductory's slots that `attack` reads by default)."""
    from ardsearch.games.microarmour import _engine
    return list(_engine.SC_IDS[_engine.SCENARIO_NAMES.index("minefield")]).index(sid) & 15


def mover(sid, step="step", ordered=True):
    return {"mover": mover_record(sid, step, ordered)}


def moving(sid, at, mp, steps=1, step="step", side="german", **extra):
    """`sid` in movement posture at `at` with `mp` half-MP left, moving."""
    stands = {sid: {"at": at, "posture": "move", "mp": mp, "steps": steps, "facing": "e"}, **extra}
    return mpos(stands, phase="movement", active=side, **mover(sid, step))


def marker(state, x, y):
    return next(m for m in state.to_dict()["minefields"] if m["at"] == [x, y])


def ip(state, x, y):
    return next(p for p in state.to_dict()["positions"] if p["at"] == [x, y])


# ------------------------------------------------------------------ improved positions
@pytest.mark.parametrize("facing,cover", [("w", 3 + 5), ("e", 3)])
def test_improved_position_stacks_its_cover_on_both_rolls_while_facing_as_dug(facing, cover):
    """Digest: "Improved positions add stacking cohesion and CRT modifiers ...
    turning away from the original facing loses the benefit", and "Target terrain
    modifiers apply to both the 'to fire' cohesion roll and the CRT roll and stack
    (e.g. medium IP + medium buildings = +5/+5 ...)". A rifle platoon (DV 5) in the
    medium position (+5/+5, design: the medium building class's values) on a light
    building square (+3/+3), fired on by a Pz IV (HE 5) 3" away: cohesion 15 - 8
    facing west as dug, 15 - 3 turned east; the CRT roll +8 or +3 (range 0)."""
    stands = {"pz4a": {"at": [16, 13], "facing": "s"}, "rflb": {"at": [16, 10], "facing": facing}}
    st = mpos(stands, phase="fire", active="german", **attack(["pz4a"], "rflb"))
    assert chances(st)["c:ok"] == pytest.approx((15 - cover) / 20)
    st = mpos(stands, phase="fire", active="german", **attack(["pz4a"], "rflb", step="crt"))
    assert chances(st) == pytest.approx(column(0, cover))


def test_improved_position_helps_only_its_own_side():
    """Digest: improved positions "are placed on the playing surface as part of a
    player's initial forces": an enemy stand in one gets nothing from it (design:
    it was dug for the other side's front). A German Panzergrenadier (DV 5) in
    the Soviet medium position at (12,12), clear, facing west as dug, fired on by a
    rifle platoon (HE 4) 2" away: CRT roll unmodified (CD -1, range 0)."""
    stands = {"pgra": {"at": [12, 12], "facing": "w"}, "rfla": {"at": [12, 14], "facing": "n"}}
    st = mpos(stands, phase="fire", active="soviet",
              **attack(["rfla"], "pgra", side="soviet", step="crt", current=mlocal("rfla")))
    assert chances(st) == pytest.approx(column(-1, 0))


def test_close_assault_ignores_improved_positions():
    """Digest *Close assault*: "Terrain and improved positions are ignored". A
    Panzergrenadier assaulting the rifle platoon in the medium position: the
    CRT roll is -3, nothing for the position or the buildings."""
    stands = {"pgra": {"at": [15, 10], "facing": "e", "posture": "move", "mp": 2},
              "rflb": {"at": [16, 10], "facing": "w"}}
    mv = mover("pgra", "close")
    mv["mover"]["close_target"] = "rflb"
    st = mpos(stands, phase="movement", active="german", **mv,
              **attack(["pgra"], "rflb", kind="assault", step="crt"))
    assert chances(st) == pytest.approx(column(2 - 5 + 2, -3))   # AP/HE 4 vs DV 5, defender not halved


@pytest.mark.parametrize("at,hits_before,hits_after,destroyed", [
    ((15, 11), 0, 1, False),     # medium: the first E
    ((15, 11), 1, 2, True),      # medium: the second E destroys it
    ((16, 11), 0, 0, False),     # heavy: indestructible
])
def test_an_e_result_counts_against_the_position(at, hits_before, hits_after, destroyed):
    """Digest: "medium (6 pts, DV 8) need two E results, and heavy ones are
    usually indestructible" (design: the E results are those on its occupant;
    the light one "vanish[es] if left empty"). The rifle platoon in movement
    posture (DV halved) and turned east (no cover from the position: an E is
    possible), a Pz IV adjacent."""
    stands = {"pz4a": {"at": [at[0], at[1] + 1], "facing": "s"},
              "rflb": {"at": list(at), "facing": "e", "posture": "move"}}
    positions = [dict(p) for p in BASE["positions"]]
    for p in positions:
        if p["at"] == list(at):
            p["hits"] = hits_before
    st = mpos(stands, phase="fire", active="german", positions=positions,
              **attack(["pz4a"], "rflb", step="crt"))
    play(st, "crt:E")
    p = ip(st, *at)
    assert (p["hits"], p["destroyed"]) == (hits_after, destroyed)
    assert not next(s for s in st.to_dict()["stands"] if s["id"] == "rflb")["alive"]


def test_light_position_vanishes_when_left_empty_in_marker_removal():
    """Digest: "Light ones (3 pts, DV 5) vanish if left empty". The light
    position (16,9) without its rifle platoon at the end of the movement phase
    is removed in the marker removal phase; the empty medium one (12,12) stays."""
    st = mpos({"rfla": {"at": [17, 12]}}, phase="movement", active="german")
    play(st, "pass")
    play(st, "pass")
    assert st.to_dict()["phase"] != "movement"
    assert ip(st, 16, 9)["destroyed"] and not ip(st, 12, 12)["destroyed"]


def test_light_position_held_does_not_vanish():
    """Digest: light positions vanish only "if left empty"."""
    st = mpos({"rfla": {"at": [16, 9], "facing": "w"}}, phase="movement", active="german")
    play(st, "pass")
    play(st, "pass")
    assert not ip(st, 16, 9)["destroyed"]


# ------------------------------------------------------------------ wire and ditches
def test_anti_tank_ditch_stops_vehicles_and_slows_infantry():
    """Digest: "Wire and AT ditches cost 2 pts per inch" (their price; their
    effect on movement is a design table, charts.toml [obstacle]): an AT ditch is
    impassable to vehicles and costs infantry 2 MP an inch."""
    st = moving("pz4a", [10, 5], 20)
    assert "step e" not in moves(st) and "step n" in moves(st)
    st = moving("pgra", [10, 5], 8)
    assert "step e" in moves(st)
    play(st, "step e")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pgra")["mp"] == 4


def test_wire_costs_infantry_three_and_tracks_as_clear():
    """Design (charts.toml [obstacle] wire_cost): tracks crush wire (1 MP an
    inch, as clear), infantry cut through it at 3 MP an inch."""
    st = moving("pgra", [12, 12], 8)
    play(st, "step s")           # (12,11): wire on clear terrain
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pgra")["mp"] == 2
    st = moving("pz4a", [12, 12], 20)
    play(st, "step s")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")["mp"] == 18


# ------------------------------------------------------------------ minefields
def test_entering_an_enemy_marker_stops_the_stand():
    """Digest *Minefields*: "A stand entering a marker must stop". A Pz IV
    stepping onto the Soviet marker at (10,9) may only stop there."""
    st = moving("pz4a", [9, 9], 20)
    play(st, "step e")
    assert not any(m.startswith(("step", "overrun")) for m in moves(st))
    assert "stop e" in moves(st)


def test_a_sides_own_markers_do_not_stop_it():
    """Design: the side that laid a field has its Minefield Record Sheet and
    passes its own markers. A T-34 crosses the Soviet marker (10,9)."""
    st = moving("t34a", [11, 9], 20, side="soviet")
    play(st, "step w")
    assert any(m.startswith("step") for m in moves(st))


def test_a_marker_held_by_another_stand_is_not_entered():
    """A stand entering a marker must stop, so it cannot enter one another
    stand holds (it could not stop there)."""
    st = moving("pz4a", [9, 9], 20, pz4b={"at": [10, 9]})
    assert "step e" not in moves(st)


def test_leaving_a_marker_needs_plus_3_on_the_movement_roll():
    """Digest: "it needs a +3 cohesion roll to leave". An ordered Pz IV on the
    marker (10,9), German cohesion 15: passes on 12 or less."""
    st = moving("pz4a", [10, 9], 0, steps=0, step="roll")
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})
    st = moving("pz4a", [9, 9], 0, steps=0, step="roll")
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})


def test_leaving_a_dummy_reveals_and_removes_it():
    """Digest: "Only then is the marker revealed as a dummy (removed)". The Pz
    IV passes its roll to leave the dummy at (10,8): the marker goes, the move
    goes on."""
    st = moving("pz4a", [10, 8], 0, steps=0, step="roll")
    play(st, "c:ok")
    assert st.to_dict()["mover"]["step"] == "reveal" and chances(st) == {"mine:dummy": 1.0}
    play(st, "mine:dummy")
    m = marker(st, 10, 8)
    assert m["revealed"] and m["removed"] and m["kind"] == "dummy"
    assert st.to_dict()["mover"]["step"] == "step"


def test_failing_to_leave_reveals_nothing():
    """Digest: "needs a +3 cohesion roll to leave. Only then is the marker
    revealed": a failed roll leaves the stand there and the marker hidden."""
    st = moving("pz4a", [10, 9], 0, steps=0, step="roll")
    play(st, "c:fail")
    assert not marker(st, 10, 9)["revealed"]


@pytest.mark.parametrize("at,col", [((10, 10), 2), ((10, 9), 4), ((11, 12), 6)])
def test_a_real_field_attacks_the_stand_leaving_it_on_a_fixed_column(at, col):
    """Digest: "Only then is the marker revealed as a dummy (removed) or real,
    in which case it attacks on a fixed CRT column" and "Minefields and overruns
    attack on fixed columns" (columns by kind, design: hasty +2, standard +4,
    concentrated +6; 2D6 unmodified)."""
    st = moving("pz4a", list(at), 0, steps=0, step="roll")
    play(st, "c:ok")
    play(st, "mine:" + marker(st, *at)["kind"])
    m = marker(st, *at)
    assert m["revealed"] and not m["removed"]
    assert st.to_dict()["minefield_attack"] == list(at)
    assert chances(st) == pytest.approx(column(col, 0))


def test_mine_result_halts_the_stand_and_no_effect_lets_it_move_on():
    """Design: the field's result lands on the stand leaving it; any S, (S) or
    D halts it in the field, '-' lets it move on."""
    st = moving("pz4a", [10, 9], 0, steps=0, step="roll")
    play(st, "c:ok")
    play(st, "mine:standard")
    t = st.clone()
    play(st, "crt:S")
    s = next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")
    assert s["suppressed"] and s["moved"] and s["at"] == [10, 9] and st.to_dict()["mover"] is None
    play(t, "crt:-")
    assert t.to_dict()["mover"]["step"] == "step"
    assert any(m.startswith("step") for m in moves(t))     # it left the field: free to step off


def test_a_revealed_real_field_still_stops_and_attacks():
    """A real field, once revealed, stays on the table ("real, in which case it
    attacks"): a stand entering it later must stop and roll +3 to leave."""
    mf = [dict(m, revealed=(m["at"] == [10, 9])) for m in BASE["minefields"]]
    st = moving("pz4a", [10, 9], 0, steps=0, step="roll", minefields=mf)
    assert chances(st)["c:ok"] == pytest.approx(12 / 20)
    play(st, "c:ok")
    assert st.to_dict()["minefield_attack"] == [10, 9]


# ------------------------------------------------------------------ hidden information
def test_a_view_shows_the_opponents_markers_not_what_they_are():
    """Digest: "all recorded on a Minefield Record Sheet" (secret): the German
    view shows the Soviet markers with kind unknown, its own with their kind;
    a revealed marker shows its kind to both."""
    mf = [dict(m, revealed=(m["at"] == [10, 9])) for m in BASE["minefields"]]
    st = mpos({}, minefields=mf)
    v = st.view(0).to_dict()["minefields"]
    for m in v:
        if m["side"] == "soviet" and m["at"] != [10, 9]:
            assert m["kind"] == "unknown"
        else:
            assert m["kind"] != "unknown"
    assert next(m for m in v if m["at"] == [10, 9])["kind"] == "standard"
    w = st.view(1).to_dict()["minefields"]
    assert all(m["kind"] != "unknown" for m in w if m["side"] == "soviet")
    assert next(m for m in w if m["at"] == [20, 9])["kind"] == "unknown"
    # two record sheets that differ only in the hidden truth give the same German view
    d = st.to_dict()
    d["minefields"] = [dict(m, kind={"dummy": "hasty", "hasty": "dummy"}.get(m["kind"], m["kind"]))
                       if m["at"] in ([10, 10], [10, 8]) else m for m in d["minefields"]]
    other = GAME.state_from_dict(d)
    assert other.view(0).to_dict() == st.view(0).to_dict()
    assert other.view(0).serialize() == st.view(0).serialize()


def test_the_reveal_is_a_chance_event_both_players_see():
    """The marker's kind becomes known to the player leaving it only when it is
    revealed: in the German view the reveal lists the kinds not yet seen over
    the unrevealed Soviet markers (2 standard, 1 hasty, 1 concentrated, 2
    dummies over 6); the real state knows it; replaying the outcome on the view
    gives the view of the real game."""
    st = moving("pz4a", [10, 10], 0, steps=0, step="roll")
    play(st, "c:ok")
    assert chances(st) == {"mine:hasty": 1.0}
    v = st.view(0)
    got = {v.action_to_string(a): p for a, p in v.chance_outcomes()}
    assert got == pytest.approx({"mine:standard": 2 / 6, "mine:hasty": 1 / 6, "mine:concentrated": 1 / 6,
                                 "mine:dummy": 2 / 6})
    v.apply("mine:hasty")
    st.apply("mine:hasty")
    assert v.raw() == st.view(0).raw()


def test_determinize_deals_the_unseen_kinds_again():
    """The opponent's unrevealed markers get the kinds not yet seen (the side's
    counts are public in the scenario, which markers hold them is not), in a
    random order; revealed markers and the viewer's own keep theirs."""
    mf = [dict(m, revealed=(m["at"] in ([10, 9], [10, 8])), removed=(m["at"] == [10, 8]))
          for m in BASE["minefields"]]
    st = mpos({}, minefields=mf)
    seen = set()
    for seed in range(60):
        d = st.resample_from_infostate(0, seed=seed).to_dict()
        kinds = {tuple(m["at"]): m["kind"] for m in d["minefields"]}
        assert kinds[(10, 9)] == "standard" and kinds[(10, 8)] == "dummy"
        assert kinds[(20, 9)] == "hasty" and kinds[(20, 10)] == "dummy"
        hidden = sorted(k for xy, k in kinds.items() if xy in ((10, 10), (11, 12), (9, 7), (11, 11)))
        assert hidden == ["concentrated", "dummy", "hasty", "standard"]
        seen.add(kinds[(10, 10)])
    assert seen == {"concentrated", "dummy", "hasty", "standard"}


# ------------------------------------------------------------------ bad input
def _corrupt(state, offset, value):
    data = bytearray(state.serialize())
    base = len(data) - GAME.state_size
    data[base + offset] = value
    return bytes(data)


# byte offsets in MaState (RULES.md "The state struct"): the obstacle block at OB: ip_state[8] at OB,
# mf_kind OB+8..11, mf_shown OB+12..13, mf_gone OB+14..15, mf_cur OB+16, mf_bnext OB+17, mf_breach[16] OB+18..33
OB = 394


@pytest.mark.parametrize("offset,value,why", [
    (OB + 2, 1, "a heavy position with an E counted"),
    (OB + 1, 128 | 1, "a medium position destroyed after one E"),
    (OB + 7, 1, "a position the scenario does not have"),
    (OB + 8, 0xFF, "record sheet kinds that do not match the scenario's counts"),
    (OB + 13, 0x80, "a marker the scenario does not have revealed"),
    (OB + 16, 3, "a minefield attack outside one"),
    (OB + 17, 1, "a breaching roll outside the marker removal phase"),
    (OB + 18, 1, "breaching progress on a marker not revealed"),
])
def test_corrupt_obstacle_bytes_are_refused(offset, value, why):
    st = GAME.new_initial_state(seed=0)
    GAME.deserialize_state(st.serialize())
    with pytest.raises(ValueError):
        GAME.deserialize_state(_corrupt(st, offset, value))


def test_revealed_and_removed_at_once_is_refused():
    st = GAME.new_initial_state(seed=0)
    data = bytearray(st.serialize())
    base = len(data) - GAME.state_size
    data[base + OB + 12] |= 1 << 4            # marker 4 (the dummy at (10,8)) shown ...
    data[base + OB + 14] |= 1 << 4            # ... and removed
    with pytest.raises(ValueError):
        GAME.deserialize_state(bytes(data))


def _scenario(**extra):
    d = {"map": ["....."] * 5}
    return d | extra


@pytest.mark.parametrize("extra,msg", [
    ({"position": [{"side": "german", "at": [1, 1], "class": "light", "facing": "e"}]}, "position[0].at"),
    ({"position": [{"side": "german", "at": [2, 2], "class": "huge", "facing": "e"}]}, "position[0].class"),
    ({"position": [{"side": "german", "at": [2, 2], "class": "heavy", "facing": "up"}]}, "position[0].facing"),
    ({"wire": [[9, 9]]}, "wire[0]"),
    ({"ditch": [[1, 1], [1, 1]]}, "ditch[1]"),
    ({"minefield": [{"side": "soviet", "at": [2, 2], "kind": "standard"}]}, "minefield[0].at"),
    ({"position": [{"side": "german", "at": [2, 2], "class": "heavy", "facing": "e", "wire": []}]},
     "position[0].wire"),
    ({"minefield": [{"side": "german", "at": [3, 3], "kind": "nasty"}]}, "minefield[0].kind"),
    ({"minefield": [{"side": "german", "at": [3, 3], "kind": "hasty"},
                    {"side": "german", "at": [3, 4], "kind": "dummy"},
                    {"side": "german", "at": [4, 4], "kind": "dummy"}]}, "at most 1 dummy"),
])
def test_bad_scenario_keys_fail_with_one_line_naming_the_key(extra, msg):
    charts = _data.load_charts()
    sides = [{"cohesion": 15}, {"cohesion": 12}]
    stands = [[{"x": 2, "y": 2}], [{"x": 0, "y": 0}]]
    with pytest.raises(ValueError) as e:
        _obstacles_data.scenario_obstacles("x/minefield.toml", _scenario(**extra), charts, ["german", "soviet"],
                                           sides, stands, 5, 5)
    assert msg in str(e.value) and "\n" not in str(e.value) and str(e.value).startswith("minefield.toml: ")


def test_dummy_allowance_follows_force_cohesion():
    """Digest: "Each real minefield may be accompanied by dummies according to
    force cohesion (1/4 at 11 or less, 1/2 at 12-14, 1 at 15+)" (rounded down,
    design)."""
    charts = _data.load_charts()
    assert [_obstacles_data.dummies_allowed(charts, c, 4) for c in (8, 11, 12, 14, 15, 20)] == [1, 1, 2, 2, 4, 4]
    assert _obstacles_data.dummies_allowed(charts, 12, 1) == 0


def test_random_games_on_the_minefield_scenario_match_the_reference():
    """Seeded random games on the minefield scenario: the engine and the model
    agree on every state, legal move and chance outcome (the full run is in
    test_microarmour_differential.py)."""
    from test_microarmour_differential import play_both
    for seed in range(4):
        play_both({"scenario": "minefield", "turns": 4}, 7000 + seed)


_ = (Fraction, random)


def test_ismcts_does_not_play_on_the_hidden_record_sheet():
    """A bot never plays on what it cannot see: ISMCTS for the German, moving a
    Pz IV next to the Soviet markers, gives the same analysis whichever of the
    unrevealed markers are real."""
    from ardsearch.bots import ISMCTSBot
    st = moving("pz4a", [9, 9], 20, pz4b={"at": [8, 10], "facing": "e"}, rfla={"at": [16, 9], "facing": "w"})
    d = st.to_dict()
    sov = [m for m in d["minefields"] if m["side"] == "soviet"]
    kinds = [m["kind"] for m in sov]
    for m, k in zip(sov, kinds[1:] + kinds[:1]):     # the same fields, laid under other markers
        m["kind"] = k
    other = GAME.state_from_dict(d)
    assert other.to_dict()["minefields"] != st.to_dict()["minefields"]
    a = ISMCTSBot(GAME, seed=3, simulations=300).analyze(st)
    b = ISMCTSBot(GAME, seed=3, simulations=300).analyze(other)
    assert a["best"] == b["best"] and a["visits"] == b["visits"]


# ------------------------------------------------------------------ breaching
def breach_position(sid, at, revealed=((10, 9),), breach=0, moved=False, **stands):
    """`sid` on `at` through a movement phase both players pass: the marker
    removal phase follows (breaching rolls after the recovery rolls)."""
    mf = [dict(m, revealed=tuple(m["at"]) in revealed, breach=breach if tuple(m["at"]) == tuple(at) else 0)
          for m in BASE["minefields"]]
    st = mpos({sid: {"at": list(at), "moved": moved}, **stands}, phase="movement", active="german", minefields=mf)
    play(st, "pass")
    play(st, "pass")
    return st


def test_engineers_breach_a_revealed_field_in_the_marker_removal_phase():
    """Digest *Engineering*: "Each task needs a set number of successful cohesion
    rolls, made in the Marker Removal Phase while the stand stays in place ...
    Minefield breaching takes 3 for hasty/standard or 5 for concentrated fields
    by engineers". The pioneer platoon on the revealed standard field (10,9),
    cohesion 15: 'c:ok' on 2..15, a natural 1 or 20 apart."""
    st = breach_position("pgrb", (10, 9))
    assert st.to_dict()["engineering_roll"] == "pgrb"
    assert chances(st) == pytest.approx({"c:ok": 14 / 20, "c:fail": 4 / 20, "c:n1": 1 / 20, "c:n20": 1 / 20})
    play(st, "c:ok")
    assert marker(st, 10, 9)["breach"] == 1 and not marker(st, 10, 9)["removed"]
    assert st.to_dict()["engineering_roll"] is None and st.to_dict()["turn"] == 2


def test_the_successes_need_not_be_consecutive_and_the_last_clears_the_field():
    """Digest: "the successes need not be consecutive": with 2 successes
    already made, the third clears the standard field (removed); a failure
    keeps the count."""
    st = breach_position("pgrb", (10, 9), breach=2)
    t = st.clone()
    play(st, "c:ok")
    m = marker(st, 10, 9)
    assert m["removed"] and m["kind"] == "standard" and m["breach"] == 0
    play(t, "c:fail")
    assert marker(t, 10, 9)["breach"] == 2 and not marker(t, 10, 9)["removed"]


def test_concentrated_field_takes_engineers_five():
    """Digest: "5 for concentrated fields by engineers": 4 successes do not clear it."""
    st = breach_position("pgrb", (11, 12), revealed=((11, 12),), breach=3)
    play(st, "c:ok")
    assert marker(st, 11, 12)["breach"] == 4 and not marker(st, 11, 12)["removed"]


def test_natural_1_clears_at_once_and_natural_20_sets_the_field_off():
    """Digest: "A natural 1 clears the field at once and a natural 20 triggers a
    mine attack" (the field's fixed column on the breaching stand)."""
    st = breach_position("pgrb", (11, 12), revealed=((11, 12),))
    t = st.clone()
    play(st, "c:n1")
    assert marker(st, 11, 12)["removed"]
    play(t, "c:n20")
    assert t.to_dict()["minefield_attack"] == [11, 12]
    assert chances(t) == pytest.approx(column(6, 0))
    play(t, "crt:D")
    s = next(s for s in t.to_dict()["stands"] if s["id"] == "pgrb")
    assert s["disorganized"] and t.to_dict()["minefield_attack"] is None


def test_a_mine_clearing_vehicle_breaches_a_hasty_field_with_one_success():
    """Digest: "or 1/2/3 by mine-clearing vehicles" (hasty / standard /
    concentrated). The Soviet T-34 with PT-3 rollers on the revealed German
    hasty field (20,9)."""
    st = breach_position("t34f", (20, 9), revealed=((20, 9),))
    assert st.to_dict()["engineering_roll"] == "t34f"
    play(st, "c:ok")
    assert marker(st, 20, 9)["removed"]


@pytest.mark.parametrize("sid,at,revealed,moved", [
    ("pgrb", (10, 9), ((10, 9),), True),      # it moved this turn: not "in place"
    ("pgrb", (10, 10), (), False),            # the marker is not revealed yet
    ("pgra", (10, 9), ((10, 9),), False),     # Panzergrenadiers are not engineers
])
def test_no_breaching_roll(sid, at, revealed, moved):
    """Breaching needs engineers or a mine-clearing vehicle that stays in place
    ("while the stand stays in place") on a field found (design: revealed)."""
    st = breach_position(sid, at, revealed=revealed, moved=moved)
    assert st.to_dict()["engineering_roll"] is None and st.to_dict()["turn"] == 2


# ------------------------------------------------------------------ streams, fords and bridges
def test_streams_need_a_ford_or_a_bridge():
    """Digest *Movement*: "Streams, rivers and water need fords, bridges,
    amphibious movement or fording boats". The stream at x=6: a Pz IV cannot
    step into it, crosses the ford (6,3) at 2 MP and the bridge (6,10) at the
    road's 1/2 MP; Panzergrenadiers cannot wade it either (design: only class
    A, amphibious, enters a stream)."""
    st = moving("pz4a", [5, 6], 20)
    assert "step e" not in moves(st) and "step se" not in moves(st)
    st = moving("pgra", [5, 6], 8)
    assert "step e" not in moves(st)
    st = moving("pz4a", [5, 3], 20)
    play(st, "step e")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")["mp"] == 16
    st = moving("pz4a", [5, 10], 20)
    play(st, "step e")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")["mp"] == 19


# ------------------------------------------------------------------ wrecks on roads
def test_recovery_vehicle_clears_a_wreck_off_the_road():
    """Digest *Wrecks*: "Recovery vehicles, dozer-blade vehicles, large
    transports and heavy tracked vehicles can clear the road by sitting on the
    wreck and passing a cohesion roll in the marker-removal phase, after which
    the marker stays but the road rate resumes". The Bergepanzer III on a Pz
    IV's wreck on the road (4,10): one roll at cohesion 15; then a Pz IV
    entering that square pays the road's 1/2 MP, not the clear 1 MP."""
    st = mpos({"htkb": {"at": [4, 10]}, "pz4a": {"at": [4, 10], "alive": False, "wreck": True}},
              phase="movement", active="german")
    play(st, "pass")
    play(st, "pass")
    assert st.to_dict()["engineering_roll"] == "htkb"
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    t = st.clone()
    play(st, "c:ok")
    d = st.to_dict()
    assert d["wrecks_cleared"] == ["pz4a"] and d["engineering_roll"] is None
    assert next(s for s in d["stands"] if s["id"] == "pz4a")["wreck"]      # the marker stays
    play(t, "c:fail")
    assert t.to_dict()["wrecks_cleared"] == []
    wreck = {"pz4a": {"at": [4, 10], "alive": False, "wreck": True}}
    before = moving("pz4b", [3, 10], 20, **wreck)
    play(before, "step e")
    after = mpos({"pz4b": {"at": [3, 10], "posture": "move", "mp": 20, "steps": 1, "facing": "e"}, **wreck},
                 phase="movement", active="german", wrecks_cleared=["pz4a"], **mover("pz4b"))
    play(after, "step e")
    mp = [next(s for s in x.to_dict()["stands"] if s["id"] == "pz4b")["mp"] for x in (before, after)]
    assert mp == [18, 19]


def test_no_wreck_clearing_off_the_road_or_after_moving():
    """The rule clears roads ("wreck clearing works on roads"), by a stand
    "sitting on the wreck" (design: one that did not move this turn)."""
    for htkb in ({"at": [4, 9]}, {"at": [4, 10], "moved": True}):
        st = mpos({"htkb": htkb, "pz4a": {"at": htkb["at"], "alive": False, "wreck": True}},
                  phase="movement", active="german")
        play(st, "pass")
        play(st, "pass")
        assert st.to_dict()["engineering_roll"] is None and st.to_dict()["turn"] == 2


@pytest.mark.parametrize("seed", range(12))
def test_random_play_from_an_engineering_position_matches_the_reference(seed):
    """Seeded random play from a hand-built position where every engineering
    roll is near: the Bergepanzer on a road wreck, the pioneers and the PT-3
    T-34 on revealed fields, a Pz IV next to an unrevealed marker; the engine
    and the model agree on every state, legal move and chance outcome."""
    rng = random.Random(seed)
    mf = [dict(m, revealed=tuple(m["at"]) in ((10, 9), (20, 9))) for m in BASE["minefields"]]
    st = mpos({"htkb": {"at": [4, 10]}, "pz4a": {"at": [4, 10], "alive": False, "wreck": True},
               "pgrb": {"at": [10, 9], "facing": "e"}, "t34f": {"at": [20, 9], "facing": "w"},
               "pz4b": {"at": [9, 10], "facing": "e"}, "rflb": {"at": [16, 10], "facing": "w"},
               "t34a": {"at": [18, 12], "facing": "w"}},
              phase="posture", active="german", minefields=mf, turn=10)
    for _ in range(400):
        check_reference(st)
        if st.is_terminal():
            break
        if st.is_chance_node():
            acts = [a for a, _ in st.chance_outcomes()]
        else:
            acts = st.legal_actions()
        st.apply_action(rng.choice(acts))
