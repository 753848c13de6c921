"""Micro Armour board text (RULES.md "Reading the board" and "Board text"): every map
symbol means one thing. An impact marker is `X`; a dummy marker in the full state is
`D` (German) / `d` (Soviet); a view shows an unspotted marker as `?`, whatever is under it.
Positions start from the scenarios' own set-ups (scenarios/ambush.toml, the artillery
positions of tests/test_microarmour_artillery.py)."""
from __future__ import annotations

import os
import sys

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_artillery import battery, he, landing, play, position  # noqa: E402

AMB = ardsearch.load_game("microarmour", scenario="ambush")


def square(text, x, y, height):
    """The map character at (x, y) of a board text (row 1 is y = height - 1)."""
    return text.splitlines()[height - y][3 + x]


def test_a_dummy_marker_is_d_and_never_x():
    """Digest, Set-up: "dummy stands" are set up hidden with the real ones. In the full
    state each Soviet dummy of the ambush is drawn `d` on its square (a German one
    would be `D`), never `X`, which is only an impact marker; the German view shows
    the same squares as `?` (a marker, not what is under it)."""
    st = AMB.new_initial_state(seed=0)
    d = st.to_dict()
    h = next(int(line[:2]) for line in str(st).splitlines()[1:2]) + 1     # the top row's y
    dummies = [s for s in d["stands"] if s["dummy"]]
    assert len(dummies) == 1 and all(s["side"] == "soviet" for s in dummies)     # m2 (m5, m8 T-34s since session 10)
    full, view = str(st), st.observation_string(0)
    for s in dummies:
        x, y = s["at"]
        assert square(full, x, y, h) == "d"
        assert square(view, x, y, h) == "?"
    board = full.splitlines()[1:1 + h]
    assert not any("X" in row[3:] or "x" in row[3:] for row in board)


def test_an_impact_marker_is_x_and_no_stand_letter_is():
    """Digest, Artillery: "Each battery section places one 1" impact marker": the
    lefh's closed sheaf lands its three markers on 10,7, drawn `X` there; no stand or
    dummy letter on the board is `X`."""
    st = position({}, batteries=landing("lefh", he(10, 7)), phase="artillery", turn=3,
                  artillery={"current": "lefh", "step": "deviate"})
    play(st, "c:ok")
    assert battery(st, "lefh")["markers"] == [[10, 7]] * 3
    text = str(st)
    assert square(text, 10, 7, 20) == "X"
    assert sum(row[3:].count("X") for row in text.splitlines()[1:21]) == 1
