"""The strict grammar of docs/protocol.md, checked command by command.

docs/protocol.md, Errors: "`bad-argument` | the command is malformed: missing
or extra words, a number that is not one or out of range, a bad option value
...", and every such line "is answered with exactly one line `error <code>
<message>` and the engine keeps its previous state".

docs/protocol.md, Grammar: numbers are unsigned decimal digits (`uint`, or
`posint` where zero means nothing); a sign, an exponent or an empty number is
not a number of the protocol.

The tables below close the class: every command of the spec with one extra
word appended, and every numeric argument with +5, -1, 1e3, an empty value
and (where the spec requires a positive number) 0.
"""
from __future__ import annotations

import pytest

from test_protocol_helpers import InProcess, require_search

SETUP = "position startpos seed 5 moves first:A obj:1 obj:2"

# Every command form of the spec, valid as written (from the setup position).
# The extra word lands where the grammar has no room for it: bad-argument.
# After `position ... moves` and `go ... searchactions` every further word is
# an event or an action, so there it is refused as an illegal move instead.
VALID_COMMANDS = [
    ("ard", "bad-argument"),
    ("isready", "bad-argument"),
    ("stop", "bad-argument"),
    ("quit", "bad-argument"),
    ("legal", "bad-argument"),
    ("d", "bad-argument"),
    ("eval", "bad-argument"),
    ("perft 1", "bad-argument"),
    ("bench 1", "bad-argument"),
    ("query result", "bad-argument"),
    ("query tomove", "bad-argument"),
    ("query hash", "bad-argument"),
    ("setoption name Threads value 1", "bad-argument"),
    ("setoption name Hash value 16", "bad-argument"),
    ("setoption name Algorithm value mcts", "bad-argument"),
    ("setoption name Exploration value 1.4", "bad-argument"),
    ("setoption name Seed value 3", "bad-argument"),
    ("setoption name MultiPV value 2", "bad-argument"),
    ("setoption name MoveOverhead value 10", "bad-argument"),
    ("setoption name Preset value none", "bad-argument"),
    ("newgame ardennes", "bad-argument"),
    ("newgame ardennes road_length=8", "bad-argument"),
    ("position startpos", "bad-argument"),
    ("position startpos seed 5", "bad-argument"),
    ("position startpos seed 5 moves first:A obj:1 obj:2", "illegal-move"),
    ("go nodes 5", "bad-argument"),
    ("go iterations 5", "bad-argument"),
    ("go movetime 5", "bad-argument"),
    ("go depth 1", "bad-argument"),
    ("go wtime 100 btime 100", "bad-argument"),
    ("go wtime 100 btime 100 winc 0 binc 0 movestogo 3", "bad-argument"),
    ("go infinite", "bad-argument"),
    ("go nodes 5 searchactions T3", "illegal-move"),
]


def _fresh():
    e = InProcess()
    e.run("newgame ardennes", SETUP)
    return e


@pytest.mark.parametrize("command,code", VALID_COMMANDS, ids=[c for c, _ in VALID_COMMANDS])
def test_every_command_refuses_an_extra_word(command, code):
    """docs/protocol.md: "missing or extra words" are `bad-argument`; one
    error line, and the engine keeps its game, position and options."""
    require_search()
    e = _fresh()
    before = e.run("legal", "query hash")
    values = dict(e.server.values)
    keep_going = e.send(command + " now")
    out = e.run()
    assert keep_going is True, f"{command} now: the engine quit"
    assert len(out) == 1 and out[0].startswith(f"error {code} "), (command, out)
    assert e.run("legal", "query hash") == before
    assert e.server.values == values


def test_the_valid_forms_are_accepted():
    """The table's commands themselves are valid: no error line."""
    require_search()
    for command, _ in VALID_COMMANDS:
        if command in ("quit", "go infinite", "stop"):
            continue
        e = _fresh()
        out = e.run(command)
        assert not [s for s in out if s.startswith("error ")], (command, out)


# (command template with {} for the number, the values that are valid there)
NUMERIC_ARGUMENTS = [
    ("go nodes {}", "posint"),
    ("go iterations {}", "posint"),
    ("go movetime {}", "posint"),
    ("go depth {}", "posint"),
    ("go movestogo {} nodes 5", "posint"),
    ("go wtime {} nodes 5", "uint"),
    ("go btime {} nodes 5", "uint"),
    ("go winc {} nodes 5", "uint"),
    ("go binc {} nodes 5", "uint"),
    ("position startpos seed {}", "uint"),
    ("perft {}", "uint"),
    ("bench {}", "posint"),
    ("setoption name Threads value {}", "posint"),
    ("setoption name Hash value {}", "posint"),
    ("setoption name Seed value {}", "uint"),
    ("setoption name MultiPV value {}", "posint"),
    ("setoption name MoveOverhead value {}", "uint"),
    ("setoption name Exploration value {}", "udecimal"),
    ("newgame ardennes road_length={}", "game-int"),
    ("newgame ardennes max_rounds={}", "game-int"),
]
MALFORMED = ["+5", "-1", "1e3", "", "0x10", "1_0", "5.", "٥"]


