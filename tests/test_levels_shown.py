"""The level names where a person chooses an opponent: `ardsearch list`,
`ardsearch play --level`, and the web front end's catalogue."""
import io
import sys

import pytest

from ardsearch.cli import main
from ardsearch.web.server import game_catalogue

TITLES = ["beginner", "novice", "club", "strong", "expert", "strongest"]


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_shows_the_levels_by_name_weakest_first(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    section = out.split("levels (", 1)[1]
    rows = [line.split() for line in section.splitlines()[1:] if line.startswith("  level-")]
    assert [r[0] for r in rows] == [f"level-{i}" for i in range(1, 7)]
    assert [r[1] for r in rows] == TITLES
    # the levels are listed once, in their own section, not again among the bots
    assert out.count("level-3") == 1


@pytest.mark.parametrize("choice", ["club", "level-3", "3", "CLUB"])
def test_play_against_a_level_by_name_title_or_number(capsys, monkeypatch, choice):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", "ardennes", "--level", choice, "--seed", "1")
    assert code == 0
    assert "difficulty: Level 3 of 6, club" in out
    assert "the bot (level-3)" in out


def test_play_refuses_an_unknown_level_or_both_level_and_vs(capsys):
    code, _, err = run(capsys, "play", "ardennes", "--level", "master")
    assert code == 2 and "unknown level 'master'" in err and "level-6 (strongest)" in err
    code, _, err = run(capsys, "play", "ardennes", "--level", "club", "--vs", "mcts")
    assert code == 2 and "give --level or --vs, not both" in err


def test_the_web_catalogue_lists_the_levels_by_name():
    """docs/web.md: the table's bot choice lists the levels by name."""
    cat = game_catalogue()
    assert [lv["title"] for lv in cat["levels"]] == TITLES
    assert [lv["name"] for lv in cat["levels"]] == [f"level-{i}" for i in range(1, 7)]
    assert all(isinstance(lv["elo"], dict) for lv in cat["levels"])
    assert not any(b["name"].startswith("level-") for b in cat["bots"])
    assert any(b["name"] == "mcts" for b in cat["bots"])


def _level(n, elo):
    from ardsearch.levels import Level
    return Level(preset=f"level-{n}", number=n, title=TITLES[n - 1], description="", base="mcts",
                 params={}, games={}, elo=elo)


def test_not_stronger_names_the_weaker_level_a_level_did_not_rise_above(monkeypatch):
    """Issue 15: "each [level] with its measured Elo in a ladder". Where a
    level measured no higher than a weaker one, a person choosing by name
    is told which: the weaker level with the highest Elo so far; a level
    not measured in a game is skipped, not counted as a step."""
    from ardsearch import levels
    ladder = [_level(1, {"g": 100, "h": 10}), _level(2, {"g": 300}), _level(3, {"g": 250, "h": 5}),
              _level(4, {"g": 300, "h": 20}), _level(5, {"g": 400})]
    monkeypatch.setattr(levels, "levels", lambda: ladder)
    assert levels.not_stronger("g") == {"level-3": "level-2", "level-4": "level-2"}
    assert levels.not_stronger("h") == {"level-3": "level-1"}
    assert levels.not_stronger("none") == {}
    # every game at once, as `ardsearch list` and the web catalogue mark them
    assert levels.not_stronger_by_game(ladder) == {"g": {"level-3": "level-2", "level-4": "level-2"},
                                                   "h": {"level-3": "level-1"}}


def test_list_and_the_web_mark_a_level_not_measured_stronger(capsys):
    """The shipped ladders (bench/README.md, "Difficulty levels: the Elo
    ladder"): Micro Armour's level-4 measured below level-3, so `ardsearch
    list` stars it and the web's tooltip data names level-3; Ardennes'
    ladder rises at every level, so nothing is marked there."""
    from ardsearch.levels import find_level, not_stronger
    assert find_level("level-4").elo["microarmour"] < find_level("level-3").elo["microarmour"]
    assert not_stronger("microarmour")["level-4"] == "level-3"
    assert not_stronger("ardennes") == {}
    _, out, _ = run(capsys, "list")
    row4 = next(line for line in out.splitlines() if line.startswith("  level-4"))
    elo = find_level("level-4").elo
    assert f"microarmour {elo['microarmour']:.0f}*" in row4
    assert f"ardennes {elo['ardennes']:.0f}," in row4
    assert "* not measured stronger than a weaker level" in out
    cat = {lv["name"]: lv for lv in game_catalogue()["levels"]}
    assert cat["level-4"]["not_stronger"]["microarmour"] == "level-3"
    assert "ardennes" not in cat["level-4"]["not_stronger"]
