"""The SVG boards of Stand at Mortain and Stosstruppen (each game's
board.js) in headless Chromium, and the checks that keep their embedded
data (map, counters) equal to the game's data files.

docs/web.md, "A game's board": "Each game draws itself ... `ui.selected`
holds the board's selection across redraws ..., `ui.offer(moves)` lists
moves as buttons, `ui.play(move)` plays one." The issue: "Mortain's hex map
with terrain, counters (full/reduced), the card just drawn and the deck
count; ... Stosstruppen's grid with terrain, trenches, wire, barrages ... A
legend for every symbol."

The browser fixtures are those of tests/test_web_browser.py (same server,
same no-page-error check)."""
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
    if git is None or not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(os.path.join(ROOT, ".git")):
        pytest.skip("not a git checkout")
    for name in os.listdir(os.path.join(ROOT, "ardsearch", "web", "static")):
        path = os.path.join("ardsearch", "web", "static", name)
        ignored = subprocess.run([git, "check-ignore", "-q", path], cwd=ROOT).returncode == 0
        assert not ignored, f"{path} is git-ignored: the web app would be missing it in a clone; un-ignore it in .gitignore"
