"""A move that is valid notation but illegal here is refused with the reason
(ardsearch/_refusals.py): the game's own sentence (GameSpec.illegal_reason)
or, without one, the legal moves of the refused move's group. Checked on
every path a person's move takes (the terminal and web session, the Python
API, the text protocol), on a hook that fails, and over seeded random games
of every game. The game reasons themselves: test_illegal_reasons_games.py."""
from __future__ import annotations

import dataclasses
import random
import re

import pytest

import ardsearch
from ardsearch._core import Game
from ardsearch._refusals import game_reason, refusal_message
from ardsearch.session import parse_move

# Reasons a hook gives by elimination: every other condition of the move is
# seen to hold, so the one left is named. They hold only for a refused move,
# so the check that a hook is silent on legal moves passes over them.
BY_ELIMINATION = re.compile(r"line of sight|is weaker than|covers the tile|out of \S+ reach|no enemy private")


def with_hook(name: str, hook, **params) -> Game:
    """The game with its illegal_reason hook replaced (None: a game without one)."""
    spec = ardsearch.load_game(name).spec
    return Game(dataclasses.replace(spec, illegal_reason=hook), params)


def refused(state, notation: str) -> str:
    """The IllegalMoveError text for `notation`, checking the state is unchanged."""
    before = state.serialize()
    with pytest.raises(ardsearch.IllegalMoveError) as err:
        state.apply(notation)
    assert state.serialize() == before
    return str(err.value)


def mortain_us_card(game=None):
    """A red 8 in turn 1 of the historical set-up: the US acts, 4 activations."""
    game = game or ardsearch.load_game("mortain")
    return game.state_from_dict({"game": "mortain", "phase": "act", "card": "8r"})


def test_without_a_hook_the_refusal_lists_the_groups_legal_moves():
    """A game with no illegal_reason hook: the core names the legal moves of
    the unit the refused move moves (`2-120-0601` -> 2-120's moves)."""
    state = mortain_us_card(with_hook("mortain", None))
    text = refused(state, "2-120-0601")
    assert text.startswith("'2-120-0601' (")
    assert "is not a legal move for player 1 here: 2-120's legal moves here: 2-120-0703, 2-120-0802" in text


def test_without_a_hook_a_group_with_no_legal_move_says_so_and_what_is_legal():
    state = mortain_us_card(with_hook("mortain", None))
    text = refused(state, "tiger-1301")
    assert "tiger has no legal move now; legal now: pass, " in text
    assert "\n" not in text


def test_a_hook_that_raises_falls_back_to_the_generic_reason():
    """The reason must never crash the refusal: a hook's fault is passed over."""
    def broken(d, note):
        raise KeyError("no such field")
    state = mortain_us_card(with_hook("mortain", broken))
    assert game_reason(state, "2-120-0601") is None
    text = refused(state, "2-120-0601")
    assert "2-120's legal moves here: 2-120-0703" in text
    with pytest.raises(ardsearch.IllegalMoveError, match="2-120's legal moves here"):
        parse_move(state, "2-120-0601")


def test_a_hook_answer_is_one_line_and_nonsense_is_ignored():
    state = mortain_us_card(with_hook("mortain", lambda d, note: "first line\n  second line"))
    assert game_reason(state, "2-120-0601") == "first line second line"
    for odd in ("", "   ", 42, None):
        state = mortain_us_card(with_hook("mortain", lambda d, note, odd=odd: odd))
        assert game_reason(state, "2-120-0601") is None


def test_the_hook_is_not_asked_at_a_chance_node():
    """A hook explains a player's move; at a chance node the core speaks."""
    calls = []
    game = with_hook("mortain", lambda d, note: calls.append(note) or "never shown", setup="historical")
    state = game.new_initial_state(seed=1)   # the default game starts with the US setup, not a card
    assert state.is_chance_node()
    text = refused(state, "2-120-0703")
    assert "is not a legal chance outcome here: 2-120 has no legal move now; legal now:" in text
    assert calls == []


def test_the_terminal_path_parse_move_gives_the_game_reason():
    """RULES.md (mortain), Setup: "A placed unit is not placed again"; the
    contract: US units "set up anywhere except column 13"."""
    state = ardsearch.load_game("mortain", setup="free").new_initial_state(seed=0)
    state.apply_action(parse_move(state, "setup 743 0604"))
    with pytest.raises(ardsearch.IllegalMoveError) as err:
        parse_move(state, "SETUP 743 0604")      # case-insensitive input, exact notation to the hook
    assert str(err.value).startswith("'SETUP 743 0604' is not a legal move here: 743 is already placed (on 0604)")
    with pytest.raises(ardsearch.IllegalMoveError) as err:
        parse_move(state, "setup 2-120 1305")
    # after the game's reason a long list of the group's moves (108 hexes) would bury it
    assert str(err.value).endswith("column 13 is off limits in the US set-up: place the unit in another column")


def test_the_terminal_prints_the_reason_on_one_line():
    from test_session import scripted
    from ardsearch.session import HUMAN, Session
    session = Session(ardsearch.load_game("mortain", setup="free"), ["random", HUMAN], seed=2)
    _, out, _ = scripted(session, 1, ["setup 743 0604", "setup 743 0604", "quit"])
    line = next(x for x in out.splitlines() if "already placed" in x)
    assert "'setup 743 0604' is not a legal move here: 743 is already placed (on 0604)" in line
    assert line.endswith("(type `moves` for the legal moves, `help` for commands)")


