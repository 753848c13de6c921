"""Micro Armour: the rules contract's notation examples (shared/games/microarmour.md,
Notation: "Examples: `posture pz4a move`, `fire pz4a,pz4b>t34c`, `move t34c 12,7 14,8
15,8` (path), `face t34c ne`, `pass`; chance `c:ok` / `c:fail` / `c:n1` / `c:n20`,
`crt:E|D|(S)|S|-`, `init:G|S`, `orders:<n>`. Fixed exactly in RULES.md."). The forms
this notation writes as they are read as they are; the three it writes as several
moves (RULES.md, Notation, "The contract's examples") are refused with the moves to
write instead, and those moves do what the contract's form says."""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import GAME, check_reference, fire_phase, movement  # noqa: E402


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def test_the_single_move_examples_are_notation_as_written():
    """Contract: "`posture pz4a move`, ... `pass`; chance `c:ok` / `c:fail` / `c:n1` /
    `c:n20`, `crt:E|D|(S)|S|-`, `init:G|S`, `orders:<n>`": each names one action,
    and writing that action back gives the same text."""
    st = GAME.new_initial_state(seed=0)
    for text in ["posture pz4a move", "pass", "c:ok", "c:fail", "c:n1", "c:n20", "crt:E", "crt:D",
                 "crt:(S)", "crt:S", "crt:-", "init:G", "init:S"] + [f"orders:{n}" for n in range(6)]:
        assert st.action_to_string(st.string_to_action(text)) == text


def test_a_list_of_firers_is_refused_with_one_fire_move_each_then_go():
    """Contract: "`fire pz4a,pz4b>t34c`"; Core rules, Standard fire: "each one target
    with any number of firers". Here each firer joins with its own move and `go`
    resolves the attack; the list is refused naming those moves, and they declare
    the one attack of both firers on t34c."""
    st = fire_phase({"pz4a": {"at": [5, 3]}, "pz4b": {"at": [5, 4]}, "t34c": {"at": [12, 3], "facing": "w"}})
    before = st.to_dict()
    with pytest.raises(ardsearch.InvalidMoveError,
                       match=r"'fire pz4a>t34c', 'fire pz4b>t34c', then 'go'") as caught:
        st.apply("fire pz4a,pz4b>t34c")
    assert "see RULES.md" in str(caught.value)
    assert st.to_dict() == before                       # refused: the state is unchanged
    for text in ("fire pz4a>t34c", "fire pz4b>t34c"):
        st.apply(text)
    attack = st.to_dict()["attack"]
    assert attack["target"] == "t34c" and attack["firers"] == ["pz4a", "pz4b"]
    st.apply("go")
    check_reference(st)
    assert st.is_chance_node()                           # the first firer's 'to fire' roll


def test_a_path_is_refused_with_order_step_and_stop():
    """Contract: "`move t34c 12,7 14,8 15,8` (path)"; Core rules, Opportunity fire:
    "unfired stands in firing or fire/move posture may halt a mover" after any inch,
    so a move is taken an inch at a time: the path is refused naming `order`/`indep`,
    `step` and `stop`."""
    st = movement({"t34c": {"at": [12, 7], "posture": "move", "mp": 28}},
                  mover={"id": "t34c", "step": "step", "ordered": True, "stopped": False}, active="soviet")
    with pytest.raises(ardsearch.InvalidMoveError, match=r"'order t34c' \(or 'indep t34c'\), then 'step <dir>'"):
        st.apply("move t34c 12,7 14,8 15,8")
    offers = 0
    for text in ("step ne", "step e", "step e"):         # 12,7 -> 13,8 -> 14,8 -> 15,8
        st.apply(text)
        while st.current_player() == 0:                 # the German GHQ may halt it: it lets it go
            assert "pass" in [st.action_to_string(a) for a in st.legal_actions()]
            st.apply("pass")
            offers += 1
    assert offers > 0                                   # why a path is not one move
    assert stand(st, "t34c")["at"] == [15, 8]
    check_reference(st)


def test_face_is_refused_with_stop_ending_the_move():
    """Contract: "`face t34c ne`"; RULES.md, Movement: "`stop <dir>` ends the move
    facing `dir` (facing is free while moving)". `face` is refused naming `stop`,
    and `stop ne` leaves the stand facing north-east."""
    st = movement({"t34c": {"at": [12, 7], "posture": "move", "mp": 28, "facing": "w"}},
                  mover={"id": "t34c", "step": "step", "ordered": True, "stopped": False}, active="soviet")
    with pytest.raises(ardsearch.InvalidMoveError, match=r"'stop ne' while t34c is moving"):
        st.apply("face t34c ne")
    st.apply("stop ne")
    assert stand(st, "t34c")["facing"] == "ne"
    check_reference(st)


def test_other_bad_text_gets_no_hint():
    """Text that is none of the three forms keeps the plain error (no invented hint)."""
    st = GAME.new_initial_state(seed=0)
    with pytest.raises(ardsearch.InvalidMoveError) as caught:
        st.apply("fire at will")
    assert str(caught.value).startswith("'fire at will' is not microarmour notation (see RULES.md; legal here:")
