"""Sessions (people and bots at one table) and the terminal front end."""
import functools
import io

import pytest

import ardsearch
from ardsearch.records import read_record
from ardsearch.session import HUMAN, Session, group_moves, parse_move, top_moves, value_texts
from ardsearch.terminal import TerminalPlay, legend_text, rules_text

FAST = {"simulations": 100, "time_limit": None}


def human_vs_random(name, seed=5, human=0):
    seats = [HUMAN, "random"] if human == 0 else ["random", HUMAN]
    return Session(ardsearch.load_game(name), seats, seed)


def play_first_moves(session, human, count):
    """The person plays their first legal move `count` times."""
    for _ in range(count):
        list(session.advance())
        if session.over():
            return
        session.move(session.state.action_to_string(session.state.legal_actions()[0]))


def first_moves_both(session, count):
    """Both seats (people) play their first legal move, `count` decisions in all."""
    for _ in range(count):
        list(session.advance())
        if session.over():
            return
        session.move(session.state.action_to_string(session.state.legal_actions()[0]))


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_undo_restores_the_decision_point_and_keeps_the_dice(name):
    """Undo takes back the person's move and everything after it; chance is
    keyed to the event's number, so playing the same moves again gives the
    same chance outcomes (an undo cannot re-roll)."""
    s = Session(ardsearch.load_game(name), [HUMAN, HUMAN], seed=5)
    first_moves_both(s, 6)
    list(s.advance())
    if s.over():
        pytest.skip("game over too soon")
    me = s.state.current_player()
    before = s.state.serialize()
    moves_before = [m["move"] for m in s.record.moves]
    s.move(s.state.action_to_string(s.state.legal_actions()[-1]))
    first_moves_both(s, 8)
    after_first = [m["move"] for m in s.record.moves]
    while len(s.record.moves) > len(moves_before):   # back to `before`, one of my moves at a time
        s.undo(me)
    assert s.state.serialize() == before
    assert [m["move"] for m in s.record.moves] == moves_before
    s.move(s.state.action_to_string(s.state.legal_actions()[-1]))
    first_moves_both(s, 8)
    assert [m["move"] for m in s.record.moves] == after_first


def test_undo_with_nothing_to_undo():
    s = human_vs_random("ardennes")
    list(s.advance())
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo(0)


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_save_and_load_goes_on_identically(tmp_path, name):
    """A loaded game is the same position with the same chance to come (the
    dice are keyed to the event's number); bots are rebuilt from their settings."""
    s = Session(ardsearch.load_game(name), [HUMAN, HUMAN], seed=9)
    first_moves_both(s, 10)
    path = tmp_path / "save.jsonl"
    s.save(path)
    loaded = Session.load(path)
    assert loaded.state.serialize() == s.state.serialize()
    first_moves_both(s, 10)
    first_moves_both(loaded, 10)
    assert loaded.state.serialize() == s.state.serialize()
    assert [m["move"] for m in loaded.record.moves] == [m["move"] for m in s.record.moves]
    b = human_vs_random(name, seed=9)
    play_first_moves(b, 0, 2)
    b.save(path)
    again = Session.load(path)
    assert [x.kind for x in again.seats] == [HUMAN, "bot"]
    assert again.seats[1].name == "random" and again.seats[1].settings == b.seats[1].settings
    assert again.state.serialize() == b.state.serialize()


@pytest.mark.parametrize("name", [g for g in ardsearch.list_games()
                                  if ardsearch.load_game(g).hidden_information])
def test_hint_sees_only_the_persons_view(name):
    """The hint searches the person's own view: two states that differ only in
    what the person cannot see get the same advice."""
    s = human_vs_random(name, seed=3)
    play_first_moves(s, 0, 2)
    list(s.advance())
    if s.over():
        pytest.skip("game over too soon")
    a = s.hint(0, "mcts", **FAST)
    other = s.state.resample_from_infostate(0, seed=77)
    s.state = other
    b = s.hint(0, "mcts", **FAST)
    assert a["move"] == b["move"] and a["visits"] == b["visits"]


def test_parse_move_is_case_insensitive_where_unambiguous():
    s = human_vs_random("ardennes", seed=1)
    list(s.advance())
    state = s.state
    assert parse_move(state, "t3") == state.string_to_action("T3")
    assert parse_move(state, "  T3 ") == state.string_to_action("T3")
    with pytest.raises(ValueError):
        parse_move(state, "Q1")
    # in Ardennes "p3" (infantry? no: lower case is another move kind) must not
    # silently become "P3" when both spellings are legal
    notes = [state.action_to_string(a) for a in state.legal_actions()]
    twins = [n for n in notes if n.lower() != n and n.lower() in notes]
    for n in twins:
        assert parse_move(state, n.lower()) == state.string_to_action(n.lower())


