"""Stosstruppen: one hand-built position per rule (RULES.md), set up with
state_from_dict and played through the public API."""
from __future__ import annotations

import math
import os
import sys

import pytest

import ardsearch
from ardsearch.games.stosstruppen import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import stosstruppen as ref  # noqa: E402

# Kaiserschlacht slots: German 0 hq, 1-4 rifle, 5-6 bombers, 7 pioneers, 8-9 lmg,
# 10 ltm_de, 11 lig; British 16 hq, 17-19 rifle, 20 lmg, 21 hmg, 22 fieldgun, 23 markiv.
# Villers slots: German 0 hq, 1-3 rifle, 4 bombers, 5 lmg, 6 atrifle, 7-8 a7v;
# British 16 hq, 17-18 rifle, 19 lmg, 20 markiv, 21-22 whippet.


def build(squares, phase="move", card="Gm", scenario="kaiserschlacht", units=None,
          drawn=(), markers=None, turn=1, pending=None):
    """A position: the listed slots on their squares, every other unit eliminated."""
    g = ardsearch.Game(SPEC, {"scenario": scenario})
    d = g.new_initial_state().to_dict()
    for u in d["units"]:
        u["square"] = squares.get(u["slot"])
        for k in ("spotted", "moved", "fired", "acted", "stuck"):
            u[k] = False
        u["status"] = "normal"
        u.update((units or {}).get(u["slot"], {}))
    d["phase"] = phase
    d["card"] = card
    d["drawn"] = sorted(set(drawn) | ({card} if card else set()))
    d["turn"] = turn
    d["pending"] = pending or {"kind": "none"}
    for m in markers or []:
        for mk in d["markers"]:
            if mk["slot"] == m["slot"]:
                mk.update(m)
    return g.state_from_dict(d)


def fill(squares, german=range(2, 8), british=()):
    """Adds units far away (row 1 from p1, row 12 from p12) so that an army is
    not demoralised by the units a position leaves out."""
    out = dict(squares)
    for k, slot in enumerate(german):
        out.setdefault(slot, f"{chr(ord('p') - k)}1")
    for k, slot in enumerate(british):
        out.setdefault(slot, f"{chr(ord('p') - k)}12")
    return out


def outcomes(s):
    return {s.action_to_string(a): p for a, p in s.chance_outcomes()}


def legal(s):
    return {s.action_to_string(a) for a in s.legal_actions()}


def unit(s, slot):
    return next(u for u in s.to_dict()["units"] if u["slot"] == slot)


def model(s):
    """The reference model (tests/reference/stosstruppen.py) in the same position."""
    return ref.from_dict(s.to_dict())


def legal_both(s):
    """The legal moves, after checking that the reference model agrees."""
    moves = legal(s)
    assert model(s).legal() == moves
    return moves


# ----------------------------------------------------------------- sequence, morale
def test_sequence_deck_draws_each_card_once_a_turn():
    g = ardsearch.Game(SPEC)
    s = g.new_initial_state()
    o = outcomes(s)
    assert set(o) == {f"card:{p}{k}" for p in "GB" for k in "mfar"}
    assert all(math.isclose(p, 1 / 8) for p in o.values())
    s.apply("card:Gm")
    s.apply("done")
    o = outcomes(s)
    assert "card:Gm" not in o and len(o) == 7 and math.isclose(o["card:Bf"], 1 / 7)


def test_turn_ends_after_eight_cards_and_flags_clear():
    s = build({0: "h2", 1: "d3", 16: "h11"}, phase="rally", card="Br",
              drawn=["Gm", "Gf", "Ga", "Gr", "Bm", "Bf", "Ba"], units={1: {"moved": True, "fired": True}})
    s.apply("done")
    d = s.to_dict()
    assert d["turn"] == 2 and d["drawn"] == [] and d["phase"] == "draw"
    assert not unit(s, 1)["moved"] and not unit(s, 1)["fired"]


def test_morale_test_odds_by_level_and_demoralisation():
    # German veteran far from HQ: passes on 2+
    s = build(fill({0: "a1", 1: "h3", 16: "h11", 17: "a12"}))
    s.apply("h3-h5")
    assert outcomes(s) == pytest.approx({"pass": 5 / 6, "fail": 1 / 6})
    # 6 of 12 lost: demoralised, needs 3+
    s = build(fill({0: "a1", 1: "h3", 16: "h11", 17: "a12"}, german=range(2, 6)))
    s.apply("h3-h5")
    assert outcomes(s) == pytest.approx({"pass": 4 / 6, "fail": 2 / 6})
    # British regular: 3+; demoralised (4 of 8 lost) 4+
    s = build({16: "a12", 17: "h10", 18: "c12", 19: "d12", 20: "e12", 0: "h2"}, card="Bm")
    s.apply("h10-h9")
    assert outcomes(s) == pytest.approx({"pass": 4 / 6, "fail": 2 / 6})
    s = build({16: "a12", 17: "h10", 18: "c12", 19: "d12", 0: "h2"}, card="Bm")
    s.apply("h10-h9")
    assert outcomes(s) == pytest.approx({"pass": 3 / 6, "fail": 3 / 6})


# ----------------------------------------------------------------- movement
def test_move_generator_with_empty_unit_slots():
    """Movement A: "the player may attempt to move those of his units that are
    allowed to move." Kaiserschlacht fills 12 German and 8 British of the 16
    slots a side; the empty slots (type NOTYPE = 255) must be skipped before
    the unit-type table UT[32] is indexed (an UndefinedBehaviorSanitizer run
    found can_move reading UT[255]). Without a sanitizer the out-of-bounds
    read cannot fail visibly: this test exercises the path (both armies' Move
    phases from the start, and after eliminations) and checks the moves
    against the reference model; build with -fsanitize=undefined to see it."""
    g = ardsearch.Game(SPEC)
    for card in ("card:Gm", "card:Bm"):
        s = g.new_initial_state()
        s.apply(card)
        moves = legal_both(s)
        assert len(moves) > 1 and "done" in moves
    s = build({0: "h2", 1: "d3", 16: "h11", 17: "e8"}, card="Bm")
    assert any(m.startswith("e8-") for m in legal_both(s))


def test_units_near_hq_move_freely_and_others_test():
    s = build({0: "h2", 1: "h5", 2: "a5", 16: "h11"})
    s.apply("h5-h6")
    assert not s.is_chance_node()
    s.apply("a5-a6")
    assert s.is_chance_node()
    s.apply("fail")
    assert unit(s, 2)["square"] == "a5" and "a5-a7" not in legal(s)


def test_move_allowance_and_terrain_costs():
    # rifle: 3 squares; woods cost double (c9/c10/d9/d10 woods)
    s = build({0: "o2", 1: "o3", 16: "h11"})
    moves = legal(s)
    assert "o3-o6" in moves and "o3-o7" not in moves
    s = build({0: "k1", 1: "c7", 16: "h11"})
    moves = legal(s)
    assert "c7-c9" in moves and "c7-c10" not in moves   # c9 woods: 2 + 4; c10: 2 + 4 + 4 > 6
    # villers: roads double movement (h column), craters double for non-foot
    s = build({0: "h1", 1: "h2", 16: "h11"}, scenario="villers")
    assert "h2-h8" in legal(s) and "h2-b2" not in legal(s)
    s = build({0: "b2", 7: "c3", 16: "h11"}, scenario="villers")  # A7V, move 2
    assert "c3-c4" in legal(s) and "c3-c5" not in legal(s) and "c3-e5" in legal(s)


