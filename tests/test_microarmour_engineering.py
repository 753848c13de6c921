"""Micro Armour: the engineering tasks that change the table, bridges over
streams and filled AT ditches (RULES.md "Engineering: bridges and AT ditches"),
one hand-built position of the `minefield` scenario per rule, each docstring
quoting the digest (shared/seeds/micro-armour.txt, *Engineering*) words it
checks; the reference model (tests/reference/microarmour_engineering.py) must
agree on every position (check_reference).

The minefield scenario's stream runs at x 6 (fords at y 3 and 15, the road's
bridge at y 10); its AT ditches are (11,5) (11,6) (11,13) (11,14). Workers: the
German pioneers `pgrb` (engineers with bridging materials), the Brueckenleger
IV `brlg` (a bridging tank) and the Soviet dozer T-34 `t34e`. German cohesion
15, Soviet 12.
"""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_obstacles import BASE, GAME, mover, mpos, play  # noqa: E402
from test_microarmour_rules import chances, moves  # noqa: E402


def marker_removal(stands, **top):
    """The movement phase with both sides still to pass: two passes lead into
    the marker removal phase, where the engineering rolls are made."""
    st = mpos(stands, phase="movement", active="german", **top)
    play(st, "pass")
    play(st, "pass")
    return st


def moving(sid, at, mp, side="german", **top):
    """`sid` in movement posture at `at` facing east with `mp` half-MP left,
    moving (top: structured-state keys, e.g. terrain_changes)."""
    stands = {sid: {"at": at, "posture": "move", "mp": mp, "steps": 1, "facing": "e"}}
    return mpos(stands, phase="movement", active=side, **mover(sid), **top)


def changes(state):
    return state.to_dict()["terrain_changes"]


def mp_left(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)["mp"]


def board_char(state, x, y):
    rows = [line for line in str(state).splitlines() if line[:3].strip().isdigit()]
    row = next(r for r in rows if int(r[:3]) == y)
    return row[3 + x]


# ------------------------------------------------------------------ bridges
def test_bridging_tank_rolls_for_the_stream_square_it_faces():
    """Digest: "Each task needs a set number of successful cohesion rolls, made
    in the Marker Removal Phase while the stand stays in place". The bridging
    tank at (5,12) facing east, beside the stream square (6,12): in the marker
    removal phase it rolls cohesion (15): c:ok 15/20, c:fail 5/20 (design: no
    natural 1 / 20 rule, which the digest gives for minefields only); a
    success is counted on the square."""
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}})
    assert st.to_dict()["engineering_roll"] == "brlg"
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    fail = st.clone()
    play(st, "c:ok")
    assert changes(st) == [{"at": [6, 12], "task": "bridge", "successes": 1, "done": False}]
    assert st.to_dict()["turn"] == 2 and st.to_dict()["engineering_roll"] is None
    play(fail, "c:fail")
    assert changes(fail) == []


def test_bridging_tank_builds_the_bridge_at_its_second_success():
    """Digest: "bridges 2 (bridging tank)". With one success already on (6,12)
    the second builds the bridge: the square is bridge terrain (`+` on the
    board), and a Pz IV that could not enter the stream crosses it at the
    bridge's cost (1/2 MP, the road's)."""
    one = [{"at": [6, 12], "task": "bridge", "successes": 1, "done": False}]
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}}, terrain_changes=one)
    assert board_char(st, 6, 12) == "~"
    play(st, "c:ok")
    assert changes(st) == [{"at": [6, 12], "task": "bridge", "successes": 2, "done": True}]
    assert board_char(st, 6, 12) == "+"
    built = [dict(one[0], successes=2, done=True)]
    before = moving("pz4a", [5, 12], 20)
    assert "step e" not in moves(before)
    after = moving("pz4a", [5, 12], 20, terrain_changes=built)
    assert "step e" in moves(after)
    play(after, "step e")
    assert mp_left(after, "pz4a") == 19


def test_engineers_with_materials_need_four_successes():
    """Digest: "bridges ... 4 (engineers with materials)". The pioneers
    (bridging materials) facing (6,7) from (7,7): the third success leaves the
    stream a stream, the fourth builds the bridge."""
    for done_before, done in ((2, False), (3, True)):
        prior = [{"at": [6, 7], "task": "bridge", "successes": done_before, "done": False}]
        st = marker_removal({"pgrb": {"at": [7, 7], "facing": "w"}}, terrain_changes=prior)
        assert st.to_dict()["engineering_roll"] == "pgrb"
        play(st, "c:ok")
        assert changes(st)[0]["done"] is done and changes(st)[0]["successes"] == done_before + 1


