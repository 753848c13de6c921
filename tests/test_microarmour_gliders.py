"""Micro Armour: gliders and the paratroop HQ delay (RULES.md "Paratroops",
Gliders and The paratroop HQ), hand-built positions in the `airdrop` scenario,
each test quoting the digest words it checks (/work/shared/seeds/micro-armour.txt,
Airborne landings and Command)."""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC, _data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402
from test_microarmour_paratroops import drop_state, outcomes, play, stand  # noqa: E402


def game(jump="glider", **extra):
    return ardsearch.Game(SPEC, {"scenario": "airdrop", "turns": 4, "deployment": "close", "jump": jump, **extra})


GLIDER = game()
SNAFU = game("glider_snafu")

# Row y = 13 of the airdrop map (close deployment: the German pz4c at x = 9, the
# Soviet rflc at x = 20): clear from x = 4 to 13, a hill at x = 14..16.


# ----------------------------------------------------------------- gliders
@pytest.mark.parametrize("g,lo,hi,mode,p_mode", [(GLIDER, 2, 16, 9, 8 / 64), (SNAFU, 6, 20, 13, 8 / 64)])
def test_the_glider_tables_scatter_2d8_and_snafu_2d8_plus_4(g, lo, hi, mode, p_mode):
    """'a distance die set by jump conditions (1D8/2 'On Target' up to 4D6 'Hot Combat
    Jump'; glider tables up to 2D8+4 'SNAFU')': design, a glider failing its scatter roll
    scatters 2D8 (jump=glider) or 2D8+4 (jump=glider_snafu); passing, 'On Target' 1D8/2."""
    st = drop_state(step="cohesion", game=g)
    assert outcomes(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})
    ok = play(play(st.clone(), "c:ok"), "dir:e")
    assert outcomes(ok) == pytest.approx({f"scatter:{k}": 1 / 4 for k in range(1, 5)})
    o = outcomes(play(play(st, "c:fail"), "dir:e"))
    assert set(o) == {f"scatter:{k}" for k in range(lo, hi + 1)}
    assert o[f"scatter:{mode}"] == pytest.approx(p_mode)
    assert o[f"scatter:{lo}"] == pytest.approx(1 / 64) and o[f"scatter:{hi}"] == pytest.approx(1 / 64)
    assert sum(o.values()) == pytest.approx(1.0)


def test_a_glider_rolls_forward_an_inch_at_a_time():
    """'Gliders also roll forward 1" at a time': design, once down the glider rolls
    1D8/2 inches toward the enemy's edge (the German from the west rolls east), then
    takes its landing roll."""
    st = drop_state(step="direction", zone=(10, 13), game=GLIDER)
    play(play(st, "dir:e"), "scatter:1")
    assert stand(st, "fja")["at"] == [11, 13] and st.to_dict()["drop"]["step"] == "roll"
    assert outcomes(st) == pytest.approx({f"glide:{k}": 1 / 4 for k in range(1, 5)})
    play(st, "glide:2")
    assert stand(st, "fja")["at"] == [13, 13]
    assert st.to_dict()["drop"]["step"] == "landing"
    assert outcomes(st) == pytest.approx({"c:ok": 15 / 20, "c:fail": 5 / 20})


def test_a_parachute_drop_does_not_roll():
    """Only gliders 'also roll forward': a 'Hot Combat Jump' stand goes straight to its landing roll."""
    st = drop_state(step="direction", zone=(10, 13), game=game("hot"))
    play(play(st, "dir:e"), "scatter:1")
    assert stand(st, "fja")["at"] == [11, 13] and st.to_dict()["drop"]["step"] == "landing"


