"""Micro Armour: the evaluation's village race (RULES.md, *Evaluation*; a
design choice, not a rule) on hand-built positions."""
from __future__ import annotations

from test_microarmour_rules import position

GERMAN = 0


def value(pz4a, **top):
    return position({"pz4a": pz4a}, **top).evaluate(GERMAN)


def test_an_inch_nearer_the_village_is_worth_about_0_002():
    far = value({"at": [5, 10]}, phase="posture")
    near = value({"at": [6, 10]}, phase="posture")
    assert 0.0015 < near - far < 0.0025


def test_a_stand_in_the_village_counts_more_than_one_next_to_it():
    outside = value({"at": [12, 10]}, phase="posture")
    inside = value({"at": [13, 10]}, phase="posture")
    assert inside - outside > 0.02


def test_the_movement_a_posture_promises_counts_before_the_movement_phase():
    firing = value({"at": [5, 10], "posture": "firing"}, phase="posture")
    firemove = value({"at": [5, 10], "posture": "firemove"}, phase="posture")
    move = value({"at": [5, 10], "posture": "move"}, phase="posture")
    assert firing < firemove < move


def test_a_finished_move_promises_nothing_more():
    moved = value({"at": [5, 10], "posture": "move", "moved": True}, phase="movement")
    firing = value({"at": [5, 10], "posture": "firing"}, phase="movement")
    assert moved == firing


def test_ammunition_counts_in_a_stands_value():
    """RULES.md, Evaluation: the AP in a stand's value is what it still has: a
    spent D# stand is worth less, special AP ammunition and HEAT rounds left more."""
    from test_microarmour_weapons import spos

    def v(stands, params=None):
        return spos(stands, params, phase="posture").evaluate(GERMAN)
    assert v({"schrk": {"at": [5, 3], "depleted": True}}) < v({"schrk": {"at": [5, 3]}})
    sp = {"special_ap": True}
    assert v({"pz4a": {"at": [5, 3], "special_ap_used": True}}, sp) < v({"pz4a": {"at": [5, 3]}}, sp)
    heat = {"heat": True}
    assert v({"ig": {"at": [5, 3], "heat_fired": 2}}, heat) < v({"ig": {"at": [5, 3], "heat_fired": 1}}, heat) \
        < v({"ig": {"at": [5, 3]}}, heat)
