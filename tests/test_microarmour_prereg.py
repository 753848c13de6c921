"""Micro Armour: pre-registered target points as hidden information (RULES.md,
Indirect artillery, Pre-registered target points).

Contract (shared/games/microarmour.md, Extended rules): "... mission types and
smoke missions, pre-registered targets as hidden information". Digest, Cohesion:
force cohesion sets "how many dummy minefields and pre-registered targets a force
gets"; Joint Plot: "Players plot the points of impact for artillery fire to be in
following turns. They also record 'calls' for pre-registered indirect artillery
fire"; Indirect artillery: "Mission types are support, pre-registered (-2, 1-turn
call), ...".

The barrage scenario: the Germans record 2 points, the Soviets 1; the file's points
(13,10 and 22,16; 16,10) are the bots' book.
"""
from __future__ import annotations

import copy
import os
import random
import sys
from collections import Counter

import pytest

import ardsearch
from ardsearch import _core
from ardsearch.random_walk import random_walk
from ardsearch.bots import load_bot
from ardsearch.games.microarmour import book

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_artillery import GAME, _refusal, battery, landing, position  # noqa: E402
from test_microarmour_rules import chances, check_reference, moves, play  # noqa: E402

def recorded(*points):
    """The barrage start with the German points and then the Soviet one recorded."""
    st = GAME.new_initial_state(seed=0)
    return play(st, *(f"prereg {p}" for p in points))


def prereg(state, side):
    return state.to_dict()["artillery"]["prereg"][side]


# ------------------------------------------------------------------ recording before turn 1
def test_each_side_records_its_points_secretly_before_turn_1():
    """Digest, Cohesion: force cohesion sets "how many ... pre-registered targets a
    force gets" (cohesion 15: two, 12: one; charts.toml); contract: "pre-registered
    targets as hidden information". Before turn 1 each side records its own, the
    German side first, one decision a point; then turn 1 opens with initiative."""
    st = GAME.new_initial_state(seed=0)
    check_reference(st)
    assert st.current_player() == 0 and st.to_dict()["turn"] == 1
    assert all(m.startswith("prereg ") for m in moves(st))
    assert len(moves(st)) == 70                   # every plot cell of the 30" x 20" table: 10 x 7 cells
    play(st, "prereg 13,10")
    assert st.current_player() == 0               # the Germans' second point
    play(st, "prereg 22,16")
    assert st.current_player() == 1               # the Soviets' one point
    play(st, "prereg 16,10")
    assert st.is_chance_node() and set(chances(st)) == {"init:G", "init:S"}
    assert [p["at"] for p in prereg(st, "german")] == [[13, 10], [22, 16]]
    assert [p["at"] for p in prereg(st, "soviet")] == [[16, 10]]


def test_the_recording_counts_from_the_rule():
    """Counted from the rule, not from a model: the Germans' two points are 70 cells
    then 69 (not their first), the Soviets' one 70, then the initiative roll's two
    outcomes."""
    st = GAME.new_initial_state(seed=0)
    assert _core.perft(st, 1) == 70 and _core.perft(st, 2) == 70 * 69
    st = recorded("13,10", "22,16")
    assert _core.perft(st, 1) == 70 and _core.perft(st, 2) == 70 * 2


def test_a_point_is_a_plot_cell_and_a_side_records_a_cell_once():
    """RULES.md (design): a point is the aiming square of a plot cell, as every plot
    (Joint Plot: "plot the points of impact"), anywhere on the table; two points of one
    side on one cell would be one point. Another side may use the same cell."""
    st = play(GAME.new_initial_state(seed=0), "prereg 13,10")
    assert "prereg 13,10" not in moves(st) and len(moves(st)) == 69
    with pytest.raises(ValueError, match="14,9 is not a plot cell's aiming square"):
        st.apply("prereg 14,9")                  # not a cell's aiming square
    with pytest.raises(ValueError, match="13,10 is already one of your pre-registered points"):
        st.apply("prereg 13,10")
    with pytest.raises(ValueError, match="before turn 1 each side records its pre-registered target points"):
        st.apply("pass")
    play(st, "prereg 22,16")
    assert "prereg 13,10" in moves(st)            # the Soviets may register the same cell
    play(st, "prereg 13,10", "init:G")
    with pytest.raises(ValueError, match="pre-registered points are recorded only before turn 1 begins"):
        st.apply("prereg 4,4")


def test_no_recording_in_a_scenario_without_points():
    """Digest, Cohesion: cohesion sets "how many ... pre-registered targets a force
    gets", and a scenario grants them (RULES.md): a side whose scenario lists no
    points records none, so the Introductory starts with initiative, as before."""
    st = ardsearch.load_game("microarmour").new_initial_state(seed=0)
    assert st.is_chance_node() and set(chances(st)) == {"init:G", "init:S"}
    comb = ardsearch.load_game("microarmour", scenario="combined").new_initial_state(seed=0)
    assert comb.to_dict()["artillery"]["prereg"] == {"german": [], "soviet": []}