@pytest.mark.parametrize("why,moves,zone,scatter,glide,stop", [
    ("terrain", {}, (10, 13), 1, 3, [13, 13]),              # the hill at x = 14
    ("a stand", {"t34a": [12, 13]}, (10, 13), 1, 4, [11, 13]),
    ("the table edge", {}, (28, 13), 1, 1, [29, 13]),
])
def test_a_glider_stopped_short_crashes(why, moves, zone, scatter, glide, stop):
    """'Gliders also roll forward 1" at a time': each inch is checked; design, a square
    off the table, not open ground (clear, or a road over clear), impassable or holding a live stand stops the glider in the
    square before, crashed: a failed landing (S in clear terrain), no landing roll."""
    st = drop_state(step="direction", zone=zone, moves=moves, game=GLIDER)
    play(play(st, "dir:e"), f"scatter:{scatter}")
    play(st, f"glide:{glide}")
    s = stand(st, "fja")
    assert s["at"] == stop, why
    assert s["suppressed"] and not s["disorganized"]
    d = st.to_dict()["drop"]
    assert d["stand"] == "fjb" and d["step"] == "arrive"


def test_a_road_across_open_ground_stops_no_glider():
    """'Gliders also roll forward 1" at a time': design, a road whose underlying terrain
    is clear (charts.toml: terrain.road.under = "clear") is open ground for the roll, as
    the field it crosses; the airdrop map's road runs along y = 10. The reference model
    agrees."""
    st = drop_state(step="direction", zone=(4, 13), game=GLIDER)
    play(play(st, "dir:s"), "scatter:3")
    assert stand(st, "fja")["at"] == [4, 10] and st.to_dict()["drop"]["step"] == "roll"
    m = ref.from_dict(st.to_dict())
    m.apply("glide:4")
    play(st, "glide:4")
    assert stand(st, "fja")["at"] == [8, 10] and st.to_dict()["drop"]["step"] == "landing"
    assert ref.from_dict(st.to_dict()).to_dict() == m.to_dict()


def test_the_reference_model_agrees_on_a_glider_roll():
    """The reference model reads the same glider position and gives the same outcomes."""
    st = drop_state(step="direction", zone=(10, 13), game=GLIDER)
    play(play(st, "dir:e"), "scatter:1")
    m = ref.from_dict(st.to_dict())
    assert {k: float(v) for k, v in m.chances().items()} == pytest.approx(outcomes(st))
    m.apply("glide:3")
    play(st, "glide:3")
    assert m.to_dict() == st.to_dict()


def test_the_jump_parameter_needs_a_landing_group():
    """Error messages say what was wrong and what to do."""
    with pytest.raises(ValueError, match=r"no \[\[drop\]\] landing group.*scenario=airdrop"):
        ardsearch.Game(SPEC, {"jump": "glider"})
    with pytest.raises(ValueError):
        ardsearch.Game(SPEC, {"scenario": "airdrop", "jump": "balloon"})


def test_validate_refuses_a_parachute_roll_forward():
    d = drop_state(step="direction", zone=(10, 13), game=GLIDER)
    play(play(d, "dir:e"), "scatter:1")
    bad = d.to_dict()
    bad["drop"] = {**bad["drop"], "jump": "hot"}
    with pytest.raises(ValueError, match="roll forward in a parachute drop"):
        GLIDER.state_from_dict(bad)


# ----------------------------------------------------------------- the paratroop HQ
def test_the_paratroop_hq_takes_its_post_as_it_lands():
    """'lost paratroop HQs take 1D8/2 turns to replace': the landing group may hold an HQ
    (design: one); waiting in the aircraft it holds no post, landing it does."""
    d = GLIDER.new_initial_state(seed=3).to_dict()
    assert d["drop"]["hq"] == "fjhq" and "fjhq" in d["drop"]["waiting"]
    assert not stand(GLIDER.new_initial_state(seed=3), "fjhq")["hq"]
    st = drop_state(step="direction", stand="fjhq", waiting=["fjhq"], game=game("hot"))
    play(play(st, "dir:e"), "scatter:3")
    s = stand(st, "fjhq")
    assert s["alive"] and s["hq"] and s["at"] == [16, 13]


