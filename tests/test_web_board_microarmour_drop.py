"""Micro Armour's web board draws the paratroop landing group (RULES.md "Paratroops",
"On the boards and in the evaluation") in a real browser: the stands still in the
aircraft in a strip above the map (a parachute badge with their drop turn), the ones
lost on the arrival roll crossed out, and the plotted drop zone's 3" block: to the side
that plotted it, to both once the public `drop x,y` event opens the drop turn, never to
the opponent before (his view reads the zone as "hidden", so two truths with different
plots draw byte-identical boards for him). Digest, Airborne landings: "Drop and landing
zones are secretly plotted in clear terrain. For each stand, roll 1D20 ... and remove
it on 20+."

Positions: tests/test_microarmour_paratroops.py's hand-built airdrop states. Same
fixtures and helpers as tests/test_web_board_microarmour_rules12.py;
ARDSEARCH_SCREENSHOTS=DIR keeps a picture of each board."""
import json

from test_web_browser import browser, pytestmark, server  # noqa: F401 (fixtures; skipped without Chromium)
from test_web_board_microarmour_support import CLICK, legend_text, render, shot, svg_text
from test_web_board_microarmour_rules12 import one_page, outer, page  # noqa: F401 (the module's one page)
from test_microarmour_paratroops import at_plot, drop_state, play

STRIP = "#board svg [data-airborne-strip]"


def airborne_ids(page, state):
    return page.eval_on_selector_all(f"{STRIP} [data-airborne][data-drop-state={state}]",
                                     "ns => ns.map(n => n.getAttribute('data-airborne'))")


def test_the_group_waits_above_the_map_with_its_drop_turn(page):
    """'Paratrooper stands of a landing group must determine "if they arrive"': before the
    drop the four stands (the HQ among them) are in the aircraft: counters in the strip above the map, each
    with its `t2` badge, none on the table (no data-stand, nothing to click), the line
    below the map and a key entry saying so; both seats see the group."""
    st = at_plot()
    for seat in (0, 1):
        render(page, st.view(seat).to_dict())
        assert airborne_ids(page, "waiting") == ["fja", "fjb", "fjc", "fjhq"]
        assert page.locator("#board svg [data-stand=fja]").count() == 0
        assert page.locator("#board svg [data-drop-zone]").count() == 0
        badges = page.eval_on_selector_all(f"{STRIP} [data-airborne]", "ns => ns.map(n => n.textContent)")
        assert all("t2" in b for b in badges)
        text = svg_text(page)
        assert "German airborne, drop turn 2: waiting fja, fjb, fjc, fjhq · drop zone not plotted yet" in text
        assert "airborne: in the aircraft above the map, drops at the start of turn t" in legend_text(page)
    shot(page, "microarmour-drop-before-plot")


def test_the_owner_plots_by_clicking_a_clear_block_centre(page):
    """'Drop and landing zones are secretly plotted in clear terrain': in the Joint Plot
    phase the owner's legal `drop x,y` squares light up and a click plays that plot."""
    st = at_plot()
    legal = [st.action_to_string(a) for a in st.legal_actions()]
    assert all(m.startswith("drop ") for m in legal)
    page.evaluate(CLICK, json.loads(json.dumps([st.view(0).to_dict(), legal])))
    assert page.locator("#board svg [data-target^='sq:']").count() == len(legal)
    page.locator("#board svg [data-target='sq:13,13']").click()
    assert page.evaluate("window.__played") == "drop 13,13"