def test_successes_need_not_be_consecutive_and_stay_with_the_square():
    """Digest: "the successes need not be consecutive". A failure keeps the
    count; a stand that moved this turn does not roll ("while the stand stays
    in place"), and the count stays with the square for the next worker."""
    prior = [{"at": [6, 12], "task": "bridge", "successes": 1, "done": False}]
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}}, terrain_changes=prior)
    play(st, "c:fail")
    assert changes(st) == prior
    moved = marker_removal({"brlg": {"at": [5, 12], "facing": "e", "moved": True}}, terrain_changes=prior)
    assert moved.to_dict()["engineering_roll"] is None and changes(moved) == prior
    gone = marker_removal({"brlg": {"at": [2, 2], "facing": "e"}}, terrain_changes=prior)
    assert changes(gone) == prior and gone.to_dict()["turn"] == 2


def test_a_suppressed_or_disorganized_worker_rolls_with_its_modifiers():
    """Digest *Engineering*: the tasks need "successful cohesion rolls": the
    stand's S (+4) and D (+3) modifiers apply as to any cohesion roll (design:
    the digest does not stop a suppressed stand's work). Its recovery roll
    comes first (section Marker removal); failed, the markers stay."""
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e", "suppressed": True}})
    assert st.to_dict()["recovery_next"] == "brlg"
    play(st, "c:fail")
    assert st.to_dict()["engineering_roll"] == "brlg"
    assert chances(st) == pytest.approx({"c:ok": 11 / 20, "c:fail": 9 / 20})
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e", "suppressed": True, "disorganized": True}})
    play(st, "c:fail")
    assert chances(st) == pytest.approx({"c:ok": 8 / 20, "c:fail": 12 / 20})


def test_no_bridge_on_a_ford_a_bridge_or_under_a_stand_and_no_bridge_without_means():
    """The digest names bridges over water ("Streams, rivers and water need
    fords, bridges, amphibious movement or fording boats", *Movement*); design:
    a stream square of the map is bridged, not a ford or the road's bridge, not
    while a stand is in the water there, and only by a bridging tank or
    engineers with materials (a dozer fills ditches, it lays no bridge)."""
    for stands in ({"brlg": {"at": [5, 15], "facing": "e"}},                 # a ford
                   {"brlg": {"at": [5, 10], "facing": "e"}},                 # the road's bridge
                   {"brlg": {"at": [5, 11], "facing": "e"}, "t34e": {"at": [6, 11], "facing": "w"}},
                   {"brlg": {"at": [4, 12], "facing": "e"}},                 # not beside the stream
                   {"brlg": {"at": [5, 12], "facing": "n"}},                 # facing along the bank
                   {"t34e": {"at": [7, 12], "facing": "w"}}):                # a dozer
        st = marker_removal(stands)
        assert st.to_dict()["engineering_roll"] is None, stands
        assert st.to_dict()["turn"] == 2 and changes(st) == []


def test_a_built_bridge_is_not_rolled_for_again_and_frozen_ground_keeps_it():
    """A bridge once built stays (the digest removes none); the stand facing
    it has no task. Design: on frozen ground a stream counts as rough (digest
    *Weather*: "Extreme cold freezes water to Rough 1"), a built bridge stays a
    bridge: a Pz IV pays 1/2 MP for it."""
    built = [{"at": [6, 12], "task": "bridge", "successes": 2, "done": True}]
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}}, terrain_changes=built)
    assert st.to_dict()["engineering_roll"] is None and changes(st) == built
    frozen = dict(BASE["conditions"], ground="frozen")
    st = moving("pz4a", [5, 12], 20, terrain_changes=built)
    d = st.to_dict()
    d["conditions"] = frozen
    st = GAME.state_from_dict(d)
    play(st, "step e")
    assert mp_left(st, "pz4a") == 19


# ------------------------------------------------------------------ AT ditches
def test_dozer_fills_an_at_ditch_at_its_second_success():
    """Digest: "AT ditches take 2 (dozer) or 4 (engineers)". The dozer T-34 at
    (12,13) facing west, the ditch (11,13) in front: the first success is
    counted, the second fills it (the `_` leaves the board); a T-34 may then
    enter the square (an AT ditch stops every vehicle), paying the clear
    square's 1 MP."""
    st = marker_removal({"t34e": {"at": [12, 13], "facing": "w"}})
    assert st.to_dict()["engineering_roll"] == "t34e"
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})
    play(st, "c:ok")
    assert changes(st) == [{"at": [11, 13], "task": "ditch", "successes": 1, "done": False}]
    assert board_char(st, 11, 13) == "_"
    st = marker_removal({"t34e": {"at": [12, 13], "facing": "w"}}, terrain_changes=changes(st))
    play(st, "c:ok")
    assert changes(st) == [{"at": [11, 13], "task": "ditch", "successes": 2, "done": True}]
    assert board_char(st, 11, 13) == "."
    before = moving("t34a", [12, 13], 20, side="soviet")
    after = moving("t34a", [12, 13], 20, side="soviet", terrain_changes=changes(st))
    assert "step w" not in moves(before)
    play(after, "step w")
    assert mp_left(after, "t34a") == 18


