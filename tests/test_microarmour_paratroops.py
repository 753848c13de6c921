"""Micro Armour: paratroop drops (RULES.md "Paratroops"), hand-built positions in
the `airdrop` scenario, each test quoting the digest words it checks
(/work/shared/seeds/micro-armour.txt, Airborne landings)."""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402

GAME = ardsearch.Game(SPEC, {"scenario": "airdrop", "turns": 4, "deployment": "close"})   # close: no stand off its edge
GROUP = ["fja", "fjb", "fjc", "fjhq"]


def at_plot(game=GAME):
    """Random-free path to turn 1's Joint Plot phase: every decision passes, every chance takes its first outcome."""
    st = game.new_initial_state(seed=1)
    while st.to_dict()["drop"]["step"] != "plot":
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            acts = st.legal_actions()
            st.apply_action(257 if 257 in acts else acts[0])      # pass where it can
    return st


def drop_state(step="arrive", zone=(13, 13), stand="fja", waiting=GROUP, direction=None, landed=None, moves=None,
               game=GAME):
    """The drop turn's opening with the landing group at `step` (`landed`: {id: [x, y]} already down,
    `moves`: {id: [x, y]} other stands placed)."""
    d = at_plot(game).to_dict()
    d.update(turn=2, phase="initiative")
    if direction is None:
        direction = "distance_on_target" if step == "direction" else "n"
    d["drop"] = {**d["drop"], "waiting": list(waiting), "zone": list(zone), "step": step, "stand": stand,
                 "direction": direction}
    for s in d["stands"]:
        if s["id"] in (landed or {}):
            s.update(alive=True, at=list(landed[s["id"]]))
        if s["id"] in (moves or {}):
            s["at"] = list(moves[s["id"]])
    return game.state_from_dict(d)


def outcomes(st):
    return {st.action_to_string(a): p for a, p in st.chance_outcomes()}


def play(st, text):
    st.apply_action(st.string_to_action(text))
    return st


def stand(st, sid):
    return next(s for s in st.to_dict()["stands"] if s["id"] == sid)


def test_the_landing_group_waits_off_the_table():
    """'Paratrooper stands of a landing group must determine "if they arrive," "where"
    they land, and then "how safely" they land': until they land they are not in play."""
    d = GAME.new_initial_state(seed=3).to_dict()
    assert d["drop"]["waiting"] == GROUP
    assert all(not s["alive"] for s in d["stands"] if s["id"] in GROUP)


def test_the_drop_zone_is_plotted_in_clear_terrain_and_hidden():
    """'Drop and landing zones are secretly plotted in clear terrain', 'pre-plotted the
    same way' as bombing airstrikes: the owner picks a clear 3-inch block centre in the
    Joint Plot phase; the opponent sees neither the choice nor the zone."""
    st = at_plot()
    assert st.current_player() == 0 and st.to_dict()["phase"] == "plot"
    rows = st.to_dict()["table"]["rows"]
    h = len(rows)
    for a in st.legal_actions():
        x, y = map(int, st.action_to_string(a).split()[1].split(","))
        assert rows[y][x] == "."                         # clear on the map (rows from y = 0)
    assert "drop 16,10" not in {st.action_to_string(a) for a in st.legal_actions()}   # the road/village row
    a, b = st.clone(), st.clone()
    play(a, "drop 1,1")
    play(b, "drop 28,19")
    assert a.view(1).raw() == b.view(1).raw()
    assert a.view(0).raw() != b.view(0).raw()
    assert a.view(1).to_dict()["drop"]["zone"] == "hidden"
    assert a.masked_history(1)[-1] == "?"
    seen = {tuple(a.resample_from_infostate(1, seed=k).to_dict()["drop"]["zone"]) for k in range(30)}
    assert len(seen) > 1                                  # an unknown plot is dealt, not copied


def test_the_zone_is_revealed_when_the_drop_turn_opens():
    """The landings are seen by both players: the drop turn opens with a public event
    (one outcome in the full state) naming the plotted zone."""
    st = drop_state(step="reveal", stand=None)
    assert outcomes(st) == {"drop 13,13": 1.0}
    v = st.view(1)
    assert v.to_dict()["drop"]["zone"] == "hidden"
    play(st, "drop 13,13")
    assert st.view(1).to_dict()["drop"]["zone"] == [13, 13]
    assert st.to_dict()["drop"]["step"] == "arrive"


def test_arrival_is_1d20_plus_modifiers_removed_on_20():
    """'For each stand, roll 1D20 (modified by night, wind, AA, aircraft type) and remove
    it on 20+': the scenario's +2 loses a stand on 18, 19, 20 (3 in 20)."""
    st = drop_state()
    assert outcomes(st) == pytest.approx({"c:ok": 17 / 20, "c:fail": 3 / 20})
    play(st, "c:fail")
    d = st.to_dict()
    assert d["drop"]["waiting"] == ["fjb", "fjc", "fjhq"] and d["drop"]["stand"] == "fjb"
    assert not stand(st, "fja")["alive"]