def test_roads_double_only_a_move_that_stays_on_the_road():
    """Movement E: "All units starting and ending on roads double their
    movement." RULES.md (design for "along it"): a move is doubled only if its
    whole path, start and end included, is on road squares; any move that
    leaves the road, even for a step, uses normal movement. Villers: the h
    column is road except h10 (buildings)."""
    # a 3-square rifle on the road: 6 road squares, but not 4 road squares and a step off
    s = build({0: "h1", 1: "h2", 16: "a12"}, scenario="villers")
    moves = legal_both(s)
    assert "h2-h8" in moves                         # 6 squares, all on the road
    assert "h2-i7" not in moves                     # 5 squares, ends off the road
    # starts on the road, ends off it: normal movement (3 squares)
    assert "h2-i5" in moves and "h2-i6" not in moves and "h2-g6" not in moves
    # joins the road: normal movement, the road steps are not cheaper
    s = build({0: "h1", 1: "g2", 16: "a12"}, scenario="villers")
    moves = legal_both(s)
    assert "g2-h5" in moves and "g2-h6" not in moves and "g2-h7" not in moves


def test_road_to_road_around_a_gap_is_not_doubled():
    """Movement E: "All units starting and ending on roads double their
    movement." Design (RULES.md): h7 to h11 starts and ends on the road but
    must leave it at h10 (buildings), so it is a normal move of 4 squares,
    beyond a rifle's 3."""
    s = build({0: "a1", 1: "h7", 16: "a12"}, scenario="villers")
    moves = legal_both(s)
    assert "h7-h10" in moves and "h7-h11" not in moves


def test_full_road_moves_are_doubled_through_friends_and_for_tanks():
    """Movement E: "All units starting and ending on roads double their
    movement." Movement G: "Units may always move through friendly units".
    An A7V (2 squares) goes 4 squares along the road, but only 2 if it leaves it."""
    s = build({0: "h1", 1: "h2", 2: "h4", 16: "a12"}, scenario="villers")
    assert "h2-h8" in legal_both(s)                 # through the friend on h4
    s = build({0: "a1", 7: "h3", 16: "a12"}, scenario="villers")
    moves = legal_both(s)
    assert "h3-h7" in moves and "h3-i5" in moves and "h3-i6" not in moves


def test_foot_only_terrain():
    s = build({0: "a1", 7: "f3", 16: "h11"}, scenario="villers")
    assert not any(m.endswith(("-l3", "-l4", "-m3")) for m in legal(s))  # A7V: no marsh
    s = build({0: "a1", 3: "j3", 16: "h11"}, scenario="villers")
    assert "j3-l4" in legal(s)                                      # rifle: marsh at double cost
    s = build({0: "g8", 7: "g7", 16: "a12"}, scenario="villers")
    assert "g7-g9" in legal(s) and "g7-h10" not in legal(s)         # no buildings for tanks


def test_move_through_friends_never_enemies():
    s = build({0: "o2", 1: "o3", 2: "o4", 16: "a12"})
    assert "o3-o6" in legal(s)
    s = build({0: "a2", 1: "b1", 16: "a12", 17: "a3", 18: "b3", 19: "c3", 20: "c2"},
              units={1: {"status": "normal"}})
    moves = legal(s)
    assert "b1-d3" in moves and not any(m.startswith("b1-") and m[3:] in ("a4", "b4", "c4") for m in moves)


def test_wire_takes_a_morale_test_to_pass():
    """Obstacles A: "Tanks cross barbed wire automatically. Other units must
    take a morale test to pass." Contract: "Barbed wire: tanks cross; others
    test morale to pass". A German rifle (Veteran: 2+) on h6, in front of the
    wire on h7, passes it in one move to the trench on h8 after one test, and
    may stop on the wire after the same test; a move that enters no wire
    square takes none."""
    s = build(fill({0: "h5", 1: "h6", 16: "a12"}))
    moves = legal_both(s)
    assert {"h6-h7", "h6-h8", "h6-g8", "h6-g5"} <= moves
    for move, end in (("h6-h8", "h8"), ("h6-h7", "h7")):
        s = build(fill({0: "h5", 1: "h6", 16: "a12"}))
        m = model(s)
        for note in (move, "pass"):
            s.apply(note)
            m.apply(note)
            if note == move:
                assert s.to_dict()["pending"]["kind"] == "cross-test"
                assert outcomes(s) == pytest.approx({"pass": 5 / 6, "fail": 1 / 6})
        assert unit(s, 1)["square"] == end and ref.name(m.units[1]["sq"]) == end
        assert s.to_dict()["pending"]["kind"] == "none"
    s = build(fill({0: "h4", 1: "h6", 16: "a12"}))
    s.apply("h6-h5")
    assert unit(s, 1)["square"] == "h5" and s.to_dict()["pending"]["kind"] == "none"


def test_a_failed_wire_test_keeps_the_unit_where_it_started_until_next_move():
    """Obstacles A: "Other units must take a morale test to pass. If they
    fail, the may test again next movement phase." RULES.md (design): a
    failing unit stays where it started. The rifle on h6 fails at the wire,
    has used its move, and tries again on the next turn's Move card."""
    s = build(fill({0: "h5", 1: "h6", 16: "a12"}))
    s.apply("h6-h8")
    s.apply("fail")
    assert unit(s, 1)["square"] == "h6" and unit(s, 1)["acted"]
    assert not any(m.startswith("h6-") for m in legal(s))
    s.apply("done")
    for card in ("Gf", "Ga", "Gr", "Bm", "Bf", "Ba", "Br", "Gm"):
        s.apply(f"card:{card}")
        if card != "Gm":
            s.apply("done")
    assert s.to_dict()["turn"] == 2 and "h6-h8" in legal_both(s)
    s.apply("h6-h8")
    assert s.to_dict()["pending"]["kind"] == "cross-test"


def test_one_test_passes_a_belt_of_wire_and_a_unit_on_wire_leaves_freely():
    """Obstacles A: "Other units must take a morale test to pass." RULES.md
    (design): one test a move, however many wire squares its path enters; a
    unit already standing on wire passed it when it entered, so leaving it
    takes no test, nor does a move with a path round the wire. A rifle on c7
    moves along the wire to f7 after one test; a rifle on h7 (wire) goes back
    to h6 or on to the trench on h8 with none, and one on n6 to l8 round the
    wire's end with none."""
    s = build(fill({0: "c5", 1: "c7", 16: "a12"}))
    m = model(s)
    assert "c7-f7" in legal_both(s)
    for note in ("c7-f7", "pass"):
        s.apply(note)
        m.apply(note)
    assert unit(s, 1)["square"] == "f7" and s.to_dict()["pending"]["kind"] == "none"
    assert m.pending is None
    for move in ("h7-h6", "h7-h8"):
        s = build(fill({0: "h5", 1: "h7", 16: "a12"}))
        assert move in legal_both(s)
        s.apply(move)
        assert unit(s, 1)["square"] == move[3:] and s.to_dict()["pending"]["kind"] == "none"
    # a square reachable with no wire on the way takes no test: from n6 round
    # the wire's end (n7) and along the trench (m8) to l8
    s = build(fill({0: "n4", 1: "n6", 16: "a12"}))
    assert "n6-l8" in legal_both(s)
    s.apply("n6-l8")
    assert unit(s, 1)["square"] == "l8" and s.to_dict()["pending"]["kind"] == "none"