def test_a_refused_move_changes_nothing():
    """Notation of a move that is not legal here (a chance outcome, the other
    side's move) is refused and leaves the session, its record included, as it was."""
    s = human_vs_random("ardennes", seed=4)
    list(s.advance())
    before = (s.state.serialize(), len(s.record.moves))
    for text in ("obj:1", "first:A", "Z9", ""):
        with pytest.raises(ValueError):
            s.move(text)
        assert (s.state.serialize(), len(s.record.moves)) == before
    assert len(s.state.masked_history(0)) == len(s.record.moves)


def test_group_moves():
    assert group_moves(["T1", "T2", "M1", "pass"]) == [("T", ["T1", "T2"]), ("M", ["M1"]), ("pass", ["pass"])]
    assert group_moves(["2-120-0802", "2-120-0803", "td-a-0503", "stack 1107"]) == [
        ("2-120", ["2-120-0802", "2-120-0803"]), ("td-a", ["td-a-0503"]), ("stack", ["stack 1107"])]


def scripted(session, human, lines):
    out = io.StringIO()
    feed = iter(lines)
    tp = TerminalPlay(session, human, lambda: next(feed, None),
                      functools.partial(print, file=out), hint_preset="mcts-fast")
    code = tp.run()
    return code, out.getvalue(), tp


def test_terminal_commands():
    s = Session(ardsearch.load_game("ardennes"), [HUMAN, "random"], seed=42)
    code, out, tp = scripted(s, 0, ["help", "moves", "moves t", "t3", "undo", "T3", "history",
                                    "legend", "bogus", "quit"])
    assert code == 0
    assert "seed 42" in out and "--seed 42" in out
    assert "undo" in out and "took back 1 event" in out
    assert "  T: T1, T2" in out
    assert "legal moves" in out
    assert "not ardennes notation" in out or "not legal" in out
    assert "4. " in out   # history lists the events


def test_terminal_moves_list_says_how_many_more(monkeypatch):
    import ardsearch.terminal as terminal
    monkeypatch.setattr(terminal, "MOVES_SHOWN", 5)
    s = Session(ardsearch.load_game("ardennes"), [HUMAN, "random"], seed=42)
    _, out, _ = scripted(s, 0, ["moves", "quit"])
    n = len([a for a in s.state.legal_actions()])
    assert f"... and {n - 5} more" in out


def test_terminal_plays_to_the_end_and_explains(tmp_path):
    s = Session(ardsearch.load_game("ardennes(road_length=8)"), [HUMAN, "random"], seed=4)
    # the person always plays the first legal move
    class Feed:
        def __call__(self):
            st = s_ref[0].state
            return st.action_to_string(st.legal_actions()[0])
    s_ref = [s]
    out = io.StringIO()
    tp = TerminalPlay(s, 0, Feed(), functools.partial(print, file=out))
    assert tp.run() == 0
    text = out.getvalue()
    assert "game over:" in text
    assert s.record.result != "*"


def test_terminal_save_and_load(tmp_path):
    path = tmp_path / "g.jsonl"
    s = Session(ardsearch.load_game("mortain"), [HUMAN, "random"], seed=8)
    _, out, _ = scripted(s, 0, ["pass", f"save {path}", "quit"])
    assert f"to {path}" in out
    fresh = Session(ardsearch.load_game("ardennes"), [HUMAN, "random"], seed=1)
    _, out, tp = scripted(fresh, 0, [f"load {path}", "quit"])
    assert "loaded" in out and tp.session.game.name == "mortain"
    _, out, _ = scripted(fresh, 0, [f"load {tmp_path / 'nope.jsonl'}", "quit"])
    assert "cannot load" in out


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_rules_text_from_the_package(name):
    assert rules_text(name).startswith("#")
    assert legend_text(name).startswith("## Reading the board")


def test_terminal_refused_move_names_the_moves_command_once():
    """A move written in notation that is not legal here gets one line saying
    so and where the legal moves are (`moves`), not the same pointer twice."""
    s = human_vs_random("ardennes", seed=4)
    code, out, _ = scripted(s, 0, ["obj:1", "quit"])
    line = next(x for x in out.splitlines() if "'obj:1'" in x)
    assert line.count("`moves`") == 1
    assert "not a legal move here" in line