def advance(st, until, limit=3000):
    """Every decision passes (or takes the first action), every chance its first outcome
    (or the scripted one in `until`'s answer), until `until(st)` is True."""
    for _ in range(limit):
        if until(st):
            return st
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            acts = st.legal_actions()
            st.apply_action(257 if 257 in acts else acts[0])
    raise AssertionError("position not reached")


def delay_roll_due(st):
    return st.is_chance_node() and st.action_to_string(st.chance_outcomes()[0][0]).startswith("hq_delay:")


def lost_on_arrival(g):
    st = drop_state(step="arrive", stand="fjhq", waiting=["fjhq"], game=g)
    return play(st, "c:fail")


def test_a_paratroop_hq_removed_on_arrival_is_lost():
    """'remove it on 20+' and 'lost paratroop HQs take 1D8/2 turns to replace': design,
    the HQ that never arrives is a lost HQ: its post is empty and its delay is due."""
    st = lost_on_arrival(GLIDER)
    d = st.to_dict()
    assert d["hq_lost"] == [1, 0] and d["drop"]["hq_delay"] == "roll"
    assert not stand(st, "fjhq")["alive"] and d["drop"]["waiting"] == []


def test_the_delay_is_1d8_halved_rolled_in_the_marker_removal_phase():
    """'lost paratroop HQs take 1D8/2 turns to replace': the delay is a 1D8/2 roll (1..4,
    each 1 in 4), made in the marker removal phase before the command rolls (design)."""
    st = advance(lost_on_arrival(game("glider", turns=5)), delay_roll_due)
    d = st.to_dict()
    assert d["phase"] == "recovery" and d["turn"] == 2
    assert outcomes(st) == pytest.approx({f"hq_delay:{k}": 1 / 4 for k in range(1, 5)})
    assert not d["command_due"]["hq_replacement"][0]
    m = ref.from_dict(d)
    assert {k: float(v) for k, v in m.chances().items()} == pytest.approx(outcomes(st))


def replacement_turns(g, delay, turns):
    """The turns whose marker removal phase rolls the German HQ replacement."""
    st = advance(lost_on_arrival(g), delay_roll_due)
    play(st, f"hq_delay:{delay}")
    seen = []
    while not st.is_terminal() and st.to_dict()["turn"] <= turns:
        d = st.to_dict()
        if d["phase"] == "recovery" and d["command_due"]["hq_replacement"][0] and d["turn"] not in seen:
            seen.append(d["turn"])
        advance(st, lambda s: True)
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[-1][0])      # c:fail last: the post stays empty
        else:
            acts = st.legal_actions()
            st.apply_action(257 if 257 in acts else acts[0])
    return seen


@pytest.mark.parametrize("delay", [1, 2])
def test_no_replacement_until_the_delay_has_passed(delay):
    """'lost paratroop HQs take 1D8/2 turns to replace' and 'When a command unit is lost,
    a replacement needs a cohesion roll at +3 (German/US)': lost on turn 2 with a delay of
    d turns, the first replacement roll is in turn 2 + d's marker removal phase."""
    assert replacement_turns(game("glider", turns=5), delay, 5)[0] == 2 + delay


def test_after_the_delay_the_normal_replacement_roll_applies():
    """'a replacement needs a cohesion roll at +3 (German/US)': German cohesion 15, +3:
    it passes on 12 or less (12 in 20)."""
    st = advance(lost_on_arrival(game("glider", turns=5)), delay_roll_due)
    play(st, "hq_delay:1")
    st = advance(st, lambda s: s.to_dict()["turn"] == 3 and s.to_dict()["phase"] == "recovery"
                 and s.to_dict()["command_due"]["hq_replacement"][0])
    assert outcomes(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})


def test_no_replacement_at_cohesion_12_or_less():
    """'Forces at cohesion 12 or less cannot replace it': at German cohesion 12 the delay
    runs out and still no replacement roll comes."""
    assert replacement_turns(game("glider", turns=5, german_cohesion=12), 1, 5) == []


