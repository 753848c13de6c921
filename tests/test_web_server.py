"""`ardsearch serve`: the web app's server side, driven as a browser would
(Starlette's test client over the real WebSocket protocol): every seat sees
only its view, every message is validated, and one connection cannot touch
another's game."""
import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

import ardsearch  # noqa: E402
from ardsearch.records import read_records  # noqa: E402
from ardsearch.web.server import create_app  # noqa: E402


@pytest.fixture()
def client():
    with TestClient(create_app(max_searches=1)) as c:
        yield c


def receive_until(ws, kind, pred=lambda m: True, limit=500):
    """Messages until one of `kind` satisfying `pred` (errors fail the test unless asked for)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind and pred(msg):
            return msg
        if msg["type"] == "error" and kind != "error":
            raise AssertionError(f"server error: {msg['message']}")
    raise AssertionError(f"no {kind} message")


def new_game(ws, game="ardennes", seats=("human", "random"), seed=7, **extra):
    ws.send_json({"type": "new", "game": game, "seats": list(seats), "seed": seed, **extra})
    return receive_until(ws, "state")


def my_turn(ws):
    return receive_until(ws, "state", lambda m: m["your_turn"] or m["outcome"])


def test_pages_and_catalogue(client):
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    cat = client.get("/api/games").json()
    assert [g["name"] for g in cat["games"]] == ardsearch.list_games()
    assert any(b["name"] == "mcts" for b in cat["bots"])
    assert client.get("/games/ardennes/board.js").status_code == 200
    for bad in ("/games/chess/board.js", "/static/..%2fserver.py", "/static/.hidden", "/api/rules/chess"):
        assert client.get(bad).status_code == 404, bad
    assert client.get("/api/rules/mortain").text.startswith("#")


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_a_seat_sees_only_its_view(client, name):
    """Hidden information: "the browser only ever receives the view of the seat
    it plays"."""
    with client.websocket_connect("/ws") as ws:
        snap = new_game(ws, name, seats=("random", "human"), seed=3)
        if not snap["your_turn"]:      # Mortain's default begins with the US (seat 1) setting up
            snap = my_turn(ws)
        from ardsearch.web.tables import Table
        conn_tables = [t for t in _tables(client) if t.id == snap["table"]]
        table: Table = conn_tables[0]
        truth = table.session.state
        expected = truth.view(1).to_dict() if truth.game.hidden_information else truth.to_dict()
        assert snap["view"] == json.loads(json.dumps(expected))
        assert snap["board_text"] == truth.observation_string(1)
        masked = truth.masked_history(1)
        assert [h["move"] for h in snap["history"]] == masked
        if truth.game.hidden_information:
            assert snap["view"] != json.loads(json.dumps(truth.to_dict())) or "?" not in masked


def _tables(client):
    """The server's tables (white-box, for comparing with the truth)."""
    import gc
    from ardsearch.web.tables import Table
    return [o for o in gc.get_objects() if isinstance(o, Table)]


def test_moves_undo_save_and_load(client):
    with client.websocket_connect("/ws") as ws:
        snap = my_turn(ws) if False else new_game(ws, "ardennes", seed=11)
        if not snap["your_turn"]:
            snap = my_turn(ws)
        table = snap["table"]
        before = snap["view"]
        ws.send_json({"type": "move", "table": table, "move": "t3"})    # case-insensitive
        after = receive_until(ws, "state")
        assert after["history"][-1]["move"] == "T3"
        ws.send_json({"type": "undo", "table": table})
        undone = receive_until(ws, "state", lambda m: len(m["history"]) == len(snap["history"]))
        assert undone["view"] == before
        ws.send_json({"type": "move", "table": table, "move": "T3"})
        receive_until(ws, "state")
        ws.send_json({"type": "save", "table": table})
        text = receive_until(ws, "record")["text"]
        ws.send_json({"type": "load", "record": text})
        loaded = receive_until(ws, "state", lambda m: m["table"] != table)
        assert [h["move"] for h in loaded["history"][:len(after["history"])]] == \
            [h["move"] for h in after["history"]]
        ws.send_json({"type": "jump", "table": table, "ply": 2})
        pos = receive_until(ws, "position")
        assert pos["ply"] == 2


