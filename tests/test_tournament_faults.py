"""Fault injection: every fault of a faulty engine is detected, counted
against it, loses it the game, and the tournament still finishes."""
import sys
import textwrap
import time
from pathlib import Path

import pytest

import ardsearch
from ardsearch.tournament import TournamentConfig, parse_bot, parse_engine, run_tournament
from ardsearch.tournament.entrants import Limits, TimeControl, apply_settings
from ardsearch.tournament.players import Clock

GAME = "ardennes(road_length=8,max_rounds=10)"
FAULTY = str(Path(__file__).resolve().parent / "engines" / "faulty.py")

# Answers the handshake and the first isready (the one after newgame), then
# never again: the referee's isready before the first go goes unanswered.
STALLER = textwrap.dedent("""
    import sys
    pings = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "ard":
            print("id name staller"); print("protocol 1"); print("ardok", flush=True)
        elif words[0] == "isready":
            pings += 1
            if pings == 1:
                print("readyok", flush=True)
        elif words[0] == "quit":
            break
""")


def faulty(mode):
    return parse_engine(f"{mode}={sys.executable} {FAULTY} {mode}")


def run(tmp_path, engines, recover=True, games=2):
    game = ardsearch.load_game(GAME)
    entrants = apply_settings([parse_bot("greedy")] + engines, [], Limits(nodes=20))
    cfg = TournamentConfig(game.name, dict(game.params), tuple(entrants), format="gauntlet", games=games,
                           seed=2, timeout=1.0)
    return run_tournament(cfg, tmp_path / "faults.jsonl", recover=recover)


def test_each_fault_is_detected_counted_and_the_tournament_finishes(tmp_path):
    staller = tmp_path / "staller.py"
    staller.write_text(STALLER)
    engines = [faulty("crash-on-go"), faulty("hang-after-go"), faulty("illegal-bestmove"),
               faulty("nonsense-bestmove"), faulty("error-on-newgame"), faulty("garbage"),
               parse_engine(f"staller={sys.executable} {staller}"), faulty("good")]
    result = run(tmp_path, engines)
    expected = {"crash-on-go": "crash", "hang-after-go": "timeout", "illegal-bestmove": "illegal",
                "nonsense-bestmove": "illegal", "error-on-newgame": "protocol", "garbage": "protocol",
                "staller": "stall"}
    assert result.stopped is None and len(result.records) == 2 * len(engines)
    faults = result.summary["faults"]
    for name, kind in expected.items():
        assert faults[name] == {kind: 2}, (name, faults[name])
    assert faults["greedy"] == {} and faults["good"] == {}
    for r in result.records:
        fault = r["fault"]
        if fault:
            assert r["termination"] == fault["kind"] == expected[fault["entrant"]]
            assert r["seats"][fault["seat"]] == fault["entrant"]
            assert r["returns"][fault["seat"]] == -1.0       # the faulting side loses
            assert fault["message"]
        else:
            assert r["termination"] == "normal"
    # the crashing engine was restarted for its second game, which it reached and crashed in again
    crashes = [r for r in result.records if r["fault"] and r["fault"]["entrant"] == "crash-on-go"]
    assert all("died during go" in r["fault"]["message"] for r in crashes)
    assert sum(result.summary["terminations"].values()) == len(result.records)
    # every line of the results file is a game record (docs/records.md) that
    # reads back in full, faults included: the faulting side loses, and says why
    from ardsearch.records import read_records
    records = read_records(tmp_path / "faults.jsonl")
    assert len(records) == len(result.records)
    for rec in records:
        fault = rec.extra["fault"]
        if fault:
            assert rec.termination == fault["kind"] and rec.outcome["reason"] == fault["kind"]
            assert rec.outcome["winner"] == rec.players[1 - fault["seat"]]["side"]
            assert fault["entrant"] in rec.outcome["sentence"]
        assert [p["name"] for p in rec.players] == rec.extra["seats"]


def test_without_recover_the_first_fault_stops_the_tournament(tmp_path):
    result = run(tmp_path, [faulty("good"), faulty("crash-on-go"), faulty("illegal-bestmove")], recover=False,
                 games=4)
    assert result.stopped == "fault"
    assert len(result.records) < 12
    assert result.records[-1]["fault"]["kind"] == "crash"


def test_a_crashing_bot_is_a_crash_not_an_exception(tmp_path, monkeypatch):
    from ardsearch.tournament import players

    class Boom:
        def analyze(self, state):
            raise RuntimeError("out of nodes")

    real = ardsearch.load_bot

    def load_bot(preset, game, **kw):
        return Boom() if preset == "mcts-fast" else real(preset, game, **kw)

    monkeypatch.setattr(players.ardsearch, "load_bot", load_bot)
    game = ardsearch.load_game(GAME)
    cfg = TournamentConfig(game.name, dict(game.params), (parse_bot("greedy"), parse_bot("mcts-fast")), seed=4)
    result = run_tournament(cfg, tmp_path / "b.jsonl", recover=True)
    assert result.summary["faults"]["mcts-fast"] == {"crash": 2}
    assert "out of nodes" in result.records[0]["fault"]["message"]


def test_clock_charges_and_falls():
    clock = Clock(Limits(tc=TimeControl(1.0, 0.5)))
    assert clock.charge(0.7) and clock.remaining == pytest.approx(0.8)
    assert not clock.charge(0.9)
    assert Clock(Limits()).charge(1e9) and Clock(Limits()).budget() is None


def test_a_flag_fall_is_a_timeout(tmp_path, monkeypatch):
    from ardsearch.tournament import players
    real = players.BotPlayer.decide

    def slow_decide(self, state, seat, clocks):
        if self.entrant.name == "slow":
            time.sleep(0.03)   # always more than its whole 0.01 s clock
        return real(self, state, seat, clocks)

    monkeypatch.setattr(players.BotPlayer, "decide", slow_decide)
    game = ardsearch.load_game(GAME)
    slow = parse_bot("slow=greedy:tc=0.01+0")
    cfg = TournamentConfig(game.name, dict(game.params), (parse_bot("random"), slow), seed=4)
    result = run_tournament(cfg, tmp_path / "t.jsonl", recover=True)
    assert result.summary["faults"]["slow"] == {"timeout": 2}
    assert all("lost on time" in r["fault"]["message"] for r in result.records)
