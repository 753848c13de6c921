"""The SVG boards of Stand at Mortain and Stosstruppen (each game's
board.js) in headless Chromium (their embedded data is checked by
tests/test_web_files.py).

docs/web.md, "A game's board": "Each game draws itself ... `ui.selected`
holds the board's selection across redraws ..., `ui.offer(moves)` lists
moves as buttons, `ui.play(move)` plays one." The issue: "Mortain's hex map
with terrain, counters (full/reduced), the card just drawn and the deck
count; ... Stosstruppen's grid with terrain, trenches, wire, barrages ... A
legend for every symbol."

The browser fixtures are those of tests/test_web_browser.py (same server,
same no-page-error check)."""
import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
from test_web_browser import CHROMIUM, browser, page, server, shot, start, wait_my_turn  # noqa: E402,F401  (fixtures)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)")


def history_length(page):
    return page.locator("#history li").count()


def until_a_unit_is_clickable(page, unit_selector, tries=12):
    """Plays the first listed move (pass, done, ...) until the board offers a
    unit to click: some phases have no unit moves (a Rally card, a card the
    player may only pass)."""
    for _ in range(tries):
        wait_my_turn(page)
        assert "Game over" not in page.inner_text("#status")
        if page.locator(f"#board {unit_selector}.clickable").count():
            return
        before = history_length(page)
        page.locator("#candidates button.move").first.click()
        page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
    raise AssertionError("no unit became clickable")


def click_unit_then_target(page, unit_selector):
    """Clicks the first clickable unit, checks that its targets light up and
    the offered moves are its own, then clicks the first target: the move is
    played (or, when several fit, offered and the first one played). Returns
    the offered moves and the move played."""
    unit = page.locator(f"#board {unit_selector}.clickable").first
    unit.click()
    page.wait_for_selector("#board .target")
    assert page.locator("#board .sel").count() >= 1
    offered = page.locator("#candidates button.move").all_inner_texts()
    head = page.inner_text("#candidates")
    plural = "s" if len(offered) != 1 else ""
    assert offered and f"{len(offered)} move{plural} for the selection" in head
    before = history_length(page)
    target = page.locator("#board .target").first
    box = target.bounding_box()
    # a real click near the bottom edge of the lit hex or square, beside any counter standing on it
    target.click(position={"x": box["width"] / 2, "y": box["height"] * 0.945})
    try:
        page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}", timeout=3000)
    except playwright_api.TimeoutError:
        # several moves fit that target (the Tiger may ride along, a second unit may fire): offered
        narrowed = page.locator("#candidates button.move").all_inner_texts()
        assert narrowed and set(narrowed) <= set(offered)
        page.locator("#candidates button.move").first.click()
        page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
    played = page.locator("#history li").nth(before).inner_text()
    return offered, played


def assert_svg_board(page, words):
    assert page.locator("#board svg").count() == 1, "the board fell back to text"
    assert page.locator("#board pre.board-text").count() == 0
    text = page.locator("#board svg").text_content()
    for w in words:
        assert w in text, f"the board does not show {w!r}"


def test_mortain_board_click_to_move(page):
    """The issue: "Mortain's hex map with terrain, counters (full/reduced),
    the card just drawn and the deck count ... A legend for every symbol."
    docs/web.md: clicking a unit selects it, its legal destinations light up
    and a click on one plays the move."""
    start(page, "mortain", side="0", opponent="random", seed="5")
    until_a_unit_is_clickable(page, "g[data-unit]")
    assert_svg_board(page, ["Deck:", "cards left", "Card in play", "Key", "forest", "village", "city", "hill",
                            "reduced", "Turn", "Exits"])
    assert page.locator("#board g[data-hex]").count() == 13 * 9
    offered, played = click_unit_then_target(page, "g[data-unit]")
    move = played.split(": ", 1)[1].split("  (")[0]
    assert move in offered
    shot(page, "board-mortain")


def test_stosstruppen_board_click_to_move(page):
    """The issue: "Stosstruppen's grid with terrain, trenches, wire, barrages
    ... A legend for every symbol." docs/web.md: clicking a unit selects it,
    its legal destinations or targets light up and a click on one plays it."""
    start(page, "stosstruppen", side="0", opponent="random", seed="5")
    until_a_unit_is_clickable(page, "g[data-unit]")
    assert_svg_board(page, ["Sequence deck", "Key", "trench", "barbed wire", "barrage", "objective", "pinned",
                            "suppressed", "morale"])
    assert page.locator("#board g[data-square]").count() >= 16 * 12
    offered, played = click_unit_then_target(page, "g[data-unit]")
    move = played.split(": ", 1)[1].split("  (")[0]
    assert move in offered
    shot(page, "board-stosstruppen")


@pytest.mark.parametrize("game", ["mortain", "stosstruppen"])
def test_an_earlier_position_is_not_clickable(page, game):
    """docs/web.md: "`snapshot.past` is true when the board shows an earlier
    position (jump-to-ply): no clicking then." The board still draws it."""
    start(page, game, side="0", opponent="random", seed="6")
    until_a_unit_is_clickable(page, "g[data-unit]")
    page.locator("#history li").first.click()          # "start": the position before any event
    page.wait_for_function("document.querySelector('#status').textContent.includes('position after event')")
    assert page.locator("#board svg").count() == 1
    assert page.locator("#board .clickable").count() == 0
    assert page.locator("#board .target").count() == 0


def test_stosstruppen_barrage_marker_is_placed_by_clicking(page):
    """RULES.md (Barrages and air support): "In their Fire phase a player may
    place any of their barrage markers on a square in line of sight of one of
    their units (`barrage <sq>`)". The marker in hand is a chip on the board:
    clicking it lights the squares it may go to; clicking one places it, and
    the placed marker is drawn on that square."""
    start(page, "stosstruppen", side="0", opponent="random", seed="21")
    for _ in range(40):
        wait_my_turn(page)
        assert "Game over" not in page.inner_text("#status")
        if page.locator("#board [data-marker=barrage]").count():
            break
        before = history_length(page)
        done = page.locator("#candidates button.move", has_text="done")
        (done if done.count() else page.locator("#candidates button.move")).first.click()
        page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
    else:
        raise AssertionError("no German Fire phase with a barrage marker in hand")
    page.click("#board [data-marker=barrage]")
    offered = page.locator("#candidates button.move").all_inner_texts()
    assert offered and all(m.startswith("barrage ") for m in offered)
    assert page.locator("#board .target").count() == len(offered)
    before = history_length(page)
    target = page.locator("#board .target").first
    box = target.bounding_box()
    target.click(position={"x": box["width"] / 2, "y": box["height"] * 0.945})
    page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
    played = page.locator("#history li").nth(before).inner_text()
    assert "barrage " in played
    square = played.split("barrage ", 1)[1].split()[0]
    page.wait_for_selector(f"#board g[data-placed=barrage][data-at={square}]")