def test_saved_record_is_a_valid_record(client, tmp_path):
    with client.websocket_connect("/ws") as ws:
        snap = new_game(ws, "mortain", seed=5)
        snap = my_turn(ws)
        ws.send_json({"type": "move", "table": snap["table"], "move": snap["legal"][0]})
        receive_until(ws, "state")
        ws.send_json({"type": "save", "table": snap["table"]})
        text = receive_until(ws, "record")["text"]
    path = tmp_path / "r.jsonl"
    path.write_text(text + "\n")
    rec = read_records(path)[0]
    assert rec.players[0]["kind"] == "human" and rec.players[1]["settings"]["preset"] == "random"


BAD_MESSAGES = [
    ("not json", "not a JSON message"),
    ('["a list"]', "JSON object"),
    ('{"type": "fly"}', "unknown message type"),
    ('{"type": "move", "table": "x"}', "missing 'move'"),
    ('{"type": "move", "table": 5, "move": "T3"}', "wrong type"),
    ('{"type": "move", "table": "nope", "move": "T3"}', "no such game on this connection"),
    ('{"type": "new", "game": "chess", "seats": ["human", "random"]}', "unknown game"),
    ('{"type": "new", "game": "ardennes", "seats": ["human", "human"]}', "one person"),
    ('{"type": "new", "game": "ardennes", "seats": ["human", "rm -rf"]}', "seats must be"),
    ('{"type": "new", "game": "ardennes", "seats": ["human"]}', "two names"),
    ('{"type": "new", "game": "ardennes", "seats": ["human", "random"], "params": {"road_length": 99}}',
     "road_length"),
    ('{"type": "new", "game": "ardennes", "seats": ["human", "random"], "evil": 1}', "unexpected key"),
    ('{"type": "new", "game": "ardennes", "seats": ["human", "random"], "seed": -1}', "seed"),
    ('{"type": "load", "record": "{\\"format\\": \\"x\\"}"}', "cannot load"),
    ('{"type": "jump", "table": "x", "ply": -3}', "ply"),
]


@pytest.mark.parametrize("raw, problem", BAD_MESSAGES)
def test_bad_messages_get_one_error_and_change_nothing(client, raw, problem):
    with client.websocket_connect("/ws") as ws:
        snap = new_game(ws, "ardennes", seed=2)
        ws.send_text(raw)
        err = receive_until(ws, "error")
        assert problem in err["message"]
        ws.send_json({"type": "jump", "table": snap["table"], "ply": 0})   # still serving
        assert receive_until(ws, "position")["ply"] == 0


def test_forged_and_illegal_moves_change_nothing(client):
    with client.websocket_connect("/ws") as ws:
        snap = my_turn_after_new(ws)
        n = len(snap["history"])
        for move in ("Z9", "T9", "obj:1", "first:A", "", "x" * 150):
            ws.send_json({"type": "move", "table": snap["table"], "move": move})
            # worded as in the terminal: the move first (a long one cut to 40), no "illegal move" prefix
            assert receive_until(ws, "error")["message"].startswith(f"{move[:40]!r} is not ")
        ws.send_json({"type": "move", "table": snap["table"], "move": snap["legal"][0]})
        assert len(receive_until(ws, "state")["history"]) == n + 1


def my_turn_after_new(ws):
    snap = new_game(ws, "ardennes", seed=4)
    return snap if snap["your_turn"] else my_turn(ws)


def test_one_connection_cannot_act_in_anothers_game(client):
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        snap = my_turn_after_new(a)
        assert len(snap["table"]) >= 24          # unguessable: 144 random bits
        for kind in ("move", "undo", "save", "hint", "close"):
            msg = {"type": kind, "table": snap["table"]}
            if kind == "move":
                msg["move"] = snap["legal"][0]
            b.send_json(msg)
            assert "no such game on this connection" in receive_until(b, "error")["message"]
        a.send_json({"type": "jump", "table": snap["table"], "ply": 0})
        assert receive_until(a, "position")["ply"] == 0


