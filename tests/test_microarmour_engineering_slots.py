"""Micro Armour: the marker removal phase's engineering rolls walk past empty stand
slots (a regression test for commit 55dfb25; RULES.md "Engineering: bridges and AT
ditches").

The bug: `terrain_task()` (_engineering.pxi) read a stand's type tables (TY_ENGINEER,
TY_DOZER, TY_BRIDGING) before asking `alive()`; `breach_next()` (_minefields.pxi) asks
it of every slot from the current worker to slot 31, and an empty slot (a support
stand not in play: type NONE, 255) indexed those tables out of bounds. Python cannot
see an out-of-bounds read by itself: these tests drive exactly that path (the minefield
scenario without `support`, whose support slots 11..15 and 26..29 are empty, with the
workers placed so that the scan after each roll crosses them, and validate(), which
calls terrain_task() for the worker in hand) and assert the phase's right result; the
sanitizer run (`python tools/sanitize.py games -- -k engineering_slots`, whose games
group runs every tests/test_microarmour_*.py under AddressSanitizer and
UndefinedBehaviorSanitizer) is what turns a read out of bounds into a failure.
Checked on 2026-12-02: in a sanitized build with the fix of 55dfb25 taken out, three
of these four tests halt with "_engineering.pxi:91:77: runtime error: index 255 out of
bounds for type 'uint8_t [48]'" (the first only checks the premise); with the fix all
four pass there.
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_engineering import GAME, changes, marker_removal, play  # noqa: E402
from test_microarmour_rules import chances, check_reference  # noqa: E402
from ardsearch.games.microarmour import _engine  # noqa: E402

K = _engine.SCENARIO_NAMES.index("minefield")
EMPTY = [g for g in range(32) if _engine.SC_IDS[K][g]
         and _engine.SC_IDS[K][g] not in {s["id"] for s in GAME.new_initial_state(0).to_dict()["stands"]}]


def slot(sid):
    return list(_engine.SC_IDS[K]).index(sid)


def test_the_minefield_scenario_has_empty_slots_after_each_worker():
    """The premise: without `support` the scenario's support stands are not in play
    (their slots are empty, not listed by to_dict), and empty slots lie after both the
    German bridging tank `brlg` and the Soviet dozer `t34e`, so the marker removal
    phase's scan reaches them after each one's roll."""
    assert EMPTY == [11, 12, 13, 14, 15, 26, 27, 28, 29]
    assert slot("brlg") < 11 and 16 <= slot("t34e") < 26


def test_rolls_walk_past_empty_slots_to_the_next_worker_and_the_phase_ends():
    """Digest, Engineering: "Each task needs a set number of successful cohesion rolls,
    made in the Marker Removal Phase while the stand stays in place". The bridging tank
    (slot 5) faces the stream (6,12), the dozer T-34 (slot 21) the AT ditch (11,13):
    brlg rolls first (cohesion 15), then, past the empty slots 11..15 and every lost
    stand, t34e (cohesion 12); after it the scan crosses 22..31 (26..29 empty, 30..31
    unused), finds no
    one, and the turn ends: turn 2, no roll in hand, one success on each square."""
    st = marker_removal({"brlg": {"at": [5, 12], "facing": "e"}, "t34e": {"at": [12, 13], "facing": "w"}})
    assert st.to_dict()["engineering_roll"] == "brlg"
    assert chances(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    play(st, "c:ok")
    check_reference(st)
    assert st.to_dict()["engineering_roll"] == "t34e"
    assert chances(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})
    play(st, "c:ok")
    check_reference(st)
    d = st.to_dict()
    assert d["engineering_roll"] is None and d["turn"] == 2
    assert sorted(changes(st), key=lambda c: c["at"]) == [
        {"at": [6, 12], "task": "bridge", "successes": 1, "done": False},
        {"at": [11, 13], "task": "ditch", "successes": 1, "done": False}]


def test_a_phase_with_only_empty_and_lost_slots_after_the_last_worker_ends_at_once():
    """The last worker's failure: nothing is counted and the scan from its slot + 1 to
    31 (lost stands, the empty slots 26..29 and the unused 30..31) finds no other roll: the
    turn ends."""
    st = marker_removal({"t34e": {"at": [12, 13], "facing": "w"}})
    assert st.to_dict()["engineering_roll"] == "t34e"
    play(st, "c:fail")
    check_reference(st)
    d = st.to_dict()
    assert d["engineering_roll"] is None and d["turn"] == 2 and changes(st) == []


def test_no_worker_no_roll_the_scan_crosses_every_slot():
    """No worker faces a task: the phase's first scan crosses all 32 slots (lost,
    empty and live non-workers) and the turn ends with no roll."""
    st = marker_removal({"pz4a": {"at": [5, 12], "facing": "e"}, "t34a": {"at": [12, 13], "facing": "w"}})
    d = st.to_dict()
    assert d["engineering_roll"] is None and d["turn"] == 2 and changes(st) == []