def test_tanks_cross_wire_with_no_test():
    """Obstacles A: "Tanks cross barbed wire automatically." The British Mark
    IV on n7 drives west along the wire to l7 with no test."""
    s = build({16: "n10", 23: "n7", 0: "a1"}, card="Bm")
    assert "n7-l7" in legal_both(s)
    s.apply("n7-l7")
    assert unit(s, 23)["square"] == "l7" and s.to_dict()["pending"]["kind"] == "none"


def test_one_test_a_move_a_gun_never_crosses_a_trench_and_wire_together():
    """Obstacles A and B both ask a Morale test "to pass". RULES.md (design):
    one test a move, so a move may pass wire or cross a trench, not both. The
    German light infantry gun (move 2, not on foot) on n9 reaches the wire on
    m7 by the open n8 (a wire test; failing, it stays on n9, not stuck), but
    not l7 on the wire beyond: its only path within 2 squares crosses the
    trench on m8 first."""
    s = build(fill({0: "n11", 11: "n9", 16: "a12"}))
    moves = legal_both(s)
    assert "n9-m7" in moves and "n9-l7" not in moves and "n9-n7" in moves
    with pytest.raises(ardsearch.IllegalMoveError, match="one obstacle a move: wire or a trench crossing, not both"):
        s.apply("n9-l7")
    s.apply("n9-m7")
    assert s.to_dict()["pending"]["kind"] == "cross-test"
    s.apply("fail")
    assert unit(s, 11)["square"] == "n9" and not unit(s, 11)["stuck"]


def test_an_out_of_command_unit_tests_for_its_hq_then_for_the_wire():
    """Movement A: units beyond 15 cm of their HQ "must pass a Morale test"
    to move; Obstacles A: "Other units must take a morale test to pass."
    Two tests, the HQ's first: the rifle on h6 with its HQ on a1."""
    s = build(fill({0: "a1", 1: "h6", 16: "a12"}))
    s.apply("h6-h8")
    assert s.to_dict()["pending"]["kind"] == "hq-test"
    s.apply("pass")
    assert s.to_dict()["pending"]["kind"] == "cross-test"
    s.apply("pass")
    assert unit(s, 1)["square"] == "h8"


def test_trench_crossing_for_non_foot_and_failure_immobilises():
    """Obstacles B: "Other units must take a morale test to pass. If a
    non-foot unit fail, it is immobilized there in that trench for the rest
    of the game." The trench square is the one its move crosses: of the
    equally cheap ones, the nearest the straight line (RULES.md, Trenches).
    The British Mark IV (slot 23) on e9 crossing southwards to e7 fails and
    is stuck straight ahead on e8, not on d8 or f8."""
    s = build({16: "p12", 23: "e9", 0: "a1"}, card="Bm")   # HQ out of command: an HQ test first
    m = model(s)
    moves = legal(s)
    assert "e9-e7" in moves and "e9-e8" not in moves
    for note in ("e9-e7", "pass", "fail"):
        s.apply(note)
        m.apply(note)
        if note == "e9-e7":
            assert s.to_dict()["pending"]["kind"] == "hq-test"
        if note == "pass":
            assert s.to_dict()["pending"]["kind"] == "cross-test"
    u = unit(s, 23)
    assert u["square"] == "e8" and u["stuck"]
    assert ref.name(m.units[23]["sq"]) == "e8" and m.units[23]["stuck"]
    # to f7, e8 and f8 lie equally near the line e9-f7: the lower index, e8
    s = build({16: "p12", 23: "e9", 0: "a1"}, card="Bm")
    for note in ("e9-f7", "pass", "fail"):
        s.apply(note)
    assert unit(s, 23)["square"] == "e8"
    # every crossing move of the Mark IV, from e9 and from j9: engine and model
    # agree on the square it is stuck on
    for start in ("e9", "j9"):
        base = build({16: "p12", 23: start, 0: "a1"}, card="Bm")
        for move in sorted(legal(base)):
            if not move.startswith(start + "-") or int(move.split("-")[1][1:]) >= 8:
                continue
            s, m = build({16: "p12", 23: start, 0: "a1"}, card="Bm"), model(base)
            for note in (move, "pass", "fail"):
                s.apply(note)
                m.apply(note)
            assert unit(s, 23)["square"] == ref.name(m.units[23]["sq"]), move
    s2 = build({16: "h11", 23: "e8", 0: "a1"}, card="Bm", units={23: {"stuck": True}})
    assert not any(m.startswith("e8-") for m in legal(s2))


def test_moving_adjacent_tests_mover_then_enemy_and_fall_back():
    """Assault B: "When a unit is moved adjacent to a enemy unit, it must
    take a Morale test. ... If not it is moved back 5cm from the enemy unit
    in question, if possible towards the own table edge, if not to any
    position not adjacent to a enemy unit." Approached from straight ahead,
    a unit falls back straight back (5 cm = 1 square)."""
    s = build({0: "h2", 1: "h3", 16: "a12", 17: "h6"})
    s.apply("h3-h5")
    assert s.to_dict()["pending"]["kind"] == "adjacent-mover"
    s.apply("fail")
    assert unit(s, 1)["square"] == "h4"     # straight away from h6, towards row 1
    # the enemy it moved next to tests all the same (next test)
    assert s.to_dict()["pending"]["kind"] == "adjacent-enemy" and s.to_dict()["pending"]["target"] == 17
    s = build(fill({0: "e2", 1: "d2", 16: "a12", 17: "d5"}, british=range(18, 22)))
    s.apply("d2-d4")
    s.apply("pass")
    assert s.to_dict()["pending"]["kind"] == "adjacent-enemy"
    assert outcomes(s) == pytest.approx({"pass": 4 / 6, "fail": 2 / 6})
    s.apply("fail")
    assert unit(s, 17)["square"] == "d6"   # British edge is the top row; straight away from d4
    # no square free of the wire and the enemy: it stays
    s = build(fill({0: "h2", 1: "h3", 16: "a12", 17: "h6"}, british=range(18, 22)))
    s.apply("h3-h5")
    s.apply("pass")
    s.apply("fail")
    assert unit(s, 17)["square"] == "h6"


