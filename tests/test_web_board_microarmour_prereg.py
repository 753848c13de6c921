"""Micro Armour's web board draws pre-registered target points (RULES.md, Indirect
artillery, Pre-registered target points; "The board in the browser") in a real browser:
before turn 1 the side recording clicks a plot cell's aiming square; its points are
crosshairs labelled `pre1`, `pre2` on its own board and never on the opponent's (his view
reads them "hidden", so two recordings behind one view draw byte-identical boards for
him); a line per side lists them. Contract: "pre-registered targets as hidden
information".

Same fixtures and helpers as tests/test_web_board_microarmour_rules12.py;
ARDSEARCH_SCREENSHOTS=DIR keeps a picture of each board."""
import json

from test_web_browser import browser, pytestmark, server  # noqa: F401 (fixtures; skipped without Chromium)
from test_web_board_microarmour_support import CLICK, render, shot, svg_text
from test_web_board_microarmour_rules12 import one_page, outer, page  # noqa: F401 (the module's one page)
from test_microarmour_prereg import recorded
from test_microarmour_artillery import GAME

POINTS = "#board svg [data-prereg]"


def test_the_side_recording_clicks_a_cell(page):
    """Before turn 1 each side records its points: the German player's legal `prereg x,y`
    squares light up and a click plays that point."""
    st = GAME.new_initial_state(seed=0)
    legal = [st.action_to_string(a) for a in st.legal_actions()]
    page.evaluate(CLICK, json.loads(json.dumps([st.view(0).to_dict(), legal])))
    assert page.locator("#board svg [data-target^='sq:']").count() == len(legal) == 70
    page.locator("#board svg [data-target='sq:13,10']").click()
    assert page.evaluate("window.__played") == "prereg 13,10"


def test_own_points_are_drawn_and_the_opponents_are_not(page):
    """The German board shows its two points as crosshairs and lists the Soviet one as
    `?`; the Soviet board shows only its own."""
    st = recorded("13,10", "22,16", "16,10")
    render(page, st.view(0).to_dict())
    drawn = page.eval_on_selector_all(POINTS, "ns => ns.map(n => n.getAttribute('data-prereg'))")
    assert drawn == ["german:1", "german:2"]
    text = svg_text(page)
    assert "pre-registered points (German): pre1 13,10 · pre2 22,16" in text
    assert "pre-registered points (Soviet): pre1 ?" in text
    shot(page, "microarmour-prereg-german")
    render(page, st.view(1).to_dict())
    drawn = page.eval_on_selector_all(POINTS, "ns => ns.map(n => n.getAttribute('data-prereg'))")
    assert drawn == ["soviet:1"]
    assert "pre-registered points (German): pre1 ? · pre2 ?" in svg_text(page)


def test_two_recordings_behind_one_view_draw_byte_identical_boards(page):
    """Whatever the Germans recorded, the Soviet board is the same."""
    boards = []
    for pts in (("13,10", "22,16"), ("1,1", "28,19")):
        render(page, recorded(*pts, "16,10").view(1).to_dict())
        boards.append(page.inner_html("#board"))
    assert boards[0] == boards[1]