def test_two_plots_behind_one_view_draw_byte_identical_boards(page):
    """'Secretly plotted': two truths that differ only in the German plot (13,13 or 1,1)
    draw the same Soviet board byte for byte, with no zone on it and `?` in the line;
    each German board draws its own zone's block."""
    a, b = at_plot(), at_plot()
    play(a, "drop 13,13")
    play(b, "drop 1,1")
    svgs = []
    for st in (a, b):
        render(page, st.view(1).to_dict())
        svgs.append(outer(page))
    assert svgs[0] == svgs[1]
    assert page.locator("#board svg [data-drop-zone]").count() == 0
    assert "drop zone: ? (plotted, secret until the drop)" in svg_text(page)
    for word in ("data-drop-zone", "drop zone (the 3", "drop zone 13", "drop zone 1,"):    # (squares' tooltips name 13,13)
        assert word not in svgs[0], word
    shot(page, "microarmour-drop-plotted-soviet")
    for st, zone in ((a, "13,13"), (b, "1,1")):
        render(page, st.view(0).to_dict())
        assert page.eval_on_selector_all("#board svg [data-drop-zone]", "ns => ns.map(n => n.getAttribute('data-drop-zone'))") == [zone]
        assert f"drop zone {zone}" in svg_text(page)
        assert "drop zone (the 3\" block" in legend_text(page)
    shot(page, "microarmour-drop-plotted-german")


def test_the_zone_shows_to_both_once_the_drop_is_seen(page):
    """The drop turn opens with the public `drop x,y` event: from then on the Soviet
    board draws the zone too (its block spans 12..14 by 12..14)."""
    st = drop_state(step="reveal", stand=None)
    render(page, st.view(1).to_dict())
    assert page.locator("#board svg [data-drop-zone]").count() == 0
    play(st, "drop 13,13")
    render(page, st.view(1).to_dict())
    z = page.locator("#board svg [data-drop-zone='13,13']")
    assert z.count() == 1
    assert "the 3\" block 12,12 to 14,14" in z.text_content()
    play(play(play(play(st, "c:ok"), "c:ok"), "dir:e"), "scatter:3")     # fja down at 16,13; the zone stays
    render(page, st.view(1).to_dict())
    assert page.locator("#board svg [data-stand=fja]").count() == 1
    assert page.locator("#board svg [data-drop-zone='13,13']").count() == 1
    assert airborne_ids(page, "waiting") == ["fjb", "fjc", "fjhq"]
    shot(page, "microarmour-drop-landing-soviet")


def test_a_removed_stand_is_shown_lost(page):
    """'For each stand, roll 1D20 ... and remove it on 20+': a removed stand is crossed
    out in the strip ("lost"), no longer waiting; the next waits for its roll."""
    st = drop_state()
    play(st, "c:fail")
    render(page, st.view(1).to_dict())
    assert airborne_ids(page, "waiting") == ["fjb", "fjc", "fjhq"]
    assert airborne_ids(page, "lost") == ["fja"]
    assert "lost fja" in svg_text(page)
    assert "airborne stand lost (removed on its arrival roll)" in legend_text(page)
    shot(page, "microarmour-drop-lost")


def test_after_the_landing_the_stands_are_on_the_table(page):
    """'... "where" they land, and then "how safely" they land': landed stands are
    counters on their squares; after the last landing the zone is spent and the strip
    is gone; a stand removed on its arrival roll is still listed as lost below the map."""
    st = drop_state(step="landing", waiting=[], stand="fjc", landed={"fja": [12, 12], "fjc": [16, 13]})
    play(st, "c:ok")
    for seat in (0, 1):
        render(page, st.view(seat).to_dict())
        assert page.locator("#board svg [data-stand=fja]").count() == 1
        assert page.locator("#board svg [data-stand=fjc]").count() == 1
        assert page.locator(STRIP).count() == 0 and page.locator("#board svg [data-drop-zone]").count() == 0
        assert "German airborne, drop turn 2: none waiting · lost fjb" in svg_text(page)
    shot(page, "microarmour-drop-landed")


def test_the_server_serves_board_drop():
    """docs/web.md: board.js imports its board_<concern>.js modules from beside it;
    board_drop.js is one of them."""
    from starlette.testclient import TestClient
    from ardsearch.web.server import create_app
    with TestClient(create_app(max_searches=1)) as client:
        r = client.get("/games/microarmour/board_drop.js")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert "export function drawDropZone" in r.text