@pytest.mark.parametrize("squares, move, expected", [
    # the enemy on i6, diagonally ahead: straight away from it is g4
    ({0: "h2", 1: "h4", 16: "a12", 17: "i6"}, "h4-h5", "g4"),
    # the enemy on i5, beside it: g4 is back and away (h4 and i4 are next to i5)
    ({0: "f3", 1: "f5", 16: "a12", 17: "i5"}, "f5-h5", "g4"),
    # the enemy on h6, diagonally ahead of g5: f4, with h4 held by a friend
    ({0: "h2", 1: "h3", 2: "h4", 16: "a12", 17: "h6"}, "h3-g5", "f4"),
    # straight back (h4) held by a friend: g4 and i4 are equally near the
    # edge and equally away from h6, so the lower square index, g4
    ({0: "h2", 1: "h3", 2: "h4", 16: "a12", 17: "h6"}, "h3-h5", "g4"),
    # straight back (h4) is next to another enemy (g3), not the one in
    # question: back towards the own edge comes first, so h4 all the same
    ({0: "h2", 1: "i4", 16: "a12", 17: "h6", 18: "g3"}, "i4-h5", "h4"),
    # nothing free one row back (g4, h4, i4 held by friends): "if not to
    # any position not adjacent to a enemy unit", the nearest the edge, g5
    ({0: "h2", 1: "h3", 2: "g4", 3: "h4", 4: "i4", 16: "a12", 17: "i6"}, "h3-h5", "g5"),
])
def test_a_failed_mover_falls_back_away_from_the_enemy(squares, move, expected):
    """Assault B: "If not it is moved back 5cm from the enemy unit in
    question, if possible towards the own table edge, if not to any position
    not adjacent to a enemy unit." First a square one row nearer its own
    edge and off the enemy it moved next to, else any square no enemy is
    next to (the nearest the edge); of equals, the step most nearly straight
    away from that enemy, then the lowest square index (RULES.md, falling
    back). The reference model agrees."""
    s = build(fill(squares, german=range(3, 8)))
    m = model(s)
    s.apply(move)
    m.apply(move)
    assert s.to_dict()["pending"]["kind"] == "adjacent-mover"
    s.apply("fail")
    m.apply("fail")
    assert unit(s, 1)["square"] == expected
    assert ref.name(m.units[1]["sq"]) == expected


def test_enemies_next_to_the_arrival_square_test_even_when_the_mover_fell_back():
    """Contract: "Moving adjacent to an enemy: the mover tests morale
    (failure: back 1 square, toward its own edge when possible); the enemy
    unit then tests too (same)." Assault B: "And when a enemy unit moves
    adjacent to a friendly unit, that friendly unit must take a Morale test."
    The German rifle d2-d4 arrives next to the British rifles on d5 and c5,
    fails and falls back "5cm from the enemy unit in question", away from
    both: to e3; both British rifles, next to d4 (not to e3), still test in
    slot order, and the one that fails falls back away from the mover, now
    on e3: to c6."""
    s = build(fill({0: "e2", 1: "d2", 16: "a12", 17: "d5", 18: "c5"}, british=range(19, 22)))
    m = model(s)
    notes = ["d2-d4", "fail"]
    for note in notes:
        s.apply(note)
        m.apply(note)
    assert unit(s, 1)["square"] == "e3"
    pend = s.to_dict()["pending"]
    assert pend["kind"] == "adjacent-enemy" and pend["target"] == 17 and pend["square"] == "d4"
    assert outcomes(s) == pytest.approx({"pass": 4 / 6, "fail": 2 / 6})
    assert outcomes(s) == pytest.approx({k: float(p) for k, p in m.chances().items()})
    # the structured state keeps the arrival square: it round-trips
    assert s.game.state_from_dict(s.to_dict()).raw() == s.raw()
    s.apply("fail")
    m.apply("fail")
    assert unit(s, 17)["square"] == "c6"          # British edge is the top row; away from e3
    assert s.to_dict()["pending"]["target"] == 18 and s.to_dict()["pending"]["square"] == "d4"
    s.apply("pass")
    m.apply("pass")
    assert not s.is_chance_node() and unit(s, 18)["square"] == "c5"
    assert legal(s) == m.legal()
    # the mover passing: both test as well, the mover staying on d4
    s = build(fill({0: "e2", 1: "d2", 16: "a12", 17: "d5", 18: "c5"}, british=range(19, 22)))
    s.apply("d2-d4")
    s.apply("pass")
    assert [s.to_dict()["pending"]["target"], unit(s, 1)["square"]] == [17, "d4"]


def test_a_pending_enemy_test_must_be_next_to_the_arrival_square():
    """The adjacency tests keep the arrival square (pending `square`):
    state_from_dict refuses an enemy test for a unit not next to it, and a
    mover's test with the mover off it."""
    s = build(fill({0: "e2", 1: "d2", 16: "a12", 17: "d5", 18: "c5"}, british=range(19, 22)))
    s.apply("d2-d4")
    d = s.to_dict()
    assert d["pending"]["kind"] == "adjacent-mover" and d["pending"]["square"] == "d4"
    bad = dict(d, pending=dict(d["pending"], square="d3"))
    with pytest.raises(ValueError, match="no enemy adjacent"):
        s.game.state_from_dict(bad)
    s.apply("fail")
    d = s.to_dict()
    bad = dict(d, pending=dict(d["pending"], square="f4"))
    with pytest.raises(ValueError, match="enemy next to the arrival square"):
        s.game.state_from_dict(bad)


def test_star_units_move_or_fire_not_both():
    s = build({0: "h2", 8: "e2", 10: "g2", 16: "a12", 17: "g5"}, phase="fire", card="Gf",
              units={10: {"moved": True}, 8: {"moved": True}})
    moves = legal(s)
    assert "e2xg5" in moves and "g2xg5" not in moves
    s = build({0: "h2", 10: "g2", 16: "a12"}, units={10: {"fired": True}})
    assert not any(m.startswith("g2-") for m in legal(s))


def test_pinned_and_suppressed_do_not_move():
    s = build({0: "h2", 1: "h3", 2: "f3", 16: "a12"}, units={1: {"status": "pinned"}, 2: {"status": "suppressed"}})
    assert not any(m.startswith(("h3-", "f3-")) for m in legal(s))


# ----------------------------------------------------------------- fire
def test_range_modifiers_and_hit_odds():
    s = build({0: "a1", 1: "h3", 16: "a12", 17: "h6", 18: "h5", 19: "h12"}, phase="fire", card="Gf")
    s.apply("h3xh6")            # range 3: d6 > 4
    assert outcomes(s) == pytest.approx({"hit": 2 / 6, "miss": 4 / 6})
    s = build({0: "a1", 1: "h3", 16: "a12", 18: "h5"}, phase="fire", card="Gf")
    s.apply("h3xh5")            # short range +1
    assert outcomes(s) == pytest.approx({"hit": 3 / 6, "miss": 3 / 6})
    s = build({0: "a1", 1: "p3", 16: "a12", 19: "p12"}, phase="fire", card="Gf")
    s.apply("p3xp12")           # long range -1
    assert outcomes(s) == pytest.approx({"hit": 1 / 6, "miss": 5 / 6})


def test_protection_values_plunging_and_direct_fire():
    s = build({0: "a1", 1: "h5", 16: "a12", 17: "h8"}, phase="fire", card="Gf")
    s.apply("h5xh8")            # trench 7: d6 cannot hit
    assert outcomes(s) == {"miss": 1.0}
    s = build({0: "a1", 10: "h5", 16: "a12", 17: "h8"}, phase="fire", card="Gf")
    s.apply("h5xh8")            # mortar d8 + 1 plunging > trench 7: 7, 8
    assert outcomes(s) == pytest.approx({"hit": 2 / 8, "miss": 6 / 8})
    s = build({0: "a1", 11: "h5", 16: "a12", 21: "h9"}, phase="fire", card="Gf")
    s.apply("h5xh9")            # LIG d10 + 1 direct > bunker 9: 9, 10
    assert outcomes(s) == pytest.approx({"hit": 2 / 10, "miss": 8 / 10})