def test_apply_action_gives_the_reason_and_keeps_the_state():
    """RULES.md (mortain), Turn and cards: "Black card: the German player acts;
    red: the US player"."""
    state = mortain_us_card()
    text = refused(state, "tiger-1301")
    assert re.match(r"'tiger-1301' \(\d+\) is not a legal move for player 1 here: "
                    r"tiger is a German unit, and the US player acts on this card \(8r\)$", text)
    with pytest.raises(ardsearch.IllegalMoveError, match="tiger is a German unit"):
        state.apply_action(state.string_to_action("tiger-1301"))


def test_the_protocol_replies_with_the_reason():
    """The text protocol's `position ... moves` refuses an illegal event with
    `error illegal-move`, one line, the reason included."""
    from test_protocol_helpers import InProcess
    engine = InProcess()
    engine.run("newgame mortain setup=free")
    out = engine.run("position startpos moves setup~743~0604 setup~743~0604")
    assert len(out) == 1 and out[0].startswith("error illegal-move event 2 'setup~743~0604': ")
    assert "743 is already placed (on 0604)" in out[0]


def test_the_protocol_searchactions_refusal_gives_the_reason():
    from test_protocol_helpers import InProcess, require_search
    require_search()
    engine = InProcess()
    engine.run("newgame mortain setup=free", "position startpos moves setup~743~0604")
    out = engine.run("go nodes 10 searchactions setup~743~0605")
    assert len(out) == 1 and out[0].startswith("error illegal-move searchactions 'setup~743~0605'")
    assert "743 is already placed" in out[0]


def test_the_web_app_shows_the_reason():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient
    from test_web_server import new_game, receive_until
    from ardsearch.web.server import create_app
    with TestClient(create_app(max_searches=1)) as client, client.websocket_connect("/ws") as ws:
        snap = new_game(ws, "mortain", seats=("random", "human"), seed=3, params={"setup": "free"})
        ws.send_json({"type": "move", "table": snap["table"], "move": "setup 743 0604"})
        receive_until(ws, "state", lambda m: len(m["history"]) == 1)
        ws.send_json({"type": "move", "table": snap["table"], "move": "setup 743 0604"})
        message = receive_until(ws, "error")["message"]
    assert message.startswith("'setup 743 0604' is not a legal move here: 743 is already placed (on 0604)")
    assert message.count("setup 743 0604") == 1      # the move named once, no prefix before the refusal


# --- over seeded random games of every game ------------------------------------------
GAMES = ["ardennes", "mortain", "mortain(setup=free)", "undaunted", "stosstruppen",
         "microarmour", "microarmour(scenario=ambush)"]


def positions(game, count: int, seed: int):
    """`count` decision positions of seeded random games, and every notation seen legal."""
    rng = random.Random(seed)
    state, played, found, notes = game.new_initial_state(seed=seed), seed, [], set()
    while len(found) < count:
        if state.is_terminal():
            played += 1
            state = game.new_initial_state(seed=played)
        elif state.is_chance_node():
            state.apply_random_chance()
        else:
            legal = state.legal_actions()
            found.append(state.clone())
            notes.update(state.action_to_string(a) for a in legal)
            state.apply_action(rng.choice(legal))
    return found, sorted(notes)


@pytest.mark.parametrize("name", GAMES)
def test_refusals_over_random_games(name):
    """Notation legal somewhere in the game, refused here: the message is built
    without an exception, names the move, and a game reason is one non-empty
    line. And on the legal moves the hook is silent (a reason for a legal move
    would be false), but for the reasons it gives by elimination."""
    game = ardsearch.load_game(name)
    hook = game.spec.illegal_reason
    rng = random.Random(7)
    found, notes = positions(game, 300, seed=11)
    for state in found:
        d = state.to_dict()
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        for note in legal:
            reason = hook(d, note)
            assert reason is None or BY_ELIMINATION.search(reason), (note, reason)
        for note in rng.sample(notes, min(20, len(notes))):
            if note in legal:
                continue
            try:
                note = state.action_to_string(state.string_to_action(note))
            except ValueError:
                continue            # not notation in this position (a unit named by its square)
            reason = game_reason(state, note)
            assert reason is None or (reason.strip() and "\n" not in reason), (note, reason)
            text = refusal_message(state, note, f"{note!r} is not a legal move here")
            assert text.startswith(f"{note!r} is not a legal move here: ") and "\n" not in text


@pytest.mark.parametrize("name", GAMES)
def test_any_action_number_not_legal_is_refused_on_one_line(name):
    """README, "A refused move says why": `apply_action` with any action number
    in range that is not legal here raises IllegalMoveError (never another
    exception, state unchanged) and its text, reason included, is one line."""
    game = ardsearch.load_game(name)
    rng = random.Random(5)
    found, _ = positions(game, 60, seed=13)
    for state in found:
        legal = set(state.legal_actions())
        for action in (rng.randrange(game.num_actions) for _ in range(15)):
            if action in legal:
                continue
            before = state.serialize()
            with pytest.raises(ardsearch.IllegalMoveError) as err:
                state.apply_action(action)
            assert state.serialize() == before
            assert str(err.value).strip() and "\n" not in str(err.value)