# ------------------------------------------------------------------ hidden from the opponent
def test_the_opponents_points_are_hidden_in_a_view_and_its_history():
    """Contract: "pre-registered targets as hidden information". The Soviet view reads
    the German points as hidden, their recording as `?`; the German view reads its own."""
    st = GAME.new_initial_state(seed=0)
    view = st.view(1)
    for move, hidden in (("prereg 13,10", True), ("prereg 22,16", True), ("prereg 16,10", False)):
        st.apply(move)
        view.apply("?" if hidden else move)
        assert view.to_dict() == st.view(1).to_dict()
    assert [p["at"] for p in prereg(view, "german")] == ["hidden", "hidden"]
    assert [p["at"] for p in prereg(view, "soviet")] == [[16, 10]]
    assert [p["at"] for p in prereg(st.view(0), "german")] == [[13, 10], [22, 16]]
    assert [p["at"] for p in prereg(st.view(0), "soviet")] == ["hidden"]
    assert "13,10" not in str(st.view(1)) and "22,16" not in str(st.view(1))


def test_a_resample_deals_the_hidden_points_on_distinct_cells_all_alike():
    """RULES.md (design): each hidden point of the opponent is any cell that side has
    no other point on, all equally likely (no model of where a player registers)."""
    st = recorded("13,10", "22,16", "16,10")
    seen = Counter()
    for seed in range(700):
        pts = [p["at"] for p in prereg(st.resample_from_infostate(1, seed=seed), "german")]
        assert pts[0] != pts[1] and all(isinstance(p, list) for p in pts)
        seen[tuple(pts[0])] += 1
        assert prereg(st.resample_from_infostate(1, seed=seed), "soviet")[0]["at"] == [16, 10]
    assert len(seen) > 60 and max(seen.values()) < 30     # 70 cells, 10 a cell expected


# ------------------------------------------------------------------ a call lands: the point is seen
def test_a_call_on_a_point_lands_and_shows_the_point_to_both():
    """Joint Plot: players "record 'calls' for pre-registered indirect artillery fire";
    the fire lands where it was aimed, so the point is seen by both as it lands: a
    public chance event `prereg x,y` (probability 1 in a full state) before the 'to
    arrive' roll, once a point; the view that had not seen it learns it there."""
    st = position({}, batteries=landing("lefh", {"kind": "he", "target": [13, 10], "prereg": 1}),
                  phase="artillery", turn=3, artillery={"current": "lefh", "step": "reveal"})
    view = st.view(1)
    assert chances(st) == {"land:he pre1": 1.0}
    play(st, "land:he pre1")
    view.apply("land:he pre1")
    assert chances(st) == {"prereg 13,10": 1.0}
    assert st.to_dict()["artillery"]["step"] == "show_point"
    seen = chances(view)                          # the Soviets have not seen it: any cell
    assert len(seen) == 70 and all(p == pytest.approx(1 / 70) for p in seen.values())
    assert battery(view, "lefh")["mission"] == {"kind": "he", "target": None, "prereg": 1}
    play(st, "prereg 13,10")
    view.apply("prereg 13,10")
    assert view.to_dict() == st.view(1).to_dict()
    assert prereg(view, "german") == [{"at": [13, 10], "shown": True}, {"at": "hidden", "shown": False}]
    assert set(chances(st)) == {"c:ok", "c:fail"}      # then the 'to arrive' roll (-2: RULES.md)


def test_a_second_call_on_a_seen_point_shows_nothing_new():
    """Digest: the battery's fire needs "'to arrive' and 'to deviate' cohesion rolls";
    RULES.md (design): a point seen once stays seen, so the next call on it goes
    straight to 'to arrive'."""
    st = position({}, batteries=landing("lefh", {"kind": "he", "target": [13, 10], "prereg": 1}),
                  phase="artillery", turn=3, artillery={"current": "lefh", "step": "reveal"})
    d = st.to_dict()
    d["artillery"]["prereg"]["german"][0]["shown"] = True
    st = GAME.state_from_dict(d)
    play(st, "land:he pre1")
    assert set(chances(st)) == {"c:ok", "c:fail"}
    assert prereg(st.view(1), "german")[0] == {"at": [13, 10], "shown": True}


def test_a_call_is_offered_for_each_recorded_point_without_line_of_sight():
    """Digest: pre-registered fire is a "1-turn call"; RULES.md: a call needs a live FO
    or HQ, no line of sight. The recorded points are the calls offered."""
    st = position({"pgra": {"at": [1, 1]}}, phase="plot", turn=2)
    assert {"plot he pre1", "plot he pre2"} <= set(moves(st))
    play(st, "plot he pre2")
    assert battery(st, "lefh")["lands"] == 3 and battery(st, "lefh")["mission"]["target"] == [22, 16]