def test_plunging_fire_counts_against_a_tank_in_craters():
    """Contract, Fire: "Fire value = the unit's fire die ... + modifiers
    (range; plunging fire +1 for mortars against trench or craters; ...)" and
    "Penetration = die + modifiers vs the tank's Armour". The German light
    trench mortar (at d8) against the Mark IV (armour 6) on craters at e9, 5
    squares away: 6, 7, 8 penetrate (3 of 8); on open ground at n6, 3 squares
    away, only 7 and 8."""
    for mortar, tank, miss in (("h4", "e9", 5 / 8), ("n3", "n6", 6 / 8)):
        s = build({0: "a1", 10: mortar, 16: "a12", 23: tank}, phase="fire", card="Gf")
        m = model(s)
        s.apply(f"{mortar}x{tank}")
        m.apply(f"{mortar}x{tank}")
        assert outcomes(s)["miss"] == pytest.approx(miss)
        assert outcomes(s) == pytest.approx({k: float(p) for k, p in m.chances().items()})


def test_effect_of_hits():
    s = build({0: "a1", 1: "h3", 16: "a12", 17: "h6"}, phase="fire", card="Gf")
    s.apply("h3xh6")
    s.apply("hit")
    assert unit(s, 17)["status"] == "pinned"
    s = build({0: "a1", 1: "h3", 16: "a12", 17: "h6"}, phase="fire", card="Gf", units={17: {"status": "pinned"}})
    s.apply("h3xh6")
    s.apply("hit")
    assert unit(s, 17)["square"] is None             # second hit in the open
    s = build({0: "a1", 10: "h5", 16: "a12", 17: "h8"}, phase="fire", card="Gf", units={17: {"status": "pinned"}})
    s.apply("h5xh8")
    s.apply("hit")
    assert unit(s, 17)["status"] == "suppressed"     # artillery; trench is not open
    s = build({0: "a1", 10: "h5", 16: "a12", 17: "h8"}, phase="fire", card="Gf", units={17: {"status": "suppressed"}})
    s.apply("h5xh8")
    s.apply("hit")
    assert unit(s, 17)["square"] == "h8" and unit(s, 17)["status"] == "suppressed"


def test_suppressed_units_do_not_fire_pinned_do():
    s = build({0: "a1", 1: "h3", 2: "g3", 16: "a12", 17: "h6"}, phase="fire", card="Gf",
              units={1: {"status": "pinned"}, 2: {"status": "suppressed"}})
    assert "h3xh6" in legal(s) and "g3xh6" not in legal(s)


def test_line_of_sight_woods_and_hills():
    # c9/c10/d9/d10 woods: a unit behind them is out of sight
    s = build({0: "a1", 1: "d6", 16: "a12", 17: "d11", 18: "f12"}, phase="fire", card="Gf",
              units={17: {"spotted": True}})
    assert "d6xd11" not in legal(s) and "d6xf12" in legal(s)
    # b6/c6 hill: blocks between units off it, not when the firer is on it
    s = build({0: "a1", 1: "a6", 2: "b6", 16: "a12", 17: "d6", 18: "e6"}, phase="fire", card="Gf")
    moves = legal(s)
    assert "a6xd6" not in moves and "b6xe6" in moves
    # hill with woods always blocks: no shipped map has woods on a hill, so
    # that case is in tests/test_stosstruppen_test_maps.py


def test_spotting_in_woods():
    s = build({0: "a1", 1: "c6", 16: "a12", 17: "c9"}, phase="fire", card="Gf")
    assert "c6xc9" not in legal(s)
    s = build({0: "a1", 1: "c6", 16: "a12", 17: "c9"}, phase="fire", card="Gf", units={17: {"spotted": True}})
    assert "c6xc9" in legal(s)
    s = build({0: "c4", 1: "c5", 16: "a12", 17: "c9"})
    s.apply("c5-c7")            # within 2 squares: spotted for the game
    assert unit(s, 17)["spotted"]


def test_a_hand_built_position_spots_a_unit_an_enemy_is_near():
    """Fire B: units in woods or buildings "cannot be fired on until spotted":
    an enemy within 10 cm (2 squares). A structured state that says
    `spotted: false` for a British rifle in the c9 woods with a German two
    squares off on c7 is loaded as spotted, so the German may fire at it."""
    s = build({0: "a1", 1: "c7", 16: "a12", 17: "c9"}, phase="fire", card="Gf")
    assert unit(s, 17)["spotted"]
    assert "c7xc9" in legal(s)
    far = build({0: "a1", 1: "c6", 16: "a12", 17: "c9"}, phase="fire", card="Gf")
    assert not unit(far, 17)["spotted"]     # three squares: not spotted


def test_bunker_arc():
    s = build({0: "a1", 1: "h6", 2: "c6", 16: "a12", 21: "h9"}, phase="fire", card="Bf")
    moves = legal(s)
    assert "h9xh6" in moves and "h9xc6" not in moves


# ----------------------------------------------------------------- tanks
def test_only_anti_tank_weapons_fire_at_tanks():
    s = build({0: "a1", 1: "h3", 6: "k2", 16: "a12", 20: "h7"}, scenario="villers", phase="fire", card="Gf")
    moves = legal(s)
    assert "h3xh7" not in moves and "k2xh7" in moves
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k11"}, scenario="villers", phase="fire", card="Gf")
    assert "k2xk11" not in legal(s)   # AT rifle: no long range against tanks


def test_penetration_and_hit_table():
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k5"}, scenario="villers", phase="fire", card="Gf")
    s.apply("k2xk5")   # d10 vs armour 6: 4/10
    p = 0.4
    assert outcomes(s) == pytest.approx({"miss": 0.6, "hit:main": p / 3, "hit:sec": p / 3,
                                         "hit:immob": p / 6, "hit:kill": p / 6})
    s.apply("hit:immob")
    u = unit(s, 20)
    assert u["immobilised"] and u["damaged"]
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k5"}, scenario="villers", phase="fire", card="Gf",
              units={20: {"damaged": True, "main_out": True}})
    s.apply("k2xk5")
    assert outcomes(s) == pytest.approx({"miss": 0.6, "hit:kill": 0.4})
    s.apply("hit:kill")
    assert unit(s, 20)["square"] is None


def test_tank_fires_main_then_secondary_in_its_arc():
    s = build({0: "a1", 7: "h3", 16: "a12", 17: "h6", 18: "a3"}, scenario="villers", phase="fire", card="Gf")
    moves = legal(s)
    assert "h3xh6" in moves and "h3xa3" not in moves        # facing north
    s.apply("h3xh6")
    s.apply("miss")
    assert unit(s, 7)["main_fired"] and "h3xh6" in legal(s)
    s.apply("h3xh6")
    assert outcomes(s) == pytest.approx({"hit": 4 / 8, "miss": 4 / 8})   # MG d8 +0 vs 4
    s.apply("miss")
    assert "h3xh6" not in legal(s)


def test_tank_facing_follows_its_move():
    s = build({0: "a1", 7: "h3", 16: "a12"}, scenario="villers")
    s.apply("h3-j3")
    s.apply("pass")
    assert unit(s, 7)["facing"] == "e"


