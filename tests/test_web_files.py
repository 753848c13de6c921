"""Checks of the web app's files that need no browser: the page is in the
repository, and the map and counter data embedded in each board.js equal the
game's data files (tests/board_data.py builds them; see docs/web.md, "A
game's board")."""
import os
import shutil
import subprocess

import pytest

import board_data

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def test_the_page_itself_is_not_git_ignored():
    """docs/web.md: "`GET /` and `/static/*` are the page, its ES modules and
    CSS (package data, no build step)". The page (index.html) must be in the
    repository: `*.html` in .gitignore left it out, so a fresh clone served
    no page at all."""
    git = shutil.which("git")
    if git is None or not os.path.exists(os.path.join(ROOT, ".git")):    # a worktree's .git is a file
        pytest.skip("not a git checkout")
    for name in os.listdir(os.path.join(ROOT, "ardsearch", "web", "static")):
        path = os.path.join("ardsearch", "web", "static", name)
        ignored = subprocess.run([git, "check-ignore", "-q", path], cwd=ROOT).returncode == 0
        assert not ignored, f"{path} is git-ignored: the web app would be missing it in a clone; un-ignore it in .gitignore"


# --- the data embedded in each board.js ------------------------------------------------------
@pytest.mark.parametrize("game", sorted(board_data.BUILDERS))
def test_board_data_is_the_games_data(game):
    """RULES.md (Mortain, Map and units): "the terrain, the order of battle
    ... are data in scenarios/mortain.toml"; (Stosstruppen): "every value
    filling such a gap ... lives in a data file". The view (to_dict) carries
    no map and no counter values, so each board.js holds a copy: it must be
    what the data files say. When it is not: `python tests/board_data.py
    --write GAME` rewrites the block."""
    path = os.path.join(ROOT, "ardsearch", "games", game, "board.js")
    with open(path, encoding="utf-8") as f:
        js = f.read()
    assert board_data.embedded(js) == board_data.BUILDERS[game](), \
        f"{path}: the DATA block differs from the game's data files; rewrite it with " \
        f"`PYTHONPATH=. python tests/board_data.py --write {game}`"
