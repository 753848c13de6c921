"""Game records (docs/records.md): written, read back exactly, and refused
with one clear error naming the line and the problem when damaged."""
import json
import random

import pytest

import ardsearch
from ardsearch.records import Record, RecordError, read_record, read_records, write_record


def random_record(name, seed, limit=None):
    game = ardsearch.load_game(name)
    state = game.new_initial_state(seed=seed)
    rec = Record.start(game, seed, [{"name": "random", "kind": "bot"}, {"name": "you", "kind": "human"}])
    rng = random.Random(seed)
    while not state.is_terminal() and (limit is None or len(rec.moves) < limit):
        if state.is_chance_node():
            action = state.sample_chance()
            rec.add(state, action)
        else:
            action = rng.choice(state.legal_actions())
            rec.add(state, action, time=0.5, nodes=10, wp=0.5, eval=0.0)
        state.apply_action(action)
    rec.finish(state)
    return rec, state


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_round_trip_every_game(tmp_path, name):
    """A finished game written and read back gives the same moves, result and final position."""
    rec, final = random_record(name, seed=3)
    path = tmp_path / "game.jsonl"
    write_record(path, rec)
    back = read_record(path)
    assert back.moves == rec.moves
    assert back.result == rec.result != "*"
    assert back.outcome == rec.outcome and back.outcome is not None
    assert back.state().serialize() == final.serialize()
    assert back.state(0).serialize() == final.game.new_initial_state(seed=3).serialize()
    assert [s.serialize() for s in back.states()][-1] == final.serialize()


def test_unfinished_game_and_state_at_any_ply(tmp_path):
    rec, state = random_record("ardennes", seed=5, limit=12)
    assert rec.result == "*" and rec.outcome is None
    path = tmp_path / "g.jsonl"
    write_record(path, rec)
    back = read_record(path)
    game = ardsearch.load_game("ardennes")
    replay = game.new_initial_state(seed=5)
    for ply, m in enumerate(rec.moves):
        assert back.state(ply).serialize() == replay.serialize()
        replay.apply(m["move"])
    assert back.state(12).serialize() == state.serialize()
    with pytest.raises(ValueError, match="outside this game"):
        back.state(13)


def test_many_records_and_a_torn_last_line(tmp_path):
    """A killed writer can only cut the last line: it is ignored."""
    path = tmp_path / "many.jsonl"
    for seed in range(3):
        write_record(path, random_record("mortain", seed)[0], append=True)
    with open(path, "a") as f:
        f.write('{"format": "ardsearch-rec')
    records = read_records(path)
    assert len(records) == 3
    assert read_record(path, index=1).moves == records[1].moves
    with pytest.raises(RecordError, match="holds 3 games"):
        read_record(path)


def damaged(tmp_path, mutate):
    rec, _ = random_record("ardennes", seed=1)
    d = rec.to_json()
    mutate(d)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(random_record("ardennes", seed=2)[0].to_json()) + "\n" + json.dumps(d) + "\n")
    return path


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(version=99), r"bad.jsonl:2: record version 99 is newer .* upgrade"),
    (lambda d: d.update(format="pgn"), r":2: not an ardsearch game record"),
    (lambda d: d.update(game="chess"), r":2: cannot load game 'chess'"),
    (lambda d: d["params"].update(road_length="long"), r":2: cannot load game"),
    (lambda d: d.pop("moves"), r":2: missing 'moves'"),
    (lambda d: d.update(players=[{"name": "a"}]), r":2: 'players' must list 2 players"),
    (lambda d: d["players"][0].update(side="germans"), r":2: players\[0\].side is 'germans'"),
    (lambda d: d["players"][1].update(kind="alien"), r":2: players\[1\].kind must be one of"),
    (lambda d: d.update(result="2-0"), r":2: 'result' must be one of"),
    (lambda d: d["moves"][5].update(move="Z9"), r":2: move 6 \('Z9'\): not legal here"),
    (lambda d: d["moves"][5].update(side="chance", player=-1), r":2: move 6 .*recorded for 'chance'"),
    (lambda d: d["moves"][3].update(nodes="many"), r":2: move 4: comment 'nodes' has the wrong type"),
    (lambda d: d.update(result={"1-0": "0-1", "0-1": "1-0"}.get(d["result"], "1-0")),
     r":2: result .* does not match the final position"),
    (lambda d: d["moves"].append(dict(d["moves"][-1])), r":2: move \d+ .*the game was already over"),
    (lambda d: d.update(outcome={"winner": "italians", "reason": "x", "sentence": "y"}), r":2: outcome.winner"),
    (lambda d: d.update(seed="seven"), r":2: 'seed' must be an integer"),
])
def test_damaged_record_names_line_and_problem(tmp_path, mutate, message):
    """docs/records.md: "The first problem found is reported as one RecordError
    (a ValueError) naming the file, the line and the problem"."""
    path = damaged(tmp_path, mutate)
    with pytest.raises(RecordError, match=message):
        read_records(path)


def test_bad_json_and_unreadable_files(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("{not json}\n{}\n")
    with pytest.raises(RecordError, match=r"x.jsonl:1: not a JSON game record"):
        read_records(path)
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        read_records(path)
    with pytest.raises(RecordError, match="cannot read"):
        read_records(tmp_path / "missing.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(RecordError, match="holds no game record"):
        read_record(tmp_path / "empty.jsonl")


def test_unfinished_game_with_a_result_needs_a_termination(tmp_path):
    rec, state = random_record("ardennes", seed=4, limit=10)
    rec.finish(state, termination="timeout", returns=(-1.0, 1.0), sentence="allies ran out of time")
    path = tmp_path / "t.jsonl"
    write_record(path, rec)
    back = read_record(path)
    assert back.result == "0-1" and back.outcome["reason"] == "timeout"
    d = rec.to_json()
    d["termination"] = "normal"
    path.write_text(json.dumps(d) + "\n")
    with pytest.raises(RecordError, match="not over"):
        read_record(path)


def test_extra_keys_are_kept(tmp_path):
    rec, _ = random_record("stosstruppen", seed=2, limit=20)
    rec.extra["index"] = 7
    rec.extra["pairing"] = [0, 1]
    path = tmp_path / "e.jsonl"
    write_record(path, rec)
    back = read_record(path, index=7)
    assert back.extra == {"index": 7, "pairing": [0, 1]}
    assert back.to_json() == rec.to_json()


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_bot_games_write_valid_records(tmp_path, name):
    """match.play_game keeps a record of the game with each bot move's comments
    from the one search that chose it (docs/records.md: eval, wp, time, nodes)."""
    from ardsearch.match import play_game
    game = ardsearch.load_game(name)
    bots = [ardsearch.load_bot("greedy", game, seed=1), ardsearch.load_bot("random", game, seed=2)]
    played = play_game(game, bots, seed=11)
    rec = played.record
    assert [m["move"] for m in rec.moves] == played.moves
    assert rec.players[0]["settings"] == {"preset": "greedy", "seed": 1}
    bot_moves = [m for m in rec.moves if m["player"] >= 0]
    assert bot_moves and all("time" in m for m in bot_moves)
    assert any("wp" in m and "nodes" in m for m in bot_moves if m["player"] == 0)
    write_record(tmp_path / "m.jsonl", rec)
    back = read_record(tmp_path / "m.jsonl")
    assert back.to_json() == rec.to_json()
    assert back.result == ("1-0" if played.returns[0] > played.returns[1] else
                           "0-1" if played.returns[0] < played.returns[1] else "1/2-1/2")