def test_tanks_are_never_pinned():
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k5"}, scenario="villers", phase="fire", card="Gf")
    s.apply("k2xk5")
    s.apply("hit:main")
    assert unit(s, 20)["status"] == "normal" and unit(s, 20)["main_out"]


# ----------------------------------------------------------------- barrages and CAS
def test_barrage_placement_needs_line_of_sight():
    s = build({0: "a1", 1: "d6", 16: "a12"}, phase="fire", card="Gf")
    moves = legal(s)
    assert "barrage h8" in moves and "gas h8" in moves and "barrage d11" not in moves
    assert s.string_to_action("barrage h8") == s.string_to_action("barrage:h8")   # the old colon form read too


def test_barrage_arrives_from_the_next_fire_phase_and_hits_everyone_near():
    s = build({0: "a1", 1: "h6", 16: "a12", 17: "h8", 18: "i9"}, phase="fire", card="Gf")
    s.apply("barrage h8")
    assert not s.is_chance_node()
    s.apply("done")
    mk = s.to_dict()["markers"][0]
    assert mk["armed"] and mk["square"] == "h8"
    # the next turn's German Fire card starts with the arrival test
    s = build({0: "a1", 1: "h6", 16: "a12", 17: "h8", 18: "i9"}, phase="draw", card=None,
              markers=[mk], turn=2)
    s.apply("card:Gf")
    assert outcomes(s) == pytest.approx({"arrive": 1 / 3, "wait": 2 / 3})
    s.apply("arrive")
    assert s.to_dict()["pending"]["kind"] == "blast"
    assert s.to_dict()["pending"]["target"] == 1           # h6 is 2 squares away: friend hit too
    assert outcomes(s) == pytest.approx({"hit": 16 / 20, "miss": 4 / 20})   # d20 > 4
    s.apply("miss")
    assert s.to_dict()["pending"]["target"] == 17
    assert outcomes(s) == pytest.approx({"hit": 13 / 20, "miss": 7 / 20})   # trench 7
    s.apply("hit")
    assert unit(s, 17)["status"] == "suppressed"
    s.apply("hit")                                          # i9: open
    assert s.to_dict()["markers"][0]["kind"] == "none" and not s.is_chance_node()


def test_gas_and_cas():
    s = build({0: "a1", 1: "h4", 16: "a12", 17: "h8"}, phase="fire", card="Gf",
              markers=[{"slot": 0, "kind": "gas", "armed": True, "square": "h6"}],
              pending={"kind": "arrival", "aux": 0})
    s.apply("arrive")
    assert s.to_dict()["pending"]["target"] == 1          # radius 4
    assert outcomes(s) == pytest.approx({"hit": 6 / 10, "miss": 4 / 10})
    s = build({16: "a12", 17: "h8", 0: "a1", 1: "h6"}, scenario="villers", phase="fire", card="Bf")
    assert "cas a1" in legal(s)
    s = build({16: "a12", 17: "h8", 0: "a1", 1: "h6"}, scenario="villers", phase="fire", card="Bf",
              markers=[{"slot": 4, "kind": "cas", "armed": True, "square": "h6"}],
              pending={"kind": "arrival", "aux": 4})
    s.apply("arrive")
    assert outcomes(s) == pytest.approx({"fighter": 0.5, "bomber": 0.5})
    s.apply("bomber")
    assert outcomes(s) == pytest.approx({"hit": 8 / 12, "miss": 4 / 12})


# ----------------------------------------------------------------- the contract's chance names
def alias_reads(s, note):
    """The outcome `note` names at this chance node, after checking that the
    reference model reads it the same way (tests/reference, canonical)."""
    name = s.action_to_string(s.string_to_action(note))
    assert ref_canonical(s, note) == name, (note, s.to_dict()["pending"])
    return name


def ref_canonical(s, note):
    """The reference model's reading of `note` at the engine's chance node
    (its from_dict takes no pending node: the node is set by hand from the
    kind, the target or marker, and the target's damage)."""
    d = s.to_dict()
    m = ref.State(d["scenario"])
    kind = d["pending"]["kind"]
    slot = d["pending"]["target"]
    m.pending = (kind, {"target": slot, "unit": slot, "marker": d["pending"]["aux"]})
    u = next(x for x in d["units"] if x["slot"] == slot)
    m.units[slot]["damaged"] = u.get("damaged", False)
    return m.canonical(note)


def test_arrival_test_reads_pass_fail_and_d6():
    """Contract, Notation: "chance ... `pass`/`fail`, `d<n>=<k>` where an
    exact die value matters"; Barrages A: "each marker tests 1d6, 5-6
    arrives". The engine writes `arrive` / `wait` and reads `pass` / `fail`
    and `d6=1`..`d6=6` for them (RULES.md, Notation)."""
    s = build({0: "a1", 1: "h4", 16: "a12", 17: "h8"}, phase="fire", card="Gf",
              markers=[{"slot": 0, "kind": "gas", "armed": True, "square": "h6"}],
              pending={"kind": "arrival", "aux": 0})
    assert alias_reads(s, "pass") == "arrive" and alias_reads(s, "fail") == "wait"
    assert [alias_reads(s, f"d6={k}") for k in range(1, 7)] == ["wait"] * 4 + ["arrive"] * 2
    assert s.string_to_action("arrive") == s.string_to_action("pass")     # the canonical name still reads
    for bad in ("d6=0", "d6=7", "d8=5", "d20=3"):
        with pytest.raises(ValueError, match="d6=<k>.*arrival test.*5-6 arrive"):
            s.string_to_action(bad)
    s.apply("d6=5")
    assert s.to_dict()["pending"]["kind"] == "blast"


def test_aircraft_roll_reads_d6():
    """CAS B: "first roll 1d6, to determine the type of Aircraft: 1-3 = A
    Single-seat Fighter ... 4-6 = A Two-Seater Light Bomber"."""
    s = build({16: "a12", 17: "h8", 0: "a1", 1: "h6"}, scenario="villers", phase="fire", card="Bf",
              markers=[{"slot": 4, "kind": "cas", "armed": True, "square": "h6"}],
              pending={"kind": "arrival", "aux": 4})
    s.apply("d6=6")
    assert s.to_dict()["pending"]["kind"] == "aircraft"
    assert [alias_reads(s, f"d6={k}") for k in range(1, 7)] == ["fighter"] * 3 + ["bomber"] * 3
    # pass / fail stay the morale test's names here: not an outcome of this roll
    with pytest.raises(ardsearch.IllegalMoveError):
        s.apply("pass")
    s.apply("d6=2")
    assert next(mk for mk in s.to_dict()["markers"] if mk["slot"] == 4)["kind"] == "fighter"
    assert outcomes(s) == pytest.approx({"hit": 4 / 8, "miss": 4 / 8})     # d8 > 4


