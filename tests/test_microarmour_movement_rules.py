"""Micro Armour: the movement rules of issue 12: wrecks on roads (the mover's choice of
cost), the overrun as written (the overrunner passes over its target and finishes
adjacent) and covering fire by every unfired firing-posture stand. Hand-built positions,
docstrings quoting the digest (shared/seeds/micro-armour.txt), each checked against the
reference model (check_reference in test_microarmour_rules). Map: the road runs along
y=10; rows y=0 and y=3 are clear."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import chances, check_reference, moves, movement, play  # noqa: E402

WRECK = {"alive": False, "wreck": True}


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def step_cost(stands, mover, direction, mp):
    """Half-MP the mover pays for one step from a fresh move with mp half-MP."""
    st = movement({**stands, mover: {**stands[mover], "posture": "move", "mp": mp}},
                  mover={"id": mover, "step": "step", "ordered": True, "stopped": False})
    st.apply("step " + direction)
    check_reference(st)
    return mp - stand(st, mover)["mp"]


def test_a_wreck_on_a_road_costs_the_underlying_terrain_or_the_wreck():
    """Digest, *Wrecks*: "9.2.2 If a wreck is located on a road or track, moving stands may
    choose to pay either the cost of the underlying terrain or the cost of the wreck", and
    "A stand moving through a wreck on a road ... cannot use the road movement rate there".
    Design: the road's underlying terrain is clear (charts.toml terrain.road.under) and the
    mover takes the cheaper (MP cannot be saved, so the dearer never helps). The
    Introductory's road runs from x = 10 (scenarios/introductory.toml)."""
    pz = {"pz4a": {"at": [10, 10]}}
    assert step_cost(pz, "pz4a", "e", 24) == 1                               # the road: 1/2 MP
    # one wreck on the road: clear 1 MP or the wreck's 2 MP: 1 MP (2 half-MP), not the road's 1/2
    assert step_cost({**pz, "t34b": {"at": [11, 10], **WRECK}}, "pz4a", "e", 24) == 2
    # two wrecks (Rough Terrain 3, 3 MP) on the road: still the clear 1 MP
    assert step_cost({**pz, "t34b": {"at": [11, 10], **WRECK}, "t34c": {"at": [11, 10], **WRECK}},
                     "pz4a", "e", 24) == 2
    # off the road a wreck costs its own rate when dearer than the terrain's: 2 MP on clear
    assert step_cost({"pz4a": {"at": [5, 3]}, "t34b": {"at": [6, 3], **WRECK}}, "pz4a", "e", 24) == 4
    # infantry on the road: a wreck costs foot 1 MP, clear 1 MP: 1 MP instead of the road's 1/2
    assert step_cost({"pgra": {"at": [10, 10]}, "t34b": {"at": [11, 10], **WRECK}}, "pgra", "e", 8) == 2


def test_the_overrunner_passes_over_and_finishes_beyond_the_target():
    """Digest, *Overrun*: "Up to eight armoured vehicles pass over the target and finish
    adjacent, pinning it; some terrain prohibits this." Design: it finishes on the square
    beyond the target in line with its approach, which must be free and passable, paying
    both squares' costs."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "rfla": {"at": [6, 4], "fired": True}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "overrun rfla" in moves(st)
    st.apply("overrun rfla")                 # the rifle's AP 2 cannot hurt halved armour: no range-0 fire
    check_reference(st)
    pz = stand(st, "pz4a")
    assert pz["at"] == [7, 5] and pz["facing"] == "ne" and pz["mp"] == 24 - 4   # two clear squares
    st.apply("c:ok")                         # the defender holds
    st.apply("c:ok")                         # the overrunner holds
    check_reference(st)
    assert stand(st, "pz4a")["at"] == [7, 5] and stand(st, "rfla")["at"] == [6, 4]
    assert st.to_dict()["mover"] is None and stand(st, "rfla")["moved"]      # pinned
    blocked = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "rfla": {"at": [6, 4], "fired": True},
                        "pz4b": {"at": [7, 5]}},
                       mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "overrun rfla" not in moves(blocked)                   # a friend stands beyond it
    edge = movement({"pz4a": {"at": [28, 3], "posture": "move", "mp": 24}, "rfla": {"at": [29, 3], "fired": True}},
                    mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "overrun rfla" not in moves(edge)                      # the table edge is beyond it
    short = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 3, "steps": 2},
                      "rfla": {"at": [6, 3], "fired": True}},
                     mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "overrun rfla" not in moves(short)                     # 1 1/2 MP left, 2 needed


def test_covering_fire_by_every_unfired_firing_posture_stand():
    """Digest, *Opportunity fire*: "Opportunity fire in turn triggers covering fire: the
    moving player's unfired firing-posture stands may attack the opportunity firers at +3":
    each of them may attack (one covering attack after another), not just one attack."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [5, 0]},
                   "pz4c": {"at": [4, 1]}, "t34a": {"at": [12, 3], "facing": "w"},
                   "t34b": {"at": [12, 0], "facing": "w"}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    for m in ("step e", "fire t34a>pz4a", "fire t34b>pz4a", "go", "c:fail", "c:fail"):
        st.apply(m)
    check_reference(st)
    assert set(moves(st)) == {"fire pz4b>t34a", "fire pz4b>t34b", "fire pz4c>t34a", "fire pz4c>t34b", "pass"}
    for m in ("fire pz4b>t34a", "go", "c:fail"):
        st.apply(m)
    check_reference(st)
    # the first covering attack is over: the other stand may still cover, at another firer
    assert st.to_dict()["mover"]["step"] == "covering"
    assert set(moves(st)) == {"fire pz4c>t34a", "fire pz4c>t34b", "pass"}
    for m in ("fire pz4c>t34b", "go", "c:fail"):
        st.apply(m)
    check_reference(st)
    assert st.to_dict()["mover"]["step"] == "step" and st.current_player() == 0   # the mover goes on
    # passing ends the covering fire at once
    other = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [5, 0]},
                      "pz4c": {"at": [4, 1]}, "t34a": {"at": [12, 3], "facing": "w"}},
                     mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    for m in ("step e", "fire t34a>pz4a", "go", "c:fail", "pass"):
        other.apply(m)
    assert other.to_dict()["mover"]["step"] == "step"