def test_engineers_fill_an_at_ditch_in_four_successes_and_infantry_pays_no_ditch():
    """Digest: "AT ditches take ... 4 (engineers)". The pioneers at (10,5)
    facing east: the fourth success fills (11,5); a filled ditch square costs
    what its terrain costs (design: it loses its obstacle), so a rifle stand
    pays clear's 1 MP, not the ditch's 2."""
    prior = [{"at": [11, 5], "task": "ditch", "successes": 3, "done": False}]
    st = marker_removal({"pgrb": {"at": [10, 5], "facing": "e"}}, terrain_changes=prior)
    play(st, "c:ok")
    filled = changes(st)
    assert filled == [{"at": [11, 5], "task": "ditch", "successes": 4, "done": True}]
    before = moving("pgra", [10, 5], 8)
    after = moving("pgra", [10, 5], 8, terrain_changes=filled)
    play(before, "step e")
    play(after, "step e")
    assert (mp_left(before, "pgra"), mp_left(after, "pgra")) == (4, 6)


def test_a_bridging_tank_fills_no_ditch():
    """Digest: ditches take "2 (dozer) or 4 (engineers)": a bridging tank is
    neither."""
    st = marker_removal({"brlg": {"at": [10, 13], "facing": "e"}})
    assert st.to_dict()["engineering_roll"] is None


def test_a_minefield_breach_comes_before_a_task_and_one_roll_a_stand():
    """Design: a stand makes one engineering roll a marker removal phase: on a
    revealed enemy field it breaches (digest: "Minefield breaching takes 3 ...
    by engineers"), whatever it faces; the roll's natural 1 / 20 are the
    minefield's."""
    mf = [dict(m, revealed=m["at"] == [10, 9]) for m in BASE["minefields"]]
    st = marker_removal({"pgrb": {"at": [10, 9], "facing": "e"}}, minefields=mf)
    assert st.to_dict()["engineering_roll"] == "pgrb"
    assert set(chances(st)) == {"c:ok", "c:fail", "c:n1", "c:n20"}
    play(st, "c:ok")
    assert changes(st) == [] and st.to_dict()["engineering_roll"] is None


# ------------------------------------------------------------------ state
def test_a_view_shows_the_terrain_changes():
    """A built bridge or a filled ditch is on the table for both players to see
    (public): each side's view holds the same `terrain_changes`."""
    tc = [{"at": [6, 12], "task": "bridge", "successes": 2, "done": True},
          {"at": [11, 13], "task": "ditch", "successes": 1, "done": False}]
    st = mpos({"brlg": {"at": [2, 2]}}, phase="posture", active="german", terrain_changes=tc)
    for p in range(2):
        assert st.view(p).to_dict()["terrain_changes"] == tc


@pytest.mark.parametrize("bad,why", [
    ([{"at": [5, 12], "successes": 1, "done": False}], "not a stream or ditch square"),
    ([{"at": [6, 10], "successes": 1, "done": True}], "the map's own bridge"),
    ([{"at": [6, 12], "successes": 0, "done": False}], "no success"),
    ([{"at": [6, 12], "successes": 10, "done": False}], "too many successes"),
    ([{"at": [6, 12], "successes": 1, "done": False}] * 2, "a square twice"),
    ([{"at": [11, 13], "task": "bridge", "successes": 1, "done": False}], "a ditch is not bridged"),
    ([{"at": [40, 2], "successes": 1, "done": False}], "off the table"),
    ([{"at": [6, y], "successes": 1, "done": False} for y in (0, 1, 2, 4, 5, 6, 7, 8, 9)], "more than 8"),
])
def test_state_from_dict_refuses_impossible_terrain_changes(bad, why):
    d = dict(BASE, terrain_changes=bad)
    with pytest.raises(ValueError):
        GAME.state_from_dict(d)


def test_validate_refuses_corrupt_terrain_change_bytes():
    """The sanitizer feeds corrupt bytes: every byte of the block is checked
    (a count past 8, an entry off the table or on a square that takes no task,
    a done bit past the count or of the wrong kind, bytes past the count)."""
    tc = [{"at": [6, 12], "task": "bridge", "successes": 2, "done": True},
          {"at": [11, 13], "task": "ditch", "successes": 1, "done": False}]
    raw = mpos({"brlg": {"at": [2, 2]}}, phase="posture", active="german", terrain_changes=tc).serialize()
    start = len(raw) - GAME.state_size + 512          # the block: just before the 32 stand slots
    bad = [(0, 9), (0, 3), (1, 4), (1, 2), (2, 1), (2, 4), (3, 1), (4, 40), (5, 0), (12, 3), (13, 12),
           (20, 0), (21, 10), (22, 9)]
    for off, v in bad:
        b = bytearray(raw)
        b[start + off] = v
        with pytest.raises(ValueError):
            GAME.deserialize_state(bytes(b))
    assert GAME.deserialize_state(raw).to_dict()["terrain_changes"] == tc