def test_validate_refuses_a_delay_for_a_waiting_or_live_hq():
    """validate() names what is wrong: a delay while the paratroop HQ waits in the aircraft."""
    d = drop_state(game=GLIDER).to_dict()
    with pytest.raises(ValueError, match="paratroop HQ delay while that HQ is alive or waiting"):
        GLIDER.state_from_dict({**d, "drop": {**d["drop"], "hq_delay": 2}})
    raw = bytearray(GLIDER.new_initial_state(seed=1).raw())
    for off, v in ((585, 9), (586, 7), (587, 1)):             # drop_jump, hqd_left, the reserved byte
        bad = bytearray(raw)
        bad[off] = v
        with pytest.raises(ValueError):
            GLIDER.state_from_raw(bytes(bad))


def _airdrop_with(tmp_path, old, new):
    src = os.path.join(os.path.dirname(_data.__file__), "scenarios", "airdrop.toml")
    text = open(src).read()
    assert old in text
    p = tmp_path / "airdrop2.toml"
    p.write_text(text.replace(old, new))
    return str(p)


def test_the_loader_takes_one_hq_in_a_landing_group(tmp_path):
    """Design: at most one HQ in the landing group (one paratroop HQ delay in the state);
    never the GHQ."""
    two = _airdrop_with(tmp_path, 'stands = ["fja", "fjb", "fjc", "fjhq"]', 'stands = ["fja", "fjb", "fjhq", "fjc"]')
    assert _data.load_scenario(path=two)["drop"]["stands"]
    path = _airdrop_with(tmp_path, 'id = "fjc"\ntype = "fschjg"', 'id = "fjc"\ntype = "ger_infhq"')
    with pytest.raises(ValueError, match="at most one HQ"):
        _data.load_scenario(path=path)
    path = _airdrop_with(tmp_path, 'stands = ["fja", "fjb", "fjc", "fjhq"]', 'stands = ["fja", "gghq"]')
    with pytest.raises(ValueError, match="not the GHQ"):
        _data.load_scenario(path=path)


def test_a_paratroop_hq_lost_in_combat_starts_its_delay():
    """'lost paratroop HQs take 1D8/2 turns to replace': landed, the HQ holds its post;
    eliminated by fire (a D stand taking an E), its post is empty and its delay is due."""
    g = game("hot")
    st = drop_state(step="landing", waiting=[], stand="fjhq", landed={"fjhq": [13, 13]}, game=g)
    play(st, "c:ok")
    d = st.to_dict()
    soviet = [s["id"] for s in d["stands"] if s["side"] == "soviet"]
    for s in d["stands"]:
        if s["id"] == "fjhq":
            s.update(disorganized=True, hq=True)             # landed, it holds its post
        if s["id"] == "t34a":
            s.update(at=[14, 13], facing="w")
    d.update(phase="fire", active="soviet", attack={"side": "soviet", "kind": "standard", "target": "fjhq",
                                                    "firers": ["t34a"], "step": "crt",
                                                    "current": soviet.index("t34a"), "hit": False})
    st = g.state_from_dict(d)
    assert stand(st, "fjhq")["hq"]
    m = ref.from_dict(st.to_dict())
    play(st, "crt:E")
    m.apply("crt:E")
    d = st.to_dict()
    assert not stand(st, "fjhq")["alive"] and d["hq_lost"] == [1, 0] and d["drop"]["hq_delay"] == "roll"
    assert m.to_dict() == d


def test_another_lost_hq_post_is_filled_during_the_delay():
    """'When a command unit is lost, a replacement needs a cohesion roll': only the
    paratroop HQ's post waits; another lost HQ post of the side is rolled for at once."""
    g = game("glider", turns=5)
    d = lost_on_arrival(g).to_dict()
    for s in d["stands"]:
        if s["id"] == "ghq":
            s.update(alive=False, hq=False)
    d["hq_lost"] = [2, 0]
    st = advance(g.state_from_dict(d), delay_roll_due)
    play(st, "hq_delay:3")
    d = st.to_dict()
    assert d["phase"] == "recovery" and d["command_due"]["hq_replacement"][0]
    assert outcomes(st) == pytest.approx({"c:ok": 12 / 20, "c:fail": 8 / 20})
    play(st, "c:ok")
    st.apply_action(st.legal_actions()[0])                   # the German appoints a stand
    d = st.to_dict()
    assert d["hq_lost"] == [1, 0]                            # the paratroop HQ's post, still held back
    assert d["turn"] == 3 and d["drop"]["hq_delay"] == 2      # no more rolls: the turn ended, one turn passed
    assert ref.from_dict(d).to_dict() == d


