"""The protocol's LimitStrength and Elo options and level presets
(docs/protocol.md, "Difficulty levels"): declared in the handshake, parsed
with one error line for a bad value, and a level plays through `go`.
Exact checks only; the Elo figures here are a synthetic roster's."""
import re

import pytest

from test_protocol_helpers import InProcess, require_search

from ardsearch import bots

SETUP = "position startpos seed 5 moves first:A obj:1 obj:2"


def _with_elo(real: dict) -> dict:
    """The real roster with made-up Elo figures for ardennes and stosstruppen: level N at 100 * N."""
    out = dict(real)
    for n in range(1, 7):
        name = f"level-{n}"
        # the [elo] table up to the next table header (its comments may hold brackets)
        text = re.sub(r"^\[elo\]\s*$.*?(?=^\[|\Z)", "", out[name], flags=re.M | re.S)
        out[name] = text.rstrip("\n") + f"\n\n[elo]\nardennes = {100 * n}\nstosstruppen = {100 * n}\n"
    return out


@pytest.fixture
def rated(monkeypatch):
    real = bots._roster_files()
    monkeypatch.setattr(bots, "_roster_files", lambda: _with_elo(real))


def test_handshake_declares_limit_strength_and_elo(rated):
    """UCI_LimitStrength / UCI_Elo in our protocol's words: a check and a spin
    whose range is the measured levels' (here 100 .. 600)."""
    require_search()
    lines = InProcess().run("ard")
    options = {s.split()[2]: s for s in lines if s.startswith("option ")}
    assert options["LimitStrength"] == "option name LimitStrength type check default false"
    assert options["Elo"] == "option name Elo type spin default 600 min 100 max 600"
    for n in range(1, 7):
        assert f"var level-{n}" in options["Preset"]


@pytest.mark.parametrize("command, words", [
    ("setoption name LimitStrength value yes", "needs true or false"),
    ("setoption name Elo value 99", "must be from 100 to 600"),
    ("setoption name Elo value 2000", "must be from 100 to 600"),
    ("setoption name Elo value 3.5", "whole number"),
])
def test_bad_strength_values_get_one_error(rated, command, words):
    require_search()
    e = InProcess()
    out = e.run(command)
    assert len(out) == 1 and out[0].startswith("error bad-argument") and words in out[0], out


def test_an_elo_outside_the_current_games_levels_is_refused(rated):
    """With a game chosen, the Elo must be within that game's measured levels."""
    require_search()
    e = InProcess()
    e.run("newgame mortain")
    out = e.run("setoption name Elo value 300")
    assert out and out[0].startswith("error bad-argument option Elo: no level has a measured Elo in mortain")
    e.run("newgame ardennes")
    assert e.run("setoption name Elo value 300") == []


def test_limit_strength_plays_the_interpolated_level(rated):
    """Elo 250 is half-way between level-2 (200) and level-3 (300): the
    simulations are their geometric mean, sqrt(120 * 600) = 268."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", "setoption name LimitStrength value true", "setoption name Elo value 250", SETUP)
    out = e.run("go")
    assert out[0].startswith("info string LimitStrength Elo 250 in ardennes: 268 simulations, temperature 0.45")
    assert re.search(r" nodes 268 ", out[1]), out
    assert out[-1].startswith("bestmove ")
    again = InProcess()
    again.run("newgame ardennes", "setoption name LimitStrength value true", "setoption name Elo value 250", SETUP)
    assert again.run("go")[-1] == out[-1]


def test_a_level_preset_caps_any_go(rated):
    """A level does not grow stronger with a bigger budget: go nodes 5000 at
    level-1 searches its 25 simulations."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", "setoption name Preset value level-1", SETUP)
    out = e.run("go nodes 5000")
    assert out[0] == "info string level level-1 (beginner)"
    assert re.search(r" nodes 25 ", out[1]), out
    assert out[-1].startswith("bestmove ")


def test_without_limit_strength_the_engine_plays_at_full_strength(rated):
    require_search()
    e = InProcess()
    e.run("newgame ardennes", "setoption name Elo value 100", SETUP)
    out = e.run("go nodes 2000")
    assert not any(s.startswith("info string") for s in out)
    assert any(re.search(r" nodes 2000 ", s) for s in out)


@pytest.fixture
def shapes(monkeypatch):
    """The search shapes the protocol's searches are made with, in order."""
    require_search()
    from ardsearch.protocol import searcher
    seen = []
    real = searcher.make_search

    def spy(*args, **kwargs):
        seen.append(kwargs.get("shape"))
        return real(*args, **kwargs)
    monkeypatch.setattr(searcher, "make_search", spy)
    return seen


def test_a_level_preset_searches_with_its_games_table(rated, shapes):
    """level-2's [games.mortain] table (bots/level-2.toml) reaches the
    protocol's search: its shape over the base preset's."""
    e = InProcess()
    e.run("newgame mortain(setup=historical)", "setoption name Preset value level-2", "position startpos moves 7b")
    out = e.run("go nodes 50")
    assert out[-1].startswith("bestmove ")
    table = bots._preset("level-2")[0]["games"]["mortain"]
    assert shapes and all(shapes[-1][k] == v for k, v in table.items())


def test_limit_strength_interpolates_the_one_ply_band(rated, shapes):
    """Stosstruppen's levels differ by root_margin (bots/level-2.toml 0.5,
    level-3.toml 0.3, both 120 simulations): Elo 250, half-way, searches
    with the band 0.4 and says so."""
    e = InProcess()
    e.run("newgame stosstruppen", "setoption name LimitStrength value true", "setoption name Elo value 250",
          "position startpos seed 5 moves card:Gm")
    out = e.run("go")
    assert out[0].startswith("info string LimitStrength Elo 250 in stosstruppen: 120 simulations, "
                             "temperature 0.45, max_loss 0.150, root_margin 0.400 (nearest "), out[0]
    assert shapes and shapes[-1]["root_margin"] == pytest.approx(0.4)
    assert out[-1].startswith("bestmove ")