def test_anti_tank_table_reads_d6():
    """Contract, Fire: "if higher, roll on the anti-tank hit table (design:
    1d6: 1-2 main armament out, 3-4 secondary out, 5 immobilised, 6
    destroyed ...)". At a penetration roll against an undamaged tank `d6=<k>`
    names the penetration with table roll k; against a damaged tank (a
    second penetration destroys, no table) or a soldier it names nothing."""
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k5"}, scenario="villers", phase="fire", card="Gf")
    s.apply("k2xk5")
    assert [alias_reads(s, f"d6={k}") for k in range(1, 7)] == [
        "hit:main", "hit:main", "hit:sec", "hit:sec", "hit:immob", "hit:kill"]
    s.apply("d6=5")
    assert unit(s, 20)["immobilised"]
    s = build({0: "a1", 6: "k2", 16: "a12", 20: "k5"}, scenario="villers", phase="fire", card="Gf",
              units={20: {"damaged": True, "main_out": True}})
    s.apply("k2xk5")
    with pytest.raises(ValueError, match="anti-tank"):
        s.string_to_action("d6=6")
    s = build({0: "a1", 1: "h3", 16: "a12", 17: "h6"}, phase="fire", card="Gf")
    s.apply("h3xh6")
    with pytest.raises(ValueError, match="hit/miss"):
        s.string_to_action("d6=6")


def test_d6_is_refused_at_other_nodes():
    """The assault is two dice compressed (Assault C): no `d<n>=<k>` there,
    nor at a morale test, nor for a player's move."""
    s = build({0: "a1", 1: "h5", 16: "a12", 17: "h6"}, phase="assault", card="Ga")
    with pytest.raises(ValueError, match="not stosstruppen notation"):
        s.string_to_action("d6=3")
    s.apply("h5@h6")
    for bad in ("d6=3", "d12=7"):
        with pytest.raises(ValueError, match="win/loss/tie"):
            s.string_to_action(bad)
    s = build({0: "h2", 1: "h3", 16: "a12", 17: "h6"})
    s.apply("h3-h5")
    with pytest.raises(ValueError, match="d6=<k>"):
        s.string_to_action("d6=4")
    assert s.string_to_action("pass") == ardsearch.Game(SPEC).new_initial_state().string_to_action("pass")


# ----------------------------------------------------------------- assault
def test_assault_odds_and_bonuses():
    s = build({0: "a1", 1: "h5", 16: "a12", 17: "h6"}, phase="assault", card="Ga")
    s.apply("h5@h6")
    assert outcomes(s) == pytest.approx({"win": 15 / 36, "loss": 15 / 36, "tie": 6 / 36})
    # defender in a trench: +1d3
    s = build({0: "a1", 1: "h7", 16: "a12", 17: "h8"}, phase="assault", card="Ga")
    s.apply("h7@h8")
    win = sum(1 for a in range(1, 7) for d in range(1, 7) for b in range(1, 4) if a > d + b) / 108
    assert outcomes(s)["win"] == pytest.approx(win)
    # along a connected trench: no bonus
    s = build({0: "a1", 1: "g8", 16: "a12", 17: "h8"}, phase="assault", card="Ga")
    s.apply("g8@h8")
    assert outcomes(s)["win"] == pytest.approx(15 / 36)
    # against a suppressed defender: +2d3
    s = build({0: "a1", 1: "h5", 16: "a12", 17: "h6"}, phase="assault", card="Ga", units={17: {"status": "suppressed"}})
    s.apply("h5@h6")
    win = sum(1 for a in range(1, 7) for b in range(1, 4) for c in range(1, 4) for d in range(1, 7)
              if a + b + c > d) / 324
    assert outcomes(s)["win"] == pytest.approx(win)