# ------------------------------------------------------------------ one roll, who works
def test_the_dozer_clears_a_road_wreck_first():
    """Digest *Wrecks*: "Recovery vehicles, dozer-blade vehicles ... can clear
    the road by sitting on the wreck and passing a cohesion roll in the
    marker-removal phase". The dozer T-34 on a wreck on the road (22,10) rolls
    to clear it (Soviet cohesion 12); one roll a stand: a success clears the
    wreck and starts no other task."""
    st = marker_removal({"t34e": {"at": [22, 10], "facing": "w"},
                         "t34a": {"at": [22, 10], "alive": False, "wreck": True}})
    assert st.to_dict()["engineering_roll"] == "t34e"
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})
    play(st, "c:ok")
    assert st.to_dict()["wrecks_cleared"] == ["t34a"] and changes(st) == []


def test_cargo_does_no_engineering_work():
    """Digest: the rolls are made "while the stand stays in place"; design
    (section Transport, minefields and hidden set-up): a stand aboard its
    carrier does no engineering work. The pioneers aboard the half-track at
    (7,7), facing the stream, roll nothing; dismounted there, they do."""
    aboard = marker_removal({"htka": {"at": [7, 7], "facing": "w"},
                             "pgrb": {"at": [7, 7], "facing": "w", "carried_by": "htka"}})
    assert aboard.to_dict()["engineering_roll"] is None
    off = marker_removal({"htka": {"at": [8, 7], "facing": "w"}, "pgrb": {"at": [7, 7], "facing": "w"}})
    assert off.to_dict()["engineering_roll"] == "pgrb"


def test_a_ninth_square_is_not_worked_on():
    """Design (the state's room): at most 8 squares are worked on in a game;
    with 8 in the list the bridging tank facing a ninth rolls nothing, and
    facing one of the 8 it rolls."""
    listed = [{"at": [6, y], "task": "bridge", "successes": 1, "done": False} for y in (0, 1, 2, 4, 5, 6, 7, 8)]
    ninth = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}}, terrain_changes=listed)
    assert ninth.to_dict()["engineering_roll"] is None
    listed_one = marker_removal({"brlg": {"at": [5, 8], "facing": "e"}}, terrain_changes=listed)
    play(listed_one, "c:ok")
    assert changes(listed_one)[7] == {"at": [6, 8], "task": "bridge", "successes": 2, "done": True}


def test_a_diagonal_facing_works_on_the_diagonal_square():
    """Design: the square in front of the stand is the adjacent square its
    facing points at, diagonals included: the bridging tank at (5,11) facing
    north-east works on (6,12)."""
    st = marker_removal({"brlg": {"at": [5, 11], "facing": "ne"}})
    play(st, "c:ok")
    assert changes(st) == [{"at": [6, 12], "task": "bridge", "successes": 1, "done": False}]


# ------------------------------------------------------------------ data
def test_the_data_refuses_workers_the_digest_does_not_name():
    """Digest: "bridges 2 (bridging tank) or 4 (engineers with materials)",
    "AT ditches take 2 (dozer)": materials go with engineers, a dozer and a
    bridging tank are vehicles; [engineering] counts are 1..9 successes.
    Each error names the file, the key and what was expected."""
    from ardsearch.games.microarmour import _engineering_data as ed
    with pytest.raises(ValueError, match=r"weapons.toml: x.materials: expected only beside engineer = true"):
        ed.weapon_engineering("weapons.toml", "x", {"materials": True})
    with pytest.raises(ValueError, match=r"x.dozer: expected only on a vehicle"):
        ed.weapon_engineering("weapons.toml", "x", {"dozer": True, "move": "F"})
    with pytest.raises(ValueError, match=r"x.bridging: expected true or false"):
        ed.weapon_engineering("weapons.toml", "x", {"bridging": 1, "move": "T"})
    with pytest.raises(ValueError, match=r"charts.toml: engineering.bridge_tank: expected an integer from 1 to 9"):
        ed.engineering_charts("charts.toml", {"engineering": {"ditch_dozer": 2, "ditch_engineer": 4,
                                                              "bridge_tank": 0, "bridge_materials": 4}})
    assert ed.engineering_charts("charts.toml", {"engineering": {"ditch_dozer": 2, "ditch_engineer": 4, "bridge_tank": 2,
                                                                 "bridge_materials": 4}})["engineering"]["bridge_tank"] == 2
