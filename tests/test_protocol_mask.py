"""Hidden information: the position sent to a seat masks exactly what that
seat did not see, and the engine's answer cannot depend on hidden events."""
from __future__ import annotations


from test_protocol_helpers import recording_engine, require_search

from ardsearch.protocol.client import Limit


def game_with(first: str, objectives: tuple[str, str], moves=()):
    import ardsearch

    state = ardsearch.load_game("ardennes").new_initial_state(seed=9)
    state.seed = 9
    for token in (first,) + objectives + tuple(moves):
        state.apply(token)
    return state


engine = recording_engine(timeout=20)


def positions(engine):
    return [s for s in engine.sent if s.startswith("position ")]


def test_masked_history_marks_exactly_the_unseen_events():
    require_search()
    state = game_with("first:A", ("obj:3", "obj:5"), ["T4", "P2"])
    assert state.masked_history(0) == ["first:A", "obj:3", "?", "T4", "P2"]
    assert state.masked_history(1) == ["first:A", "?", "obj:5", "T4", "P2"]


def test_position_sent_to_each_seat_hides_the_other_objective(engine):
    for seat_moves, seat in (((), 0), (("pass",), 1)):
        state = game_with("first:A", ("obj:3", "obj:5"), seat_moves)
        assert state.current_player() == seat
        engine.sent = []
        engine.play(state, Limit(nodes=50))
        line = positions(engine)[-1].split()
        events = line[line.index("moves") + 1:]
        history = state.history_strings()
        hidden = {i for i, e in enumerate(state.masked_history(seat)) if e == "?"}
        assert hidden == ({2} if seat == 0 else {1})
        assert [i for i, e in enumerate(events) if e == "?"] == sorted(hidden)
        assert all(events[i] == history[i] for i in range(len(history)) if i not in hidden)


def test_search_result_is_identical_when_only_hidden_events_differ(engine):
    a = game_with("first:A", ("obj:3", "obj:5"), ["T4", "pass", "P2"])
    b = game_with("first:A", ("obj:3", "obj:8"), ["T4", "pass", "P2"])
    assert a.current_player() == b.current_player() == 1
    c = game_with("first:A", ("obj:1", "obj:5"), ["T4", "pass", "P2"])  # differs for seat 1? no: obj of seat 0
    results = []
    for state in (a, b, c):
        engine.sent = []
        info = engine.analyse(state, Limit(nodes=400))
        results.append((info["bestmove"], info["nodes"], positions(engine)[-1]))
    # a and b differ in the Germans' own card: seat 1 sees it, so a != b is allowed;
    # a and c differ only in the Allies' card, hidden from seat 1: identical answers.
    assert results[0] == results[2]
    assert results[0][2] != results[1][2]