def test_top_moves_leaves_out_moves_the_search_never_visited():
    """A hint lists what the search found: a child it never visited holds a
    placeholder value 0, not an estimate (the terminal once showed
    `h2-e1  visits 0  value +0.000` under the best move, as if rated level)."""
    info = {"visits": {"a": 10, "b": 0, "c": 3, "d": 3}, "values": {"a": -0.2, "b": 0.0, "c": 0.1, "d": 0.4}}
    assert top_moves(info, 5) == [("a", 10, -0.2), ("d", 3, 0.4), ("c", 3, 0.1)]
    assert top_moves(info, 1) == [("a", 10, -0.2)]
    greedy = {"visits": {}, "values": {"x": 0.1, "y": 0.3}}   # scores every move, no visits
    assert top_moves(greedy, 5) == [("y", None, 0.3), ("x", None, 0.1)]
    assert top_moves({"visits": {}, "values": {}}, 5) == []


def test_terminal_hint_shows_only_searched_moves():
    """In Stosstruppen a short search admits few of its 250-odd first moves
    (progressive widening): the hint shows those it visited, never a 0-visit line."""
    s = Session(ardsearch.load_game("stosstruppen"), [HUMAN, "random"], seed=763473)
    list(s.advance())
    assert len(s.state.legal_actions()) > 250
    out = io.StringIO()
    feed = iter(["hint", "quit"])
    TerminalPlay(s, 0, lambda: next(feed, None), functools.partial(print, file=out)).run()   # the `mcts` hint
    out = out.getvalue()
    rows = [line.split() for line in out.splitlines() if " visits " in line]
    assert rows, out
    assert all(int(r[2]) > 0 for r in rows), out


def test_value_texts_use_the_decimals_that_tell_values_apart():
    """A hint lists each move's value; values that differ must read
    differently (up to six decimals), with no more decimals than that."""
    assert value_texts([0.2, -0.1]) == ["+0.200", "-0.100"]
    assert value_texts([0.25, 0.25]) == ["+0.250", "+0.250"]
    assert value_texts([-0.5313833, -0.5313964]) == ["-0.53138", "-0.53140"]
    assert value_texts([-0.5313833, -0.5313964, -0.5313996]) == ["-0.531383", "-0.531396", "-0.531400"]
    assert value_texts([0.1, 0.1 + 1e-9]) == ["+0.100", "+0.100"]   # beyond six decimals: level
    assert value_texts([]) == []


def test_terminal_hint_values_read_apart(monkeypatch):
    """The hint's lines tell apart moves whose values differ only in the
    fifth decimal (as Stand at Mortain's often do), rather than printing
    "value -0.531" on every line."""
    s = Session(ardsearch.load_game("mortain"), [HUMAN, "random"], seed=3)
    list(s.advance())
    info = {"move": "a", "wp": 0.37, "visits": {"a": 21243, "b": 13938},
            "values": {"a": -0.5313833, "b": -0.5313964}, "pv": []}
    monkeypatch.setattr(s, "hint", lambda seat, preset: info)
    out = io.StringIO()
    feed = iter(["hint", "quit"])
    TerminalPlay(s, 0, lambda: next(feed, None), functools.partial(print, file=out)).run()
    lines = [line.split() for line in out.getvalue().splitlines() if " visits " in line]
    assert [(r[0], r[-1]) for r in lines] == [("a", "-0.53138"), ("b", "-0.53140")]


def test_a_persons_move_records_the_time_they_took(monkeypatch):
    """docs/records.md: a move's `time` is the seconds spent. A person's is
    from the position reaching them to their move (it was written 0.0)."""
    import ardsearch.session as session_module
    now = [100.0]
    monkeypatch.setattr(session_module.time, "perf_counter", lambda: now[0])
    s = Session(ardsearch.load_game("ardennes(road_length=8,max_rounds=6)"), [HUMAN, HUMAN], seed=4)
    now[0] = 103.0
    while s.to_move() == -1:
        s.step()                         # the coin flip: the position reaches the person at 103.0
    now[0] = 110.25
    s.move(s.state.action_to_string(s.state.legal_actions()[0]))
    assert s.record.moves[-1]["time"] == 7.25
    now[0] = 111.0
    s.move(s.state.action_to_string(s.state.legal_actions()[0]))
    assert s.record.moves[-1]["time"] == 0.75


def test_terminal_hint_from_the_book_says_so():
    """A hint the bot takes from its game's book (Mortain's US setup: the
    historical one) is not a search: the terminal says where it came from
    rather than listing visits it never made."""
    s = Session(ardsearch.load_game("mortain"), ["random", HUMAN], seed=3)
    list(s.advance())
    out = io.StringIO()
    feed = iter(["hint", "quit"])
    TerminalPlay(s, 1, lambda: next(feed, None), functools.partial(print, file=out)).run()
    out = out.getvalue()
    assert "hint: setup 2-120 0803" in out and "from the game's book, not a search" in out, out
    assert " visits " not in out
