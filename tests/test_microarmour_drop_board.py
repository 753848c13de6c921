"""Micro Armour board text of the paratroop landing group (RULES.md "Paratroops", "On the
boards and in the evaluation"; "Reading the board"): the stands still in the aircraft, the
ones lost, and the plotted drop zone, as far as the reader may know it. Hand-built
positions in the `airdrop` scenario (tests/test_microarmour_paratroops.py's helpers);
each test quotes the digest words it checks (/work/shared/seeds/micro-armour.txt,
Airborne landings)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_paratroops import at_plot, drop_state, play  # noqa: E402

H = 20                                   # the airdrop table's height (rows y = 19 .. 0)


def square(text, x, y):
    """The map character at (x, y) of a board text (line 1 is y = 19)."""
    return text.splitlines()[H - y][3 + x]


def airborne(text):
    lines = [ln for ln in text.splitlines() if ln.startswith("airborne")]
    assert len(lines) <= 1
    return lines[0] if lines else None


def zone_marks(text):
    return {(x, y) for y in range(H) for x in range(30) if square(text, x, y) == "#"}


def test_the_waiting_group_is_listed_beside_the_map():
    """'Paratrooper stands of a landing group must determine "if they arrive"': before the
    drop they are in the aircraft, off the table: not on the map, not in the stand lines,
    one line `airborne (turn 2): fja fjb fjc fjhq` for both players (the group is public)."""
    st = at_plot()
    for text in (str(st), st.observation_string(0), st.observation_string(1)):
        assert airborne(text) == "airborne (turn 2): fja fjb fjc fjhq"
        assert not any(ln.lstrip().startswith(("fja ", "fjb ", "fjc ")) for ln in text.splitlines())
        assert not zone_marks(text)


def test_the_plotted_zone_shows_to_its_owner_only():
    """'Drop and landing zones are secretly plotted in clear terrain': the German sees his
    zone's 3" block (`#` on its clear squares) and its square in the line; the Soviet reads
    `drop zone hidden` and no `#`; two truths with different plots give him the same text."""
    a, b = at_plot(), at_plot()
    play(a, "drop 13,13")
    play(b, "drop 1,1")
    for text in (str(a), a.observation_string(0)):
        assert airborne(text) == "airborne (turn 2): fja fjb fjc fjhq; drop zone 13,13 (block 12,12-14,14, # on the map)"
        # the block's clear squares; 14,13, 13,14 and 14,14 are hill and keep their `h`
        assert zone_marks(text) == {(12, 12), (13, 12), (14, 12), (12, 13), (13, 13), (12, 14)}
        assert square(text, 14, 13) == "h"
    opp = a.observation_string(1)
    assert airborne(opp) == "airborne (turn 2): fja fjb fjc fjhq; drop zone hidden"
    assert not zone_marks(opp)
    assert opp == b.observation_string(1)
    assert zone_marks(b.observation_string(0)) == {(x, y) for x in range(3) for y in range(3)}


def test_the_zone_shows_to_both_once_the_drop_is_seen():
    """The aircraft come over: the public `drop x,y` event opens the drop turn and both
    players see the zone from then on, until the last stand has landed."""
    st = drop_state(step="reveal", stand=None)
    assert "drop zone hidden" in airborne(st.observation_string(1))
    play(st, "drop 13,13")
    for text in (str(st), st.observation_string(0), st.observation_string(1)):
        assert airborne(text).endswith("drop zone 13,13 (block 12,12-14,14, # on the map)")
        assert (13, 13) in zone_marks(text)


def test_a_removed_stand_is_lost_not_waiting():
    """'For each stand, roll 1D20 ... and remove it on 20+': a removed stand is listed as
    lost, no longer among those waiting, and is never drawn on the map."""
    st = drop_state()
    play(st, "c:fail")
    for text in (str(st), st.observation_string(1)):
        assert airborne(text).startswith("airborne (turn 2): fjb fjc fjhq; lost: fja; drop zone 13,13")
        assert not any(ln.lstrip().startswith("fja ") for ln in text.splitlines())


def test_a_landed_stand_is_on_the_map_and_the_zone_is_spent():
    """'... "where" they land, and then "how safely" they land': a landed stand is drawn
    on its square (`I`, German personnel) and has its stand line; after the last landing
    the zone is spent (no `#`) and a group wholly down has no airborne line."""
    st = drop_state(step="direction")
    play(play(st, "dir:e"), "scatter:3")
    text = str(st)
    assert square(text, 16, 13) == "I"
    assert any(ln.lstrip().startswith("fja ") for ln in text.splitlines())
    assert airborne(text).startswith("airborne (turn 2): fjb fjc fjhq; drop zone 13,13")
    st = drop_state(step="landing", waiting=[], stand="fjc", landed={"fja": [12, 12], "fjb": [13, 12], "fjc": [13, 13], "fjhq": [14, 13]})
    play(st, "c:ok")
    text = str(st)
    assert airborne(text) is None and not zone_marks(text)
    assert square(text, 13, 13) == "I" and square(text, 12, 12) == "I"


def test_after_the_drop_only_the_lost_are_listed():
    """After the drop turn's landings the line keeps only what the board cannot show:
    the stands lost (removed on the arrival roll), `none waiting`."""
    st = drop_state(step="landing", waiting=[], stand="fjc", landed={"fja": [12, 12], "fjc": [13, 13], "fjhq": [14, 13]})
    play(st, "c:ok")                     # fjb never landed: removed
    assert airborne(str(st)) == "airborne (turn 2): none waiting; lost: fjb"



def test_the_airborne_line_and_zone_mark_are_in_the_legend():
    """RULES.md "Reading the board" explains every word and symbol of the airdrop boards
    (the `airborne` line, `#`) as tests/test_board_legends.py checks the Introductory's:
    a seeded random airdrop game through its drop (200 plies), full state and both views,
    and the hand-built drop positions above."""
    import random
    import re
    import test_board_legends as lg
    import ardsearch
    from ardsearch.games.microarmour import _engine
    from ardsearch.random_walk import random_walk
    game = ardsearch.load_game("microarmour", scenario="airdrop", deployment="close")
    st = game.new_initial_state(3)
    d = st.to_dict()
    names = {s["id"] for s in d["stands"]} | {s["type"] for s in d["stands"]}
    cfg = lg.CONFIG["microarmour"]()
    cfg["names"] = re.compile("|".join((cfg["names"].pattern, lg._names_re(names).pattern,
                                        re.escape(_engine.SCENARIOS[_engine.SCENARIO_NAMES.index("airdrop")]["title"]))))
    rng = random.Random(3)
    lines = set()
    extra = [drop_state(), play(drop_state(), "c:fail"), play(play(drop_state(step="direction"), "dir:e"), "scatter:3")]
    for _ in range(200):
        for s in [st] + extra:
            lines.update(ln for b in (str(s), s.observation_string(0), s.observation_string(1)) for ln in b.splitlines())
        extra = []
        random_walk(st, 1, rng)
    assert any(ln.startswith("airborne (turn 2): fja fjb fjc fjhq; drop zone") for ln in lines)
    assert any(ln.startswith("airborne (turn 2): none waiting") or "lost:" in ln for ln in lines)
    legend = lg.legend_text("microarmour")
    known = lg.mentioned_symbols(legend)
    prose = re.sub(r"```.*?```", "", legend, flags=re.S)
    missing = {}
    for line in sorted(lines):
        symbols, words = lg.tokens(line, cfg)
        for s in symbols - known:
            missing.setdefault(f"symbol {s!r}", line)
        for w in words:
            if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(w)}(?![A-Za-z0-9_])", prose, flags=re.I):
                missing.setdefault(f"word {w!r}", line)
    assert not missing, missing