def test_not_your_move(client):
    with client.websocket_connect("/ws") as ws:
        snap = new_game(ws, "mortain", seats=("random", "human"), seed=1, )
        if not snap["your_turn"]:      # Mortain's default begins with the US (seat 1) setting up
            snap = my_turn(ws)
        ws.send_json({"type": "hint", "table": snap["table"]})
        hint = receive_until(ws, "analysis")
        assert hint["kind"] == "hint" and hint["info"]["move"] in snap["legal"]


def test_summary_lists_only_moves_the_search_visited():
    """The browser's top moves are what the search found: a child it never
    visited has a placeholder value 0, not an estimate, so it is left out;
    a bot that scores without visits sends visits null."""
    from ardsearch.web.tables import summarize
    info = {"move": "a", "wp": 0.6, "visits": {"a": 9, "b": 0}, "values": {"a": 0.2, "b": 0.0}, "pv": ["a"]}
    assert summarize(info, None)["top"] == [{"move": "a", "visits": 9, "value": 0.2, "value_text": "+0.200"}]
    info = {"move": "b", "wp": 0.6, "visits": {}, "values": {"a": 0.2, "b": 0.5}}
    assert summarize(info, None)["top"] == [{"move": "b", "visits": None, "value": 0.5, "value_text": "+0.500"},
                                            {"move": "a", "visits": None, "value": 0.2, "value_text": "+0.200"}]


def test_summary_values_read_apart_where_they_differ():
    """Stand at Mortain's moves can differ in the fifth decimal of their
    value: the browser's table shows as many decimals as tell them apart,
    so moves of very different visits do not all read "-0.531"."""
    from ardsearch.web.tables import summarize
    info = {"move": "a", "wp": 0.37, "visits": {"a": 21243, "b": 13938},
            "values": {"a": -0.5313833, "b": -0.5313964}}
    assert [t["value_text"] for t in summarize(info, None)["top"]] == ["-0.53138", "-0.53140"]


def test_summary_says_a_book_move_had_no_search():
    """A bot's move from its game's book (Mortain's historical US setup) is
    sent with book true, so the browser says so instead of an empty table."""
    import ardsearch
    from ardsearch.bots import load_bot
    from ardsearch.web.tables import summarize
    state = ardsearch.load_game("mortain").new_initial_state(seed=3)
    out = summarize(load_bot("mcts", state.game).analyze(state), state)
    assert out["book"] is True and out["move"] == "setup 2-120 0803" and out["top"] == []
    info = {"move": "a", "wp": 0.6, "visits": {"a": 9}, "values": {"a": 0.2}}
    assert summarize(info, None)["book"] is False


def test_bot_against_bot_to_watch(client):
    with client.websocket_connect("/ws") as ws:
        snap = new_game(ws, "ardennes", seats=("greedy", "random"), seed=1,
                        params={"road_length": 8, "max_rounds": 6}, audience="full", speed="instant")
        assert snap["audience"] == "full"
        end = receive_until(ws, "state", lambda m: m["outcome"] is not None, limit=5000)
        assert end["result"] != "*" and end["outcome"]["sentence"]
        ws.send_json({"type": "move", "table": snap["table"], "move": "T1"})
        assert "not your move" in receive_until(ws, "error")["message"]


def test_closing_the_tab_stops_its_search(client, monkeypatch):
    """"a closed tab stops its search": the bot's stop() is called when the
    connection goes away in the middle of a search."""
    from ardsearch import bots
    stopped = []
    real = bots.MCTSBot.stop
    monkeypatch.setattr(bots.MCTSBot, "stop", lambda self: (stopped.append(1), real(self)))
    with client.websocket_connect("/ws") as ws:
        # setup=historical: the German bot moves after the first card (the default game starts
        # with the human US player's setup, and the bot would not be thinking)
        ws.send_json({"type": "new", "game": "mortain", "params": {"setup": "historical"},
                      "seats": ["mcts-strong", "human"], "seed": 1})
        receive_until(ws, "thinking", lambda m: m["on"])
    for _ in range(100):
        if stopped:
            break
        import time
        time.sleep(0.05)
    assert stopped