def test_tank_with_armament_out_halves_its_melee_die():
    s = build({0: "a1", 1: "h5", 16: "a12", 20: "h6"}, scenario="villers", phase="assault", card="Ga",
              units={20: {"damaged": True, "main_out": True}})
    s.apply("h5@h6")
    win = sum(1 for a in range(1, 7) for d in range(1, 9) if a > (d + 1) // 2) / 48
    assert outcomes(s)["win"] == pytest.approx(win)


def test_who_may_assault_and_advance():
    s = build({0: "a1", 1: "h5", 8: "g5", 10: "i5", 2: "g4", 16: "a12", 17: "h6"}, phase="assault", card="Ga",
              units={8: {"status": "pinned"}})
    moves = legal(s)
    assert "h5@h6" in moves and "g5@h6" not in moves and "i5@h6" not in moves and "g4@h6" not in moves
    s.apply("h5@h6")
    s.apply("win")
    assert unit(s, 17)["square"] is None and legal(s) == {"advance", "stay"}
    s.apply("advance")
    assert unit(s, 1)["square"] == "h6" and "h6@h6" not in legal(s)
    s = build({0: "a1", 1: "h5", 16: "a12", 17: "h6"}, phase="assault", card="Ga")
    s.apply("h5@h6")
    s.apply("loss")
    assert unit(s, 1)["square"] is None


def test_an_advance_next_to_other_enemies_takes_no_morale_test():
    """Assault C: "Any unit successfully assault a enemy may enter the
    vacated terrain." The tests for moving next to the enemy belong to the
    Move card (contract: "Movement (Move card) ... Moving adjacent to an
    enemy: the mover tests morale"; Assault B: "If it passes it stays
    adjacent (and may assault in the next assault phase)"), so the rifle
    that wins h8 and advances next to the British rifle on g9 and the LMG on
    i8 takes no test, nor do they (RULES.md, design)."""
    s = build({0: "a1", 1: "h7", 16: "a12", 17: "h8", 18: "g9", 20: "i8"}, phase="assault", card="Ga")
    m = model(s)
    for note in ("h7@h8", "win", "advance"):
        s.apply(note)
        m.apply(note)
    assert unit(s, 1)["square"] == "h8" and ref.name(m.units[1]["sq"]) == "h8"
    assert not s.is_chance_node() and s.to_dict()["pending"]["kind"] == "none"
    # the phase goes on; the rifle has assaulted once this phase
    assert s.to_dict()["phase"] == "assault" and legal_both(s) == {"done"}


def test_assault_from_any_of_the_eight_neighbours():
    """Contract: "Unpinned, unsuppressed foot units in contact (adjacent
    square) with an enemy may assault, once each per phase; a unit may be
    assaulted from each side", and "Distance is Chebyshev (diagonal = 1)";
    Assault B: a unit that passes its test on moving adjacent "stays adjacent
    (and may assault in the next assault phase)". All 8 neighbours, the
    diagonal ones too, may assault one target, each once."""
    s = build({0: "a1", 1: "h5", 2: "g6", 3: "i6", 4: "h7", 5: "g5", 6: "i5", 7: "g7", 8: "i7",
               16: "a12", 17: "h6"}, phase="assault", card="Ga")
    moves = legal_both(s)
    assert {m for m in moves if m.endswith("@h6")} == {
        "h5@h6", "g6@h6", "i6@h6", "h7@h6", "g5@h6", "i5@h6", "g7@h6", "i7@h6"}
    s.apply("g5@h6")
    s.apply("tie")
    s.apply("i7@h6")
    s.apply("tie")
    moves = legal_both(s)
    assert "g5@h6" not in moves and "i7@h6" not in moves and len([m for m in moves if "@" in m]) == 6
    # a unit with only diagonal contact assaults, and wins or loses as from an edge
    s = build({0: "a1", 1: "g5", 16: "a12", 17: "h6"}, phase="assault", card="Ga")
    assert legal_both(s) == {"g5@h6", "done"}
    m = model(s)
    s.apply("g5@h6")
    m.apply("g5@h6")
    assert outcomes(s) == pytest.approx({"win": 15 / 36, "loss": 15 / 36, "tie": 6 / 36})   # rifle d6 each
    assert outcomes(s) == pytest.approx({k: float(p) for k, p in m.chances().items()})
    s.apply("win")
    assert legal(s) == {"advance", "stay"}
    s.apply("advance")
    assert unit(s, 1)["square"] == "h6"
    # two squares away is no contact
    s = build({0: "a1", 1: "f5", 16: "a12", 17: "h6"}, phase="assault", card="Ga")
    assert legal_both(s) == {"done"}


def test_diagonal_assault_on_a_trench_gets_the_trench_bonus():
    """Contract: "defender in trench or bunker adds 1d3 unless attacked along a
    connected trench". From e7 (open, with wire) diagonally onto the trench
    at d8 the attack is not along a trench: the defender adds 1d3; from the
    trench square e8 beside it, no bonus."""
    s = build({0: "a1", 1: "e7", 16: "a12", 17: "d8"}, phase="assault", card="Ga")
    m = model(s)
    s.apply("e7@d8")
    m.apply("e7@d8")
    win = sum(1 for a in range(1, 7) for d in range(1, 7) for b in range(1, 4) if a > d + b) / 108
    assert outcomes(s)["win"] == pytest.approx(win)
    assert outcomes(s) == pytest.approx({k: float(p) for k, p in m.chances().items()})
    s = build({0: "a1", 1: "e8", 16: "a12", 17: "d8"}, phase="assault", card="Ga")
    s.apply("e8@d8")
    assert outcomes(s)["win"] == pytest.approx(15 / 36)


# ----------------------------------------------------------------- rally, demoralisation, victory
def test_rally():
    s = build({0: "a1", 1: "h5", 2: "g5", 3: "f5", 16: "a12"}, phase="rally", card="Gr",
              units={1: {"status": "pinned"}, 2: {"status": "suppressed"}})
    assert legal(s) == {"rally", "done"}
    s.apply("rally")
    assert s.to_dict()["pending"]["target"] == 1
    s.apply("pass")
    s.apply("pass")
    assert unit(s, 1)["status"] == "normal" and unit(s, 2)["status"] == "pinned"
    assert s.is_chance_node() and s.to_dict()["phase"] == "draw"


def test_victory_at_the_last_turn_and_by_demoralisation():
    full = ["Gm", "Gf", "Ga", "Gr", "Bm", "Bf", "Ba"]
    s = build({0: "a1", 1: "d8", 2: "f8", 3: "h8", 16: "a12", 17: "p12"}, phase="rally", card="Br",
              drawn=full, turn=8)
    s.apply("done")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    s = build({0: "a1", 1: "d8", 2: "f8", 16: "a12", 17: "p12", 18: "o12", 19: "n12", 20: "m12"},
              phase="rally", card="Br", drawn=full, turn=8)
    s.apply("done")
    assert s.returns() == [-1.0, 1.0]
    # turn 2: British lost 4 of 8 -> demoralised; Germans hold one objective
    s = build({0: "a1", 1: "d8", 16: "a12", 17: "p12", 18: "o12", 19: "n12"},
              phase="rally", card="Br", drawn=full, turn=2)
    s.apply("done")
    assert s.returns() == [1.0, -1.0]


def test_demoralisation_victory_holds_on_the_last_turn_too():
    """Contract (Armies and winning): "The Germans win by occupying at least 3
    of the 5 trench squares marked as objectives at the end of turn 8, or by
    demoralising the British and holding 1 objective; otherwise the British
    win." Morale C: "When 50% of their original number of units have been
    destroyed (fractions rounded up) a Players Army will become Demoralised".
    The same position (British lost 4 of 8, Germans on one objective) is a
    German win at the end of turn 7 and at the end of turn 8."""
    full = ["Gm", "Gf", "Ga", "Gr", "Bm", "Bf", "Ba"]
    for turn in (7, 8):
        s = build({0: "a1", 1: "d8", 16: "a12", 17: "p12", 18: "o12", 19: "n12"},
                  phase="rally", card="Br", drawn=full, turn=turn)
        m = model(s)
        s.apply("done")
        m.apply("done")
        assert s.is_terminal() and s.returns() == [1.0, -1.0], f"turn {turn}"
        assert m.current_player() == "terminal" and m.returns() == [1.0, -1.0], f"model, turn {turn}"
    # not demoralised (3 of 8 lost), one objective: play on at turn 7, British win after turn 8
    for turn, over in ((7, False), (8, True)):
        s = build({0: "a1", 1: "d8", 16: "a12", 17: "p12", 18: "o12", 19: "n12", 20: "m12"},
                  phase="rally", card="Br", drawn=full, turn=turn)
        m = model(s)
        s.apply("done")
        m.apply("done")
        assert s.is_terminal() == over and s.returns() == ([-1.0, 1.0] if over else [0.0, 0.0])
        assert (m.current_player() == "terminal") == over and m.returns() == s.returns()


def test_an_attacker_with_no_units_loses_at_once():
    """Contract (Armies and winning): the Germans win only by holding
    objectives, "otherwise the British win". With the last German unit gone
    no objective can be held, so the game ends at once: a British win."""
    s = build({0: "h4", 16: "a12", 17: "h6"}, phase="fire", card="Bf", units={0: {"status": "pinned"}})
    m = model(s)
    for step in ("h6xh4", "hit"):
        s.apply(step)
        m.apply(step)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]
    assert m.current_player() == "terminal" and m.returns() == [-1.0, 1.0]
    assert s.outcome().reason == "elimination"


def test_a_defender_wiped_out_still_needs_an_objective_held():
    """Contract (Armies and winning): "The Germans win by occupying at least 3
    of the 5 trench squares marked as objectives at the end of turn 8, or by
    demoralising the British and holding 1 objective; otherwise the British
    win." Shooting the last British unit on turn 8 demoralises the British
    but holds nothing: the game goes on to the end of the turn, where the
    British win if no German holds an objective (the engine once gave the
    Germans the game at the shot), and the Germans if one does."""
    full = ["Gm", "Ga", "Gr", "Bm", "Bf", "Ba", "Br"]
    for on_objective, winner, reason in ((False, [-1.0, 1.0], "turn-limit"), (True, [1.0, -1.0], "morale")):
        squares = {0: "a1", 1: "h3", 16: "h6"}
        if on_objective:
            squares[2] = "d8"
        s = build(squares, phase="fire", card="Gf", drawn=full, turn=8, units={16: {"status": "pinned"}})
        m = model(s)
        for step in ("h3xh6", "hit"):
            s.apply(step)
            m.apply(step)
        assert not s.is_terminal() and m.current_player() != "terminal"
        assert all(u["square"] is None for u in s.to_dict()["units"] if u["side"] == "british")
        s.apply("done")
        m.apply("done")
        assert s.is_terminal() and s.returns() == winner, on_objective
        assert m.current_player() == "terminal" and m.returns() == winner
        assert s.outcome().reason == reason


def test_a_defender_with_no_units_plays_its_phases_out():
    """The British with no units left still draw their cards: each of their
    phases offers `done` (and a CAS marker in hand may still be placed: CAS A,
    "placed anywhere"), so the game reaches the end of its turn."""
    s = build({0: "a1", 1: "h3"}, phase="move", card="Bm", drawn=["Bm"])
    assert legal(s) == {"done"}
