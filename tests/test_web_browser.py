"""The web app in a real browser (headless Chromium driven by Playwright):
every game can be started, drawn and played by clicking, a spectator can
watch two bots, and a page never holds what its seat may not see.

Needs Chromium (Debian's `chromium` package; .ci/run installs it) and the
`playwright` package; skipped with a reason when either is missing. Set
ARDSEARCH_SCREENSHOTS=DIR to keep a screenshot of each game."""
import os
import shutil
import socket
import threading
import time

import pytest

import ardsearch

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install chromium)")


@pytest.fixture(scope="module")
def server():
    from ardsearch.web.server import create_app
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(max_searches=1), log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    # the skip is here too, not only in this module's pytestmark: the board test
    # modules that borrow these fixtures skip without Chromium as well
    if CHROMIUM is None:
        pytest.skip("needs Chromium (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture()
def page(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_selector("#game option", state="attached")
    yield page
    page.close()
    assert not errors, errors


def shot(page, name):
    folder = os.environ.get("ARDSEARCH_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"))


def start(page, game, side="0", opponent="random", seed="5", params=None):
    """Starts a game as a person does; `params` are game parameters chosen
    in the form (after the game: choosing a game resets them)."""
    page.select_option("#game", game)
    for name, value in (params or {}).items():
        page.select_option(f"#params [data-param={name}]", value)
    page.select_option("#side", side)
    page.select_option("#opponent", opponent)
    page.fill("#seed", seed)
    page.click("#start")
    page.wait_for_selector("#board > *")


def type_move(page, text):
    """Types a move in the notation box and plays it, as a person does."""
    page.fill("#notation", text)
    page.click("#play-typed")


def wait_my_turn(page):
    page.wait_for_function("document.querySelector('#status').textContent.includes('your move')"
                           " || document.querySelector('#status').textContent.includes('Game over')",
                           timeout=30000)


def assert_counted_head(page):
    """The line above the move buttons counts them in good English: "1 legal
    move:", "2 legal moves (click the board to narrow them):" (the buttons stop
    at 200; the count does not)."""
    head = page.inner_text("#candidates .note")
    n = int(head.split()[0])
    buttons = page.locator("#candidates button.move").count()
    assert buttons == min(n, 200)
    if n == 1:
        assert head == "1 legal move:", head
    else:
        assert head.startswith(f"{n} legal moves (click the board to narrow them):"), head


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_every_game_plays_by_clicking(page, name):
    """A person picks the game, side, opponent and seed, sees the board and
    plays moves by clicking; the history grows and the seed is shown."""
    start(page, name)
    wait_my_turn(page)
    assert "seed 5" in page.inner_text("#seed-shown")
    before = page.locator("#history li").count()
    for _ in range(3):
        wait_my_turn(page)
        if "Game over" in page.inner_text("#status"):
            break
        assert_counted_head(page)
        page.locator("#candidates button.move").first.click()
        page.wait_for_function(f"document.querySelectorAll('#history li').length > {before}")
        before = page.locator("#history li").count()
    shot(page, f"play-{name}")
    assert page.locator("#history li").count() > 1


def test_undo_hint_and_legend(page):
    start(page, "ardennes", opponent="random", seed="9")
    wait_my_turn(page)
    page.click("g[data-road='3']")
    page.locator("#candidates button.move", has_text="T3").click()
    page.wait_for_function("[...document.querySelectorAll('#history li')].some(li => li.textContent.includes('T3'))")
    page.click("#undo")
    page.wait_for_function("![...document.querySelectorAll('#history li')].some(li => li.textContent.includes('T3'))")
    page.click("#hint")
    page.wait_for_selector("#analysis table", timeout=30000)
    assert "Hint" in page.inner_text("#analysis")
    page.click("#legend-box summary")
    assert page.inner_text("#legend").strip()
    shot(page, "hint-ardennes")


def test_a_page_never_holds_the_opponents_hidden_objective(page, server):
    """Hidden information: the browser only receives its seat's view, so the
    opponent's objective card is nowhere in the page."""
    start(page, "ardennes", side="0", opponent="random", seed="12")
    wait_my_turn(page)
    game = ardsearch.load_game("ardennes")
    truth = game.new_initial_state(seed=12)
    from ardsearch.session import Session
    s = Session(game, ["human", "random"], 12)
    list(s.advance())
    theirs = s.state.to_dict()["objectives"]["germans"]
    mine = s.state.to_dict()["objectives"]["allies"]
    html = page.content()
    assert f"objective card {mine}" in html
    assert f"objective card {theirs}" not in html or theirs == mine
    assert "objective card: hidden" in html
    del truth


def test_watch_two_bots(page):
    start(page, "mortain", side="watch", opponent="greedy", seed="3")
    page.select_option("#speed", "instant")
    page.wait_for_function("document.querySelectorAll('#history li').length > 8", timeout=30000)
    page.click("#pause")
    shot(page, "watch-mortain")
    assert page.locator("#pause").inner_text() == "Resume"


def test_illegal_typed_move_shows_an_error(page):
    start(page, "mortain", seed="4")
    wait_my_turn(page)
    type_move(page, "nonsense 99")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert text.startswith("'nonsense 99' is not mortain notation (see RULES.md; legal here: ")
    assert text.count("nonsense 99") == 1


def test_a_contract_form_typed_in_micro_armour_shows_the_moves_to_write(page):
    """Micro Armour's RULES.md, Notation, "The contract's examples": `fire
    pz4a,pz4b>t34c` is refused "with the moves to write instead"; a person
    who types it in the browser reads them."""
    start(page, "microarmour", seed="3")
    wait_my_turn(page)
    type_move(page, "fire pz4a,pz4b>t34c")
    page.wait_for_selector("#error:not([hidden])")
    assert "'fire pz4a>t34c', 'fire pz4b>t34c', then 'go'" in page.inner_text("#error")
    shot(page, "microarmour-contract-form")


def test_mortain_free_setup_places_us_units_in_any_order(page):
    """Mortain's contract, Order of battle: "a chance-free setup phase in
    which the US player places each non-CC unit (one action per unit:
    `setup <unit> <hex>`)". A person who chooses setup=free and plays the US
    places the file's last unit first by typing it; the header counts the
    units still to place."""
    start(page, "mortain", side="1", seed="4", params={"setup": "free"})
    wait_my_turn(page)
    assert "8 units to place" in page.inner_text("#board")
    type_move(page, "setup 743 0604")
    page.wait_for_function("document.querySelector('#board').textContent.includes('7 units to place')")
    assert "setup 743 0604" in page.inner_text("#history")
    shot(page, "mortain-free-setup")


def test_micro_armour_pre_registered_points_are_recorded_in_a_real_game(page):
    """Micro Armour's contract: "pre-registered targets as hidden information".
    A person playing the Soviets in `barrage` against a bot sees the bot's two
    German points as `?`, clicks a cell's square (its one move, `prereg 4,10`,
    is played at once) and sees the point on its own board; the page never
    holds the German points (RULES.md, Indirect artillery)."""
    start(page, "microarmour", side="1", opponent="level-1", seed="3", params={"scenario": "barrage"})
    wait_my_turn(page)
    assert "pre-registered points (German): pre1 ? · pre2 ?" in page.inner_text("#board")
    page.locator("#board svg [data-target='sq:4,10']").click()
    page.wait_for_function("document.querySelector('#board').textContent.includes('pre1 4,10')")
    assert "prereg 4,10" in page.inner_text("#history")
    assert page.locator("#board svg [data-prereg='soviet:1']").count() == 1
    assert page.locator("#board svg [data-prereg^='german']").count() == 0
    page_html = page.content()               # the bot's book points, as moves or as points drawn
    assert "prereg 13,10" not in page_html and "prereg 22,16" not in page_html
    assert "pre-registered points (German): pre1 ? · pre2 ?" in page.inner_text("#board")
    shot(page, "microarmour-prereg-game")


def test_a_refused_move_in_the_browser_says_why(page):
    """Mortain's contract, Order of battle: the US "places each non-CC unit
    (one action per unit)", so a unit is placed once; the refusal a person
    reads in the browser names the reason (README, "A refused move says
    why"), not only that the move is illegal."""
    start(page, "mortain", side="1", seed="4", params={"setup": "free"})
    wait_my_turn(page)
    type_move(page, "setup 743 0604")
    page.wait_for_function("document.querySelector('#board').textContent.includes('7 units to place')")
    wait_my_turn(page)
    type_move(page, "setup 743 0605")
    page.wait_for_selector("#error:not([hidden])")
    assert "743 is already placed (on 0604): place another unit" in page.inner_text("#error")
    shot(page, "mortain-refusal-reason")


def test_the_opponent_list_shows_the_levels_by_name(page):
    """docs/web.md: the opponent is "a difficulty level by name, beginner to
    strongest ... or any other bot preset"; a game against a level starts."""
    labels = page.eval_on_selector_all("#opponent optgroup[label='Difficulty levels'] option",
                                       "els => els.map(e => e.textContent)")
    assert labels == ["beginner (level-1)", "novice (level-2)", "club (level-3)", "strong (level-4)",
                      "expert (level-5)", "strongest (level-6)"]
    page.select_option("#game", "ardennes")
    page.select_option("#opponent", "level-3")
    assert "Level 3 of 6, club" in page.get_attribute("#opponent", "title")
    start(page, "ardennes", opponent="level-1", seed="4")
    wait_my_turn(page)


def test_the_win_probability_bar_never_shows_a_made_up_estimate(page):
    """docs/web.md: "The bar shows the newest estimate there is, the bot's
    after its move or a hint's ... before either it says there is none yet"
    (it once showed 50% while the hint beside it said 67%)."""
    start(page, "ardennes", side="0", opponent="random", seed="9")
    wait_my_turn(page)
    assert "no estimate yet" in page.inner_text("#wp-text")
    shot(page, "wp-none")
    assert "unknown" in page.get_attribute("#wp-bar", "class")
    page.click("#hint")
    page.wait_for_selector("#analysis table", timeout=30000)
    hinted = page.inner_text("#analysis")
    percent = hinted.split("win probability ")[1].split("%")[0]
    played = page.locator("#history li").count() - 1     # the first item is "start"
    assert page.inner_text("#wp-text") == f"you: {percent}% (hint at move {played + 1})"
    assert "unknown" not in (page.get_attribute("#wp-bar", "class") or "")
    assert f"width: {percent}%" in page.get_attribute("#wp-fill", "style")   # the fill says what the label says
    page.wait_for_timeout(400)   # the fill's .3 s transition, for the screenshot
    shot(page, "wp-hint")


def test_the_win_probability_bar_shows_the_bots_estimate_after_its_move(page):
    """The bot's estimate, turned to the person's side, once the bot has moved:
    the history shows the bot's own chance after its move, the bar the rest."""
    start(page, "ardennes", side="1", opponent="mcts-fast", seed="9")
    wait_my_turn(page)
    text = page.inner_text("#wp-text")
    page.wait_for_timeout(400)
    shot(page, "wp-bot")
    assert text.startswith("you: ") and "(bot, after move " in text, text
    last = page.locator("#history li").last.inner_text()
    ply = int(last.split(".")[0])
    bot = int(last.rsplit("(", 1)[1].split("%")[0])
    mine = int(text.split("you: ")[1].split("%")[0])
    assert f"(bot, after move {ply})" in text
    # both sides round their own figure, so 1 - 0.455 may show 55 beside 46
    assert abs(mine - (100 - bot)) <= 1, (mine, bot)
    assert f"width: {mine}%" in page.get_attribute("#wp-fill", "style")


def test_an_undo_drops_a_hint_for_a_position_it_took_back(page):
    """docs/web.md: Undo takes back "your last move and the replies to it"; a
    hint asked after that move estimated a position that is gone, so the bar
    goes back to having no estimate."""
    start(page, "ardennes", side="0", opponent="random", seed="9")
    wait_my_turn(page)
    page.locator("#candidates button.move").first.click()
    page.wait_for_function("!document.querySelector('#undo').disabled")
    wait_my_turn(page)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#wp-text').textContent.includes('(hint at move')",
                           timeout=30000)
    page.click("#undo")
    page.wait_for_function("document.querySelector('#wp-text').textContent.includes('no estimate yet')")