def test_an_overrunner_lost_in_the_contest_is_a_wreck_beyond_the_target():
    """Digest, *Overrun*: the overrunners "pass over the target and finish adjacent"; then
    "each failure lets the defender attack on the +2 column (+3 if its AP is 5+)". Design:
    the contest is fought where the overrunner finished, so a vehicle lost in it leaves
    its wreck there."""
    st = movement({"t34a": {"at": [5, 3], "posture": "move", "mp": 28, "disorganized": True},
                   "pak": {"at": [6, 3], "fired": True}},
                  active="soviet", mover={"id": "t34a", "step": "step", "ordered": True, "stopped": False})
    for m in ("overrun pak", "c:ok", "c:fail", "crt:D"):      # the PaK holds, the T-34 wavers and is hit
        st.apply(m)
    check_reference(st)
    t34 = stand(st, "t34a")
    assert not t34["alive"] and t34["wreck"] and t34["at"] == [7, 3]


def test_covering_fire_answers_opportunity_fire_that_eliminated_the_mover():
    """Digest, *Opportunity fire*: "Opportunity fire in turn triggers covering fire: the
    moving player's unfired firing-posture stands may attack the opportunity firers at +3"
    (contract *Opportunity fire*: "covering fire by the mover's unfired firing-posture
    stands at +3"). The trigger is the opportunity fire, whatever its result: a mover
    eliminated by it is still answered, and its move then ends."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [5, 0]},
                   "t34a": {"at": [6, 8], "facing": "s"}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    play(st, "step e", "fire t34a>pz4a", "go", "c:ok", "crt:E")     # a side shot destroys the mover
    play(st, "card:3", "brk:no")                                     # its loss draws a card
    assert not stand(st, "pz4a")["alive"]
    assert st.to_dict()["mover"]["step"] == "covering" and st.current_player() == 0
    assert set(moves(st)) == {"fire pz4b>t34a", "pass"}
    play(st, "fire pz4b>t34a", "go")
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}               # 15 - 3: covering fire
    play(st, "c:fail")
    assert st.to_dict()["mover"] is None and st.current_player() == 1   # the move is over
    passed = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [5, 0]},
                       "t34a": {"at": [6, 8], "facing": "s"}},
                      mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    play(passed, "step e", "fire t34a>pz4a", "go", "c:ok", "crt:E", "card:3", "brk:no", "pass")
    assert passed.to_dict()["mover"] is None and passed.current_player() == 1


def test_close_assault_needs_a_whole_movement_point_left():
    """Digest, *Close assault*: "Only infantry and cavalry may assault, after ending
    movement adjacent in movement posture with an MP left." Half an MP (left after road
    inches at 1/2 MP) is not an MP: one MP (2 half-MP) is needed."""
    def can_assault(mp):
        st = movement({"pgra": {"at": [5, 3], "posture": "move", "mp": mp, "steps": 3},
                       "rfla": {"at": [6, 3], "fired": True}},
                      mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
        return "assault rfla" in moves(st)
    assert not can_assault(1)
    assert can_assault(2)


def test_rough_and_woods_cost_by_movement_class():
    """Contract, *Movement*: "per-inch costs by movement class (W, T, F, A) and terrain
    (design Terrain Effects Chart: clear 1, road 1/2, woods T 3 / W impassable / F 2,
    rough 1/2/3 by class ...)". RULES.md reads "rough 1/2/3 by class" as foot 1, tracked
    2, wheeled 3 (design choice). Rough lies at 5..6,1..2 and woods at 21..24,1 on the
    Introductory map: a Pz IV (tracked) pays 2 MP into rough and 3 into woods, a
    Panzergrenadier stand (foot) 1 and 2, and both 1 in the open (half-MP units)."""
    assert step_cost({"pz4a": {"at": [5, 0]}}, "pz4a", "n", 24) == 4      # rough, T 2
    assert step_cost({"pgra": {"at": [5, 0]}}, "pgra", "n", 8) == 2       # rough, F 1
    assert step_cost({"pz4a": {"at": [22, 0]}}, "pz4a", "n", 24) == 6     # woods, T 3
    assert step_cost({"pgra": {"at": [22, 0]}}, "pgra", "n", 8) == 4      # woods, F 2
    assert step_cost({"pz4a": {"at": [10, 0]}}, "pz4a", "n", 24) == 2     # clear, 1
    assert step_cost({"pgra": {"at": [10, 0]}}, "pgra", "n", 8) == 2      # clear, 1