# ------------------------------------------------------------------ structure and bad input
def test_validate_refuses_points_that_break_the_recording():
    """Deserializing or loading a dict with impossible points raises, naming why."""
    base = recorded("13,10", "22,16", "16,10").to_dict()
    cases = [
        (lambda d: d["artillery"]["prereg"]["german"].__setitem__(1, {"at": [13, 10], "shown": False}),
         "two pre-registered points of one side on one cell"),
        (lambda d: d["artillery"]["prereg"]["german"].__setitem__(0, {"at": "hidden", "shown": False}),
         "hidden pre-registered point outside the opponent's view"),
        (lambda d: d.update(turn=2, phase="posture") or d["artillery"]["prereg"]["soviet"].__setitem__(
            0, {"at": None, "shown": False}), "not recorded after turn 1 began"),
        (lambda d: d["artillery"]["prereg"]["german"].__setitem__(0, {"at": None, "shown": False}),
         "recorded out of order"),
        (lambda d: d["artillery"]["prereg"]["german"].__setitem__(0, {"at": None, "shown": True}),
         "seen before it was recorded"),
    ]
    for change, words in cases:
        d = copy.deepcopy(base)
        change(d)
        with pytest.raises(ValueError, match=words):
            GAME.state_from_dict(d)
    d = copy.deepcopy(base)
    d["artillery"]["prereg"]["german"][0]["at"] = [14, 9]
    with pytest.raises(ValueError, match="the aiming square of a plot cell"):
        GAME.state_from_dict(d)
    d["artillery"]["prereg"]["german"] = [{"at": [13, 10]}] * 3
    with pytest.raises(ValueError, match="at most 2 points"):
        GAME.state_from_dict(d)


def test_a_dict_written_before_the_recording_existed_gets_the_scenarios_points():
    """A dict without artillery.prereg (written before points were recorded in play)
    past the start: the scenario file's points, as they then were."""
    d = position({}, phase="posture", turn=2).to_dict()
    del d["artillery"]["prereg"]
    st = GAME.state_from_dict(d)
    assert [p["at"] for p in prereg(st, "german")] == [[13, 10], [22, 16]]
    assert [p["at"] for p in prereg(st, "soviet")] == [[16, 10]]


def test_a_scenario_side_with_points_needs_a_battery():
    """Digest: "Indirect missions are plotted by an FO or HQ"; a point is a battery's
    target, so a side with points and no [[battery]] is refused on load with one line
    naming the key (issue 11, Bad input: "refused on load with a one-line error naming
    the file, the key and the reason")."""
    msg, name = _refusal('title = "x"\nbase = "introductory"\n[side.german]\nprereg = [[13, 10]]\n')
    assert "\n" not in msg and name in msg and "side.german.prereg" in msg and "without a [[battery]]" in msg


# ------------------------------------------------------------------ the bots' book
def test_the_bots_record_the_scenario_files_points_from_their_book():
    """RULES.md (design): the searching bots record the file's points (their book),
    as Mortain's bots set up historically; off the book they search."""
    st = GAME.new_initial_state(seed=0)
    bot = load_bot("mcts", GAME, simulations=50)
    for want in ("prereg 13,10", "prereg 22,16", "prereg 16,10"):
        info = bot.analyze(st)
        assert info["book"] and info["move"] == want and info["nodes"] == 0
        st.apply(want)
    assert book(st) is None                       # turn 1 has begun
    st = play(GAME.new_initial_state(seed=0), "prereg 1,1")
    assert book(st) is None                       # a person recorded off the book: the bot searches
    assert not bot.analyze(st).get("book")


@pytest.mark.parametrize("seed", (0, 3, 6, 7, 9, 11))
def test_views_follow_random_barrage_games_event_by_event(seed):
    """Each player's view, built from its masked history alone (`?` where it did
    not see), equals observe() of the full state at every step of a random game:
    recordings, hidden calls, their landing and the `prereg x,y` that shows a
    point (RULES.md, Hidden information). Seeds 3, 6, 7, 9 and 11 show a point
    (3 two), seed 0 calls one that does not land."""
    game = ardsearch.load_game("microarmour", scenario="barrage", deployment="close", turns=5)
    st = game.new_initial_state(seed=seed)
    views = [st.view(0), st.view(1)]
    rng = random.Random(seed)
    while not st.is_terminal():
        random_walk(st, 1, rng)
        for p in (0, 1):
            views[p].apply(st.masked_history(p)[-1])
            assert views[p].to_dict() == st.view(p).to_dict(), (seed, len(st.history_strings()), p)
    shows = sum(1 for note in st.history_strings()[3:] if note.startswith("prereg "))
    assert shows == {0: 0, 3: 2}.get(seed, 1)


def test_the_protocol_engine_records_the_book_points_on_its_own_view():
    """docs/protocol.md: a move of the game's book is answered as the searching bots
    play it; contract: "pre-registered targets as hidden information". On the Soviet
    view, after the Germans' two recordings it did not see (`? ?`), the engine records
    the file's Soviet point from the book, with no search."""
    from test_protocol_helpers import InProcess, go_book_move, require_search
    require_search()
    e = InProcess()
    e.run("newgame microarmour scenario=barrage", "position startpos moves ? ?")
    go_book_move(e, "go nodes 200", "prereg~16,10")
    e.run("position startpos moves prereg~4,4")            # the Germans off their book: the engine searches
    out = e.run("go nodes 200")
    assert not any("book move" in line for line in out) and out[-1].startswith("bestmove prereg~"), out