def test_the_structured_state_carries_the_roll_and_the_delay():
    """to_dict / state_from_dict round-trip a glider's roll forward and each delay value,
    and the opponent's view shows both (the landings and the delay are public)."""
    st = drop_state(step="direction", zone=(10, 13), game=GLIDER)
    play(play(st, "dir:e"), "scatter:1")
    assert GLIDER.state_from_dict(st.to_dict()).raw() == st.raw()
    assert st.view(1).to_dict()["drop"]["step"] == "roll"
    lost = lost_on_arrival(GLIDER)
    for delay in ("roll", 1, 4):
        d = lost.to_dict()
        d["drop"]["hq_delay"] = delay
        again = GLIDER.state_from_dict(d)
        assert again.to_dict()["drop"]["hq_delay"] == delay
        assert again.view(1).to_dict()["drop"]["hq_delay"] == delay
        assert GLIDER.state_from_dict(again.to_dict()).raw() == again.raw()


EAST_CHECK = r'''
import sys
sys.path.insert(0, {tests!r})
import ardsearch
from ardsearch.games.microarmour import SPEC
from reference import microarmour as ref
g = ardsearch.Game(SPEC, {{"scenario": "airdrop_east", "turns": 4, "deployment": "close"}})
from test_microarmour_paratroops import at_plot
st = at_plot(g)
d = st.to_dict()
d.update(turn=2, phase="initiative")
d["drop"] = {{**d["drop"], "waiting": ["vda"], "zone": [19, 13], "step": "direction", "stand": "vda",
             "direction": "distance_on_target"}}
for outcome, at, step in (("glide:1", [17, 13], "landing"), ("glide:2", [17, 13], "none")):
    s = g.state_from_dict(d)
    for t in ("dir:w", "scatter:1", outcome):
        s.apply_action(s.string_to_action(t))
    v = next(x for x in s.to_dict()["stands"] if x["id"] == "vda")
    assert v["at"] == at and s.to_dict()["drop"]["step"] == step, (outcome, v, s.to_dict()["drop"])
    assert v["suppressed"] == (step == "none"), v
    assert ref.from_dict(s.to_dict()).to_dict() == s.to_dict()
print("ok")
'''


def test_a_glider_from_the_east_rolls_west(tmp_path):
    """'Gliders also roll forward 1" at a time': design, from its side's friendly edge
    toward the enemy's; a Soviet landing group (the east edge, a scenario written to an
    ARDSEARCH_MICROARMOUR_SCENARIOS folder) rolls west: down at (18, 13), one inch is
    (17, 13), a second would enter the hill at (16, 13): a crash at (17, 13), S."""
    import subprocess
    src = os.path.join(os.path.dirname(_data.__file__), "scenarios", "airdrop.toml")
    text = open(src).read()
    head, _, _ = text.partition("[[drop]]")
    extra = "".join(f'[[stand]]\nid = "{i}"\ntype = "rifle"\nside = "soviet"\nat = [{x}, 0]\nfacing = "w"\n'
                    for i, x in (("vda", 25), ("vdb", 26)))
    (tmp_path / "airdrop_east.toml").write_text(
        head + extra + '\n[[drop]]\nside = "soviet"\nstands = ["vda", "vdb"]\nturn = 2\njump = "glider"\nmodifier = 2\n',
        encoding="utf-8")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", EAST_CHECK.format(tests=os.path.join(root, "tests"))],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=root, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path)))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]