def _cases():
    for template, kind in NUMERIC_ARGUMENTS:
        for bad in MALFORMED:
            if kind == "udecimal" and bad == "5.":
                continue  # "5." is a decimal number; Exploration takes it
            if template.startswith("bench") and bad == "":
                continue  # bench's number is optional: plain `bench` is valid
            yield template, bad
        if kind == "posint":
            yield template, "0"


CASES = list(_cases())


@pytest.mark.parametrize("template,number", CASES, ids=[t.format(n or "<empty>") for t, n in CASES])
def test_every_numeric_argument_refuses_malformed_numbers(template, number):
    """docs/protocol.md: "a number that is not one or out of range" is
    `bad-argument`: no sign, no exponent, no empty number, and 0 where the
    spec asks for a positive number."""
    require_search()
    e = _fresh()
    before = e.run("legal", "query hash")
    values = dict(e.server.values)
    game = e.server.game
    line = template.format(number)
    if number == "٥":  # non-ASCII: the line reader refuses it
        out = e.run(line.encode("utf-8"))
    else:
        out = e.run(line)
    assert len(out) == 1 and out[0].startswith("error bad-argument "), (line, out)
    assert e.run("legal", "query hash") == before
    assert e.server.values == values and e.server.game is game


@pytest.mark.parametrize("template,kind", NUMERIC_ARGUMENTS, ids=[t for t, _ in NUMERIC_ARGUMENTS])
def test_well_formed_numbers_are_accepted(template, kind):
    """The same arguments with a plain decimal number are accepted."""
    require_search()
    e = _fresh()
    number = {"posint": "1", "uint": "0", "udecimal": "0.5", "game-int": "8"}[kind]
    if template.startswith(("perft", "bench")):
        number = "1"
    out = e.run(template.format(number))
    assert not [s for s in out if s.startswith("error ")], (template, out)


def test_a_limit_given_twice_is_refused():
    """docs/protocol.md, go: each limit once ("any combination"); a repeated
    one is a malformed command, not a silent override."""
    require_search()
    e = _fresh()
    for line in ("go nodes 5 nodes 6", "go infinite infinite", "go wtime 10 wtime 20"):
        out = e.run(line)
        assert len(out) == 1 and out[0].startswith("error bad-argument "), (line, out)


def test_negative_game_parameters_stay_allowed():
    """A game parameter whose range is negative (microarmour german_quality
    -2..3) keeps its minus sign: only '+' and non-decimal forms are refused."""
    require_search()
    e = InProcess()
    assert e.run("newgame microarmour german_quality=-2") == []
    out = e.run("newgame microarmour german_quality=+2")
    assert len(out) == 1 and out[0].startswith("error bad-argument "), out


def test_the_client_sends_only_numbers_the_grammar_takes():
    """docs/protocol.md, Grammar: `movetime` is a posint and times are uint,
    so our client rounds a tiny time up to 1 ms and a clock past zero to 0."""
    from ardsearch.protocol.client import Limit

    args = Limit(time=0.0001).go_args()
    assert args == ["movetime", "1"]
    args = Limit(clocks=(-0.25, 2.0), increments=(-0.001, 0.5)).go_args()
    assert args == ["wtime", "0", "btime", "2000", "winc", "0", "binc", "500"]


@pytest.mark.parametrize("name", ["ardennes", "mortain", "undaunted", "stosstruppen", "microarmour"])
def test_every_move_travels_as_one_protocol_word(name):
    """docs/protocol.md, Lines: "Words are separated by spaces or tabs", and
    `position ... moves` takes one event per word; some games' notation has
    spaces (Mortain's `stack 1104`, Micro Armour's `posture pz4a move`), so on
    the wire each space inside a move is `~`. Along a seeded random game:
    `legal` lists one word per legal move that decodes to the notation, every
    event goes back in `position ... moves`, and `bestmove` and the pv decode
    to legal moves."""
    require_search()
    import random

    import ardsearch
    from ardsearch.protocol.words import from_word, to_word

    game = ardsearch.load_game(name)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    eng = InProcess()
    eng.run(f"newgame {name}")
    events, checked = [], 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            action = state.sample_chance()
        else:
            legal = [state.action_to_string(a) for a in state.legal_actions()]
            line = eng.run(f"position startpos seed 4 moves {' '.join(events)}".rstrip(), "legal")
            assert not [x for x in line if x.startswith("error")], line
            words = line[-1].split()[1:]
            assert all(" " not in w for w in words)
            assert [from_word(w) for w in words] == legal
            if len(legal) > 1:
                out = eng.run("go nodes 30")
                best = [x for x in out if x.startswith("bestmove")][0].split()
                assert len(best) == 2 and from_word(best[1]) in legal
                checked += 1
            action = rng.choice(state.legal_actions())
        events.append(to_word(state.action_to_string(action)))
        state.apply_action(action)
    assert events
