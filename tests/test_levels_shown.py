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
    rows = [line.split() for line in section.splitlines()[1:]]
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
