"""Micro Armour's web board draws the outpost scenario (hidden set-up, dummies,
minefields and transports together; RULES.md "Transport, minefields and hidden
set-up") in a real browser: hidden markers (`?` in the enemy's view, a dashed
edge and `dummy` on the owner's side), minefield markers (`!` not known, the
kind's letter on the record sheet, `M` revealed real, removed ones gone), the
cargo aboard each carrier (`+n`), the hedgerows and the bridge, and a legend
entry for each. With ARDSEARCH_SCREENSHOTS=DIR a picture of each board is kept
to look at. Same fixtures as tests/test_web_browser.py."""
import ardsearch

from test_web_board_microarmour_support import legend_text, render, shot
from test_web_browser import browser, page, server  # noqa: F401 (fixtures)

GAME = ardsearch.load_game("microarmour", scenario="outpost")


def test_the_german_view_shows_markers_not_what_they_are(page):
    """Digest: "Stands placed out of sight in blocking or concealing terrain may be
    recorded secretly" and the Minefield Record Sheet: the German view at the start
    draws nine `?` markers and six minefield markers whose kind it does not know;
    its three half-tracks carry their cargo (+1, +1, +2)."""
    view = GAME.new_initial_state(seed=0).view(0).to_dict()
    svg = render(page, view)
    shot(page, "microarmour_outpost_german")
    assert svg.locator("[data-hidden=marker]").count() == 9
    assert svg.locator("[data-dummy]").count() == 0
    assert svg.locator("[data-minefield][data-kind=unknown]").count() == 6
    cargo = {svg.locator("[data-cargo]").nth(i).get_attribute("data-cargo")
             for i in range(svg.locator("[data-cargo]").count())}
    assert cargo == {"pgra", "pgrb", "pion,pak"}
    assert svg.locator("[data-stand=pgra]").count() == 0          # cargo rides unseen
    legend = legend_text(page)
    for words in ("minefield marker", "unspotted enemy marker", "carrying stands", "hedgerow", "bridge"):
        assert words in legend


def test_the_soviet_view_shows_its_record_sheets(page):
    """The Soviet player's own view: its markers with a dashed edge, the three
    dummies marked `dummy`, its minefields by kind (two dummies, four real; the
    real ones lettered h / s / c by their kind)."""
    view = GAME.new_initial_state(seed=0).view(1).to_dict()
    svg = render(page, view)
    shot(page, "microarmour_outpost_soviet")
    assert svg.locator("[data-dummy]").count() == 3
    assert svg.locator("[data-hidden=own]:not([data-dummy])").count() == 6
    kinds = sorted(svg.locator("[data-minefield]").nth(i).get_attribute("data-kind") for i in range(6))
    assert kinds == ["dummy", "dummy", "real", "real", "real", "real"]


def test_a_revealed_field_and_a_removed_dummy(page):
    """Digest: "Only then is the marker revealed as a dummy (removed) or real": the
    revealed standard field (9,10) is drawn `M` with the loaded half-track on it; the
    dummy marker (9,11), revealed, is gone from the table."""
    d = GAME.new_initial_state(seed=0).to_dict()
    for m in d["minefields"]:
        if m["at"] == [9, 10]:
            m["revealed"] = True
        if m["at"] == [9, 11]:
            m.update(revealed=True, removed=True)
    for st in d["stands"]:
        if st["id"] in ("htka", "pgra"):
            st["at"] = [9, 10]
    state = GAME.state_from_dict(d)
    svg = render(page, state.view(0).to_dict())
    shot(page, "microarmour_outpost_revealed")
    field = svg.locator("[data-minefield='9,10']")
    assert field.get_attribute("data-kind") == "revealed" and "M" in field.text_content()
    assert svg.locator("[data-minefield='9,11']").count() == 0
    assert svg.locator("[data-minefield][data-kind=unknown]").count() == 4
    assert svg.locator("[data-stand=htka] [data-cargo=pgra]").count() == 1
