"""Every game's board text has a legend, and the legend covers the board.

Spec (ardsearch/terminal.py, the `ardsearch play` help): "legend   what the
board's letters mean", printed by `legend_text`: "The "Reading the board"
section of a game's RULES.md". The task that asked for the sections: "document
EVERY symbol, letter, column, marker and line of the printout".

The coverage test plays seeded random games and reads every board a person
can be shown: `str(state)` and both players' views (`observation_string`).
Each line is split into
- symbol fields (the map, a road, a card code, the stand markers): every
  character there is a symbol;
- names the game defines and the legend cannot list one by one (unit and stand
  ids, card and tile names, squares, scenario titles): skipped;
- numbers (counts, turns, coordinates): skipped, except the digits a map uses
  as symbols (Stosstruppen's tanks `4` and `7`);
- words of two or more letters: each must appear as a word in the legend;
- any other character (a lone letter, punctuation): a symbol.
A symbol must appear in the legend inside a `code span`: punctuation anywhere
in one, a letter or digit in a span item of at most three characters (`T`,
`hU1`, `(s)`), so a letter used in an ordinary word of a span does not count.
Text in fenced blocks would not count either (a pasted board explains nothing).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import ardsearch
from ardsearch.random_walk import random_walk
from ardsearch.terminal import legend_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ardennes", "mortain", "undaunted", "stosstruppen", "microarmour")
HEADING = "## Reading the board"
MAX_PLIES = 4000


def _names_re(names, after=r"(?![A-Za-z0-9_])"):
    alts = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{alts}){after}")


def _ardennes():
    return dict(runs=[({}, (1, 2)), ({"variant": "basic", "road_length": 8}, (3,))],
                fields=[(r"^road \d \[(.*)\]$", False)], skip=[], names=None)


def _mortain():
    from ardsearch.games.mortain import SCENARIO
    return dict(runs=[({}, (1, 2, 3)), ({"setup": "free"}, (4,))],
                fields=[(r"^ \d\d  (.*)$", False),           # a map row: terrain, side, count, Tiger
                        (r"\bcard (\w+) \(", False)],          # the card in play: rank and colour
                skip=[r"^ +(\d\d +)*\d\d$"],                   # the column numbers
                names=_names_re(u.id for u in SCENARIO.units))


def _undaunted():
    from ardsearch.games.undaunted import _engine
    tiles = set()
    for sc in (1, 2, 3):
        d = ardsearch.load_game("undaunted", scenario=sc).new_initial_state(0).to_dict()
        tiles |= {t["name"] for t in d["tiles"]}
    names = set(_engine.CARD_NAMES) | set(_engine.UNIT_NAMES) | tiles
    # `rifAx4`: four rifA cards, so a name may be followed by the `x` of a count
    return dict(runs=[({"scenario": 1}, (1, 2)), ({"scenario": 2}, (3,)), ({"scenario": 3}, (4,))],
                fields=[], skip=[], names=_names_re(names, after=r"(?=x\d|[^A-Za-z0-9_]|$)"))


def _stosstruppen():
    from ardsearch.games.stosstruppen import _engine
    titles = [_engine.scenario_info(n)["title"] for n in _engine.SCENARIO_NAMES]
    squares = r"(?<![A-Za-z0-9_])[a-p](?:1[0-2]|[1-9])(?![A-Za-z0-9_])"
    return dict(runs=[({"scenario": "kaiserschlacht"}, (1, 2)), ({"scenario": "villers"}, (3, 4))],
                fields=[(r"^ *\d+ (.*)$", True),                # a grid row: digits are tanks
                        (r"\bcard (\w\w) \(", False),           # the Sequence card in play
                        (r"^drawn: (.*)$", False)],             # the cards drawn
                skip=[r"^ +([a-p] +)+$"],                       # the column letters
                names=re.compile(_names_re(titles).pattern + "|" + squares))


def _microarmour():
    g = ardsearch.load_game("microarmour", support=True)     # every stand id of the scenario
    d = g.new_initial_state(0).to_dict()
    names = {s["id"] for s in d["stands"]} | {s["type"] for s in d["stands"]}
    return dict(runs=[({}, (1,)), ({"deployment": "close"}, (2, 3)),
                      ({"deployment": "close", "support": True, "special_ap": True, "heat": True}, (4, 5))],
                fields=[(r"^[ \d]\d (.*)$", False),             # a map row
                        # a stand's markers, then "aboard <carrier>" on a stand riding in one
                        (r"^  \S+ +\S+ +\d+,\d+ +\S+ +\S+ +(\S+)(?: aboard \S+)?$", False)],
                skip=[r"^ +\d+$"],                              # the x ruler
                names=_names_re(names))


CONFIG = {"ardennes": _ardennes, "mortain": _mortain, "undaunted": _undaunted,
          "stosstruppen": _stosstruppen, "microarmour": _microarmour}


def boards(name, cfg):
    """Every distinct board text (full state and both views) of the configured
    seeded random games, played to the end."""
    seen = set()
    for params, seeds in cfg["runs"]:
        game = ardsearch.load_game(name, **params)
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_initial_state(seed)
            for _ in range(MAX_PLIES):
                seen.update((str(state), state.observation_string(0), state.observation_string(1)))
                if state.is_terminal():
                    break
                random_walk(state, 1, rng)
    return seen


def tokens(line, cfg):
    """(symbols, words) of one board line, as the module docstring says."""
    for pattern in cfg["skip"]:
        if re.match(pattern, line):
            return set(), set()
    symbols = set()
    for pattern, digits in cfg["fields"]:
        m = re.search(pattern, line)
        if m:
            symbols |= {c for c in m.group(1) if not c.isspace() and (digits or not c.isdigit())}
            line = line[:m.start(1)] + " " * len(m.group(1)) + line[m.end(1):]
    if cfg["names"] is not None:
        line = cfg["names"].sub(" ", line)
    words = set()
    for tok in re.findall(r"[A-Za-z_]{2,}|\d+|\S", line):
        if len(tok) > 1 and not tok.isdigit():
            words.add(tok)
        elif not tok.isdigit():
            symbols.add(tok)
    return symbols, words


def mentioned_symbols(legend):
    """Characters the legend names in code spans (see the module docstring)."""
    legend = re.sub(r"```.*?```", "", legend, flags=re.S)
    out = set()
    for span in re.findall(r"`([^`\n]+)`", legend):
        out |= {c for c in span if not c.isalnum() and not c.isspace()}
        for item in span.split():
            if len(item) <= 3:
                out |= set(item)
    return out


def rules_text(name):
    return (ROOT / "ardsearch" / "games" / name / "RULES.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", GAMES)
def test_rules_md_has_a_reading_the_board_section_after_the_introduction(name):
    """The section exists, is the file's first `## ` section (directly after
    the introduction, where the `legend` command finds it), is what `legend`
    prints, is compact, and says how moves are written."""
    text = rules_text(name)
    headings = re.findall(r"^## .*$", text, flags=re.M)
    assert headings and headings[0] == HEADING, f"{name}: first section is {headings[:1]}, not {HEADING!r}"
    legend = legend_text(name)
    assert legend.startswith(HEADING) and legend in text
    assert 15 <= len(legend.splitlines()) <= 60, f"{name}: legend has {len(legend.splitlines())} lines"
    assert "How moves are written" in legend


@pytest.mark.parametrize("name", GAMES)
def test_every_board_symbol_and_word_is_in_the_legend(name):
    """Every character of every board shown in seeded random games (both
    players' views too) is explained by the legend, as the module docstring
    says; the failure lists what is missing and a line it was seen in."""
    legend = legend_text(name)
    assert legend.startswith(HEADING), f"{name}: RULES.md has no {HEADING!r} section"
    cfg = CONFIG[name]()
    known = mentioned_symbols(legend)
    prose = re.sub(r"```.*?```", "", legend, flags=re.S)
    missing = {}
    lines = {line for board in boards(name, cfg) for line in board.splitlines()}
    for line in sorted(lines):
        symbols, words = tokens(line, cfg)
        for s in symbols - known:
            missing.setdefault(f"symbol {s!r}", line)
        for w in words:
            if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", prose, flags=re.I):
                missing.setdefault(f"word {w!r}", line)
    assert not missing, f"{name}: not in the legend:\n" + "\n".join(
        f"  {what}, e.g. in: {line.strip()}" for what, line in sorted(missing.items()))


def test_microarmour_wreck_shows_on_every_terrain():
    """Micro Armour, "Reading the board": "`*` is a wreck (an eliminated
    armoured stand) with no stand on it" (RULES.md *Wrecks*: "an eliminated
    armoured stand leaves a wreck on its square"). A wreck on a hill square
    was drawn as the hill's `h`, because the board took the terrain letter
    `h` for a Soviet HQ already drawn there."""
    game = ardsearch.load_game("microarmour")
    d = game.new_initial_state(0).to_dict()
    d["units"] = dict(d["units"], offtable=[])     # a hand-built position: every stand on the table
    for stand in d["stands"]:
        if stand["id"] == "pz4a":      # hill at 15,14
            stand.update(at=[15, 14], alive=False, wreck=True)
        if stand["id"] == "pz4b":      # clear at 2,3
            stand.update(at=[2, 3], alive=False, wreck=True)
        if stand["id"] == "pz4c":      # a live stand on a wreck shows the stand
            stand.update(at=[20, 3])
        if stand["id"] == "pz4d":
            stand.update(at=[20, 3], alive=False, wreck=True)
    rows = str(game.state_from_dict(d)).splitlines()[1:21]
    cell = {(x, 19 - i): row[3 + x] for i, row in enumerate(rows) for x in range(30)}
    assert cell[(15, 15)] == "h"       # the hill next to it, for the record
    assert cell[(15, 14)] == "*" and cell[(2, 3)] == "*" and cell[(20, 3)] == "T"