def test_night_adds_to_the_arrival_roll():
    """'modified by night': design +2 at night, so +4 in all here (5 in 20 lost)."""
    g = ardsearch.Game(SPEC, {"scenario": "airdrop", "turns": 4, "deployment": "close", "night": "night"})
    st = drop_state(game=g)
    assert outcomes(st)["c:fail"] == pytest.approx(5 / 20)


def test_a_cohesion_roll_picks_the_scatter_die():
    """'A cohesion roll then decides scatter: 1D8 for direction and a distance die set by
    jump conditions (1D8/2 'On Target' up to 4D6 'Hot Combat Jump')': success scatters
    1D8/2 (1..4 inches), failure the scenario's 'Hot Combat Jump' 4D6 (4..24)."""
    st = drop_state(step="cohesion")
    assert outcomes(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})     # German cohesion 15
    ok = play(st.clone(), "c:ok")
    assert outcomes(ok) == pytest.approx({f"dir:{d}": 1 / 8 for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw")})
    assert outcomes(play(ok, "dir:e")) == pytest.approx({f"scatter:{k}": 1 / 4 for k in range(1, 5)})
    bad = play(play(st, "c:fail"), "dir:e")
    o = outcomes(bad)
    assert set(o) == {f"scatter:{k}" for k in range(4, 25)}
    assert o["scatter:14"] == pytest.approx(146 / 1296) and o["scatter:4"] == pytest.approx(1 / 1296)


def test_a_stand_lands_where_it_scatters():
    """'1D8 for direction and a distance die': 3 inches east of the zone (13, 13) is (16, 13)."""
    st = drop_state(step="direction")
    play(play(st, "dir:e"), "scatter:3")
    s = stand(st, "fja")
    assert s["alive"] and s["at"] == [16, 13]
    assert st.to_dict()["drop"]["step"] == "landing"


def test_landing_on_a_stand_moves_to_the_nearest_free_square():
    """'landing on an enemy may trigger a close assault': design, the stand comes down on
    the nearest free square instead (ring by ring from the south-west)."""
    st = drop_state(step="direction", moves={"t34a": [16, 13]})
    play(play(st, "dir:e"), "scatter:3")
    assert stand(st, "fja")["at"] == [15, 12]


def test_scatter_off_the_table_lands_on_its_edge():
    """Design (the digest is silent): a stand blown off the table comes down on its edge."""
    st = drop_state(step="direction", zone=(28, 13), direction="distance_jump")
    play(play(st, "dir:e"), "scatter:20")
    assert stand(st, "fja")["at"] == [29, 13]


@pytest.mark.parametrize("way,terrain_xy,flag", [("w", (11, 13), "suppressed"), ("e", (16, 13), "disorganized")])
def test_a_bad_landing_is_s_in_clear_and_d_elsewhere(way, terrain_xy, flag):
    """'Landing terrain is then checked with another cohesion roll': design, a failure
    leaves the stand S in clear terrain and D anywhere else (a hill at (16, 13))."""
    st = drop_state(step="direction")
    play(play(st, f"dir:{way}"), f"scatter:{abs(terrain_xy[0] - 13)}")
    assert stand(st, "fja")["at"] == list(terrain_xy)
    assert outcomes(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    play(st, "c:fail")
    s = stand(st, "fja")
    assert s[flag] and not s["suppressed" if flag == "disorganized" else "disorganized"]
    assert st.to_dict()["drop"]["stand"] == "fjb"


def test_the_drop_ends_and_the_turn_goes_on():
    """After the last stand the drop zone is spent and the turn's initiative follows."""
    st = drop_state(step="landing", waiting=[], stand="fjc", landed={"fjc": [13, 13]})
    play(st, "c:ok")
    d = st.to_dict()
    assert d["drop"]["step"] == "none" and d["drop"]["zone"] is None and d["drop"]["waiting"] == []
    assert st.is_chance_node() and d["phase"] == "initiative"


def test_reference_model_agrees_on_a_drop():
    """The reference model reads the same drop position and gives the same outcomes."""
    st = drop_state(step="cohesion")
    m = ref.from_dict(st.to_dict())
    assert {k: float(v) for k, v in m.chances().items()} == pytest.approx(outcomes(st))


def test_validate_refuses_corrupt_drop_fields():
    """validate() names what is wrong: a waiting stand that is alive, a zone off a clear block centre."""
    d = drop_state().to_dict()
    bad = {**d, "stands": [dict(s, alive=True) if s["id"] == "fjb" else s for s in d["stands"]]}
    with pytest.raises(ValueError, match="waiting to drop"):
        GAME.state_from_dict(bad)
    with pytest.raises(ValueError, match="clear 3-inch block"):
        GAME.state_from_dict({**d, "drop": {**d["drop"], "zone": [14, 13]}})
