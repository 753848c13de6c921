"""The SVG boards of Undaunted: Normandy and Micro Armour in a real browser.

Spec (docs/web.md, "A game's board"): a game draws itself in its folder's
board.js, "an ES module exporting render(element, snapshot, ui) and
belongs(move, selection)"; "A game without a board.js is shown as its text
board". The task (the web front end's boards): "clicking a unit ... selects
it (ui.selected), highlights its legal destinations/targets (class target,
selection sel) ... clicking a highlighted destination plays the move directly
when exactly one legal move matches", with "a small key/legend in the SVG".

Each test starts a game, checks that the board is an <svg> (not the text
fallback) with its key, plays until one of the player's units has targets on
the board, clicks the unit and then a target that stands for one move, and
checks that this move was played (the history grows by it). The `page`
fixture asserts that the page raised no error. Same fixtures as
tests/test_web_browser.py."""
import random

import pytest

from test_web_browser import browser, page, server, shot, start, type_move, wait_my_turn  # noqa: F401 (fixtures)

STATUS_DONE = "document.querySelector('#status').textContent.includes('Game over')"


def legal_moves(page):
    return page.eval_on_selector_all("#legal-list option", "os => os.map(o => o.value)")


def history_moves(page):
    return page.eval_on_selector_all("#history li", "lis => lis.map(li => li.textContent)")


def play_typed(page, move):
    before = page.locator("#history li").count()
    type_move(page, move)
    page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")


def single_move_targets(page):
    """The lit targets that stand for exactly one legal move: their tooltip
    (the <title> the board gives every target) lists the moves."""
    out = []
    for i in range(page.locator("#board svg [data-target]").count()):
        t = page.locator("#board svg [data-target]").nth(i)
        moves = t.evaluate("e => (e.querySelector(':scope > title') || {}).textContent || ''").split("  ")
        if len(moves) == 1 and moves[0]:
            out.append((t, moves[0]))
    return out


def board_is_svg(page):
    assert page.locator("#board svg").count() == 1, "the board fell back to text"
    assert page.locator("#board pre.board-text").count() == 0
    assert page.locator("#board svg [data-legend]").count() == 1, "the SVG has no key"


def click_a_unit_and_a_target(page, units, prefer, max_moves=150):
    """Play (random moves from `prefer` when it can) until one of `units`
    (a selector for the player's clickable units) lights up targets; click it,
    check .sel and .target, click a one-move target; returns that move."""
    rnd = random.Random(7)
    for _ in range(max_moves):
        wait_my_turn(page)
        if page.evaluate(STATUS_DONE):
            break
        board_is_svg(page)
        for i in range(page.locator(units).count() + 1):
            # i == 0: a unit the board selected by itself (a Micro Armour stand moving now)
            if i > 0:
                page.locator(units).nth(i - 1).click()
            if page.locator("#board svg .sel").count() and single_move_targets(page):
                assert page.locator("#board svg .target").count() >= 1
                assert page.locator("#candidates button.move").count() >= 1     # ui.offer listed its moves
                target, move = single_move_targets(page)[0]
                assert move in legal_moves(page)
                before = page.locator("#history li").count()
                target.click()
                page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
                return move
        legal = legal_moves(page)
        choices = [m for m in legal if prefer(m)] or legal
        play_typed(page, rnd.choice(choices))
    pytest.fail("no unit of the player lit a target on the board")


def test_undaunted_board_draws_tiles_cards_and_plays_by_clicking(page):
    """Undaunted (RULES.md, Reading the board): tiles with cover and
    objectives, control/scouted markers, tokens, own hand face up and the
    opponent's face down; clicking a token (its card) lights its targets."""
    start(page, "undaunted", side="0", opponent="random", seed="5")
    wait_my_turn(page)
    board_is_svg(page)
    assert page.locator("#board svg [data-tile]").count() == 12          # scenario 1's twelve tiles
    assert page.locator("#board svg [data-token]").count() == 8
    # the view hides the German hand: four card backs, never a German card face up in the hand
    assert page.locator("#board svg [data-army='1'] [data-card='hidden']").count() == 4
    assert page.locator("#board svg [data-army='1'] [data-zone='hand']").count() == 0
    assert page.locator("#board svg [data-army='0'] [data-zone='hand']").count() == 4
    move = click_a_unit_and_a_target(page, "#board svg [data-token^='0:'].clickable",
                                     prefer=lambda m: m != "end" and ":shelter" not in m)
    assert any(h.endswith(f": {move}") for h in history_moves(page)), move
    shot(page, "board-undaunted")


def test_microarmour_board_draws_the_table_and_plays_by_clicking(page):
    """Micro Armour (RULES.md, Reading the board): the table's terrain, stands
    with facing, posture and markers; clicking a stand lights its fire
    targets (or a moving stand's squares) and a click on one plays it."""
    start(page, "microarmour", params={"deployment": "close"})   # contact within a turn
    wait_my_turn(page)
    board_is_svg(page)
    # the scenario's 11 German and 12 Soviet stands, less the two Panzergrenadier platoons riding in
    # their half-tracks (RULES.md, Transport: cargo is not drawn, its carrier's marker stands there)
    assert page.locator("#board svg [data-stand]").count() == 21
    assert "total hidden" in page.inner_text("#board")                    # the Soviet card total is not in the view
    move = click_a_unit_and_a_target(page, "#board svg [data-side='german'].clickable",
                                     prefer=lambda m: m.startswith(("pass", "lead", "follow", "posture")))
    assert move.startswith(("fire ", "step ", "assault ", "overrun ")), move
    assert any(h.endswith(f": {move}") for h in history_moves(page)), move
    shot(page, "board-microarmour")


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_undaunted_tiles_touch_exactly_their_neighbours(page, scenario):
    """Undaunted RULES.md, The board in the browser: "the scenario's tiles
    touch as on the table, in rows offset by half a tile, so each tile
    touches exactly the tiles it is adjacent to" (adjacency: the scenario
    file, RULES.md Scenarios). Read back from the drawn tiles' rectangles."""
    import ardsearch
    page.select_option("#game", "undaunted")
    page.fill("[data-param='scenario']", str(scenario))
    page.select_option("#side", "0")
    page.select_option("#opponent", "random")
    page.fill("#seed", "2")
    page.click("#start")
    page.wait_for_selector("#board svg [data-tile]")
    rects = page.eval_on_selector_all(
        "#board svg [data-tile]",
        "gs => gs.map(g => { const r = g.querySelector('rect'); return [g.dataset.tile,"
        " +r.getAttribute('x'), +r.getAttribute('y'), +r.getAttribute('width'), +r.getAttribute('height')]; })")
    tiles = ardsearch.load_game("undaunted", scenario=scenario).new_initial_state(seed=2).to_dict()["tiles"]
    want = {frozenset((t["name"], n)) for t in tiles for n in t["adjacent"]}
    assert {r[0] for r in rects} == {t["name"] for t in tiles}
    w, h = rects[0][3], rects[0][4]
    touching = set()
    for a in rects:
        for b in rects:
            dx, dy = abs(a[1] - b[1]), abs(a[2] - b[2])
            beside = dy < 1 and w <= dx <= w + 8                      # same row, side by side
            above = h <= dy <= h + 8 and w / 2 - 1 <= dx <= w / 2 + 8  # next row, half a tile across
            if a[0] != b[0] and (beside or above):
                touching.add(frozenset((a[0], b[0])))
    assert touching == want
