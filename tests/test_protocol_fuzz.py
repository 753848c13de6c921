"""Protocol fuzzing: junk, truncated, oversized and binary lines and random
command sequences against one engine process. The engine never dies, prints
only protocol lines, and answers each bad line with exactly one error.

The engine is fuzzed on Clash of the Ardennes; ARDSEARCH_FUZZ_GAMES, a
comma-separated list of games or "all" (the sanitizer run, tools/sanitize.py),
fuzzes one engine process per game instead."""
from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_protocol_helpers import ENGINE_CMD, require_search

import ardsearch
from ardsearch.protocol.compliance import Wire

PROTOCOL_LINE = re.compile(
    r"^(id \S+ .*|protocol \d+|game \S+ [0-9a-f]+|option name .*|ardok|readyok|info .*|bestmove \S+"
    r"|error [a-z-]+ .*|legal( \S+)*|chance .*|board.*|boardok|eval \S+ player \d"
    r"|perft \d+ nodes \d+ time \d+( partial)?"
    r"|result .*|tomove \S+|hash [0-9a-f]{16}|Total time \(ms\) : \d+|Nodes searched : \d+( partial)?"
    r"|Nodes/second : \d+)$")
COMMANDS = ["ard", "isready", "setoption", "newgame", "position", "go", "stop", "legal", "d", "eval",
            "perft", "query", "bench"]
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
_FUZZ = os.environ.get("ARDSEARCH_FUZZ_GAMES", "ardennes")
FUZZ_GAMES = ardsearch.list_games() if _FUZZ == "all" else [g for g in _FUZZ.split(",") if g]
SETUP = {"ardennes": "position startpos seed 3 moves first:G obj:2 obj:6"}


@pytest.fixture(scope="module", params=FUZZ_GAMES)
def wire(request):
    require_search()
    w = Wire(ENGINE_CMD)
    w.send(f"newgame {request.param}")
    w.send(SETUP.get(request.param, "position startpos seed 3"))
    w.sync(20)
    w.tokens = [] if request.param == "ardennes" else game_tokens(w, request.param)
    yield w
    assert w.proc.poll() is None, "the engine died during fuzzing"
    w.send("quit")
    assert w.proc.wait(5) == 0
    w.close()


def game_tokens(w: Wire, name: str) -> list[str]:
    """Moves the position on to the first decision (the first chance event
    the engine lists, each time) and returns the game's name, the events
    played and the actions listed there, so that command lines on another game
    than Ardennes name real events too. Asked of the engine process: this test
    process never runs engine code itself, so under the sanitizers a report is
    the engine's."""
    played, words = [], []
    for _ in range(12):
        w.send("legal")
        lines, _ = w.until(lambda s: s.startswith(("legal", "chance", "error ")), 20)
        words = lines[-1].split()
        if words[0] != "chance" or words[1] == "?":  # chance <event> <probability> ...
            break
        played.append(words[1])
        w.send("position startpos seed 3 moves " + " ".join(played))
        w.sync(20)
    actions = words[1:13] if words[0] == "legal" else []
    return [name] + played + actions


def exchange(w: Wire, data: bytes) -> list[str]:
    """Sends data and a final isready; returns every line before the last readyok.
    A stop and then a state-changing command go before the isready: that command
    waits for a stopping search, so a bestmove never leaks into the next example."""
    # Only a bare `isready` is answered with readyok; `isready x` is an error.
    readies = sum(1 for raw in data.split(b"\n") if raw.split() == [b"isready"]) + 1
    w.send(data + b"stop\nsetoption name MultiPV value 1\nisready\n")
    lines = []
    while readies:
        lines += w.until(lambda s: s == "readyok", 30)[0]
        readies -= 1
    lines = lines[:-1]
    assert w.proc.poll() is None
    assert not w.raw_problems, w.raw_problems
    for line in lines:
        assert PROTOCOL_LINE.match(line), f"not a protocol line: {line!r}"
    return lines


def is_command(line: bytes) -> bool:
    words = line.split()
    return bool(words) and words[0].decode("latin-1") in COMMANDS + ["quit"]


junk_line = st.one_of(
    st.binary(max_size=200),
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=60)
    .map(lambda s: s.encode()),
).map(lambda b: b.replace(b"\n", b" ")).filter(lambda b: b.strip() and not is_command(b))


@SETTINGS
@given(junk_line)
def test_each_junk_line_gets_exactly_one_error(wire, line):
    lines = exchange(wire, line + b"\n")
    assert len(lines) == 1 and lines[0].startswith("error "), (line, lines)


@SETTINGS
@given(st.sampled_from([c for c in COMMANDS[2:] if c not in ("go", "perft", "bench")]), st.binary(max_size=80))
def test_commands_with_binary_tails(wire, command, tail):
    line = command.encode() + b" " + tail.replace(b"\n", b" ")
    lines = exchange(wire, line + b"\n")
    assert len([s for s in lines if s.startswith("error ")]) <= 1


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(min_value=(1 << 20) + 1, max_value=(1 << 20) + 5000), st.booleans())
def test_oversized_lines(wire, size, binary):
    body = (b"\xfe" if binary else b"a") * size
    lines = exchange(wire, body + b"\n")
    assert len(lines) == 1 and lines[0].startswith("error bad-argument line too long"), lines


TOKENS = ["name", "value", "Threads", "MultiPV", "Algorithm", "mcts", "ismcts", "expectimax", "1", "2",
          "-3", "startpos", "seed", "moves", "first:A", "first:G", "obj:1", "obj:5", "?", "T3", "pass",
          "nodes", "50", "depth", "movetime", "20", "searchactions", "ardennes", "variant=basic",
          "result", "tomove", "hash", "x", ""]


def command_lines(extra_tokens=()):
    token = st.one_of(
        st.sampled_from(TOKENS + list(extra_tokens)),
        st.text(alphabet="abcxyz0123456789:=?", max_size=8),
    )
    return st.tuples(st.sampled_from(COMMANDS), st.lists(token, max_size=8)).map(
        lambda t: " ".join([t[0]] + t[1]))


@SETTINGS
@given(st.data())
def test_random_command_sequences(wire, data):
    """Any command may come, unbounded searches, deep perft and bench
    included: exchange() ends each sequence with `stop`, which ends any of
    them (docs/protocol.md, `stop`)."""
    commands = data.draw(st.lists(command_lines(wire.tokens), min_size=1, max_size=6))
    raw = b"".join(c.encode() + b"\n" for c in commands)
    lines = exchange(wire, raw)
    assert len([s for s in lines if s.startswith("error ")]) <= len(commands)
    # A go either started (one bestmove) or was refused (one error): never two bestmoves each.
    gos = sum(c.split()[0] == "go" for c in commands)
    assert sum(s.startswith("bestmove") for s in lines) <= gos


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["isready", "legal", "query tomove", "eval"]), st.integers(min_value=1, max_value=6))
def test_truncated_lines_are_finished_by_the_next_newline(wire, command, cut):
    lines = exchange(wire, command.encode()[:cut] + b"\n")
    assert len(lines) <= 2
