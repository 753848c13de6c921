"""The C++ expectimax search (ardsearch._search.Expectimax).

Two games: a toy Pig with a loaded die (tests/search_toy_pig.c, compiled here
and wrapped in a game capsule with ctypes), whose chance nodes and multi-action
turns exercise Star1/Star2 and whose values are checked against a plain Python
expectimax written from the same rules; and Clash of the Ardennes on hand-built
positions (wins in one, blunders to avoid, PIMC on a view).
"""
import ctypes
import os
import shutil
import struct
import subprocess
import threading
import time

import pytest

_search = pytest.importorskip("ardsearch._search")

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(os.path.dirname(HERE), "csrc")

# ----------------------------------------------------------------- toy Pig

HOLD, ROLL, FACE1 = 0, 1, 2
FACE_PROBS = (0.25, 0.15, 0.15, 0.15, 0.15, 0.15)
PIG_FIELDS = ("s0", "s1", "tt", "to_move", "phase", "moves", "target", "max_moves",
              "winner", "hidden", "b0", "b1", "viewer")
PIG_FORMAT = "<13i"


@pytest.fixture(scope="module")
def pig(tmp_path_factory):
    """The toy game's capsule, built from tests/search_toy_pig.c."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the toy game")
    lib_path = str(tmp_path_factory.mktemp("pig") / "pig.so")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-I", CSRC,
                    os.path.join(HERE, "search_toy_pig.c"), "-o", lib_path], check=True)
    lib = ctypes.CDLL(lib_path)
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    name = ctypes.c_char_p(b"ardsearch.game")
    capsule = new_capsule(ctypes.addressof(ctypes.c_char.in_dll(lib, "pig_game")), name, None)
    yield capsule  # lib and name stay alive while the module's tests run
    del lib, name


def pig_state(**kw):
    d = dict(s0=0, s1=0, tt=0, to_move=0, phase=0, moves=0, target=12, max_moves=40,
             winner=-1, hidden=0, b0=0, b1=0, viewer=-1)
    d.update(kw)
    return d


def pig_raw(d):
    return struct.pack(PIG_FORMAT, *(d[f] for f in PIG_FIELDS))


def pig_apply(d, a):
    d = dict(d)
    p = d["to_move"]
    if a == HOLD:
        d["s%d" % p] += d["tt"]
        d["tt"] = 0
        if d["s%d" % p] >= d["target"]:
            d["phase"], d["winner"] = 2, p
        else:
            d["to_move"] = 1 - p
    elif a == ROLL:
        d["phase"] = 1
    else:
        face = a - FACE1 + 1
        d["phase"] = 0
        if face == 1:
            d["tt"], d["to_move"] = 0, 1 - p
        else:
            d["tt"] += face
    d["moves"] += 1
    if d["phase"] != 2 and d["moves"] >= d["max_moves"]:
        d["phase"], d["winner"] = 2, -1
    return d


def pig_evaluate(d, p):
    mine, theirs = d["s%d" % p], d["s%d" % (1 - p)]
    if d["to_move"] == p:
        mine += 0.5 * d["tt"]
    else:
        theirs += 0.5 * d["tt"]
    v = (mine - theirs) / d["target"]
    if d["b%d" % p] > 0:
        v += 0.01
    return max(-0.95, min(0.95, v))


def pig_expectimax(d, depth, root):
    """Plain expectimax, no pruning: chance nodes do not consume depth, and
    any node reached with no depth left, a chance node too, is evaluated."""
    if d["phase"] == 2:
        return 0.0 if d["winner"] < 0 else (1.0 if d["winner"] == root else -1.0)
    if depth == 0:
        return pig_evaluate(d, root)
    if d["phase"] == 1:
        return sum(p * pig_expectimax(pig_apply(d, FACE1 + f), depth, root)
                   for f, p in enumerate(FACE_PROBS))
    values = [pig_expectimax(pig_apply(d, a), depth - 1, root) for a in (HOLD, ROLL)]
    return max(values) if d["to_move"] == root else min(values)


PIG_POSITIONS = [
    pig_state(),
    pig_state(s0=5, s1=9, tt=4, to_move=1, moves=10),
    pig_state(s0=10, s1=3, tt=1, to_move=0, moves=20),
    pig_state(s0=2, s1=11, to_move=0, moves=37),  # the move cap is near: draws matter
]


@pytest.mark.parametrize("star2", [True, False])
@pytest.mark.parametrize("use_tt", [True, False])
def test_pig_values_match_plain_expectimax(pig, star2, use_tt):
    for pos in PIG_POSITIONS:
        root = pos["to_move"]
        for depth in (1, 2, 3, 4):
            r = _search.Expectimax(pig, star2=star2, use_tt=use_tt).search(pig_raw(pos), depth=depth)
            want = {a: pig_expectimax(pig_apply(pos, a), depth - 1, root) for a in (HOLD, ROLL)}
            # a proven position (no leaf at the horizon) stops deepening early,
            # and its value is then the value at every deeper depth
            assert 1 <= r["depth"] <= depth
            assert r["value"] == pytest.approx(max(want.values()), abs=1e-9)
            assert want[r["best"]] == pytest.approx(max(want.values()), abs=1e-9)
            assert r["actions"] == [HOLD, ROLL]
            for a, v in zip(r["actions"], r["values"]):  # refuted actions: upper bounds
                assert v >= want[a] - 1e-9


def test_pig_star2_and_tt_keep_the_value(pig):
    # Star2 and the table change what is searched, never the depth-7 value.
    # (Star2 pays little in Pig: two moves per node, and the first ordered
    # move is usually `roll`, a whole chance subtree, so probes are dear; the
    # node counts are reported by the benchmark, and the saving is asserted
    # on Stand at Mortain in test_search_expectimax_mortain.py.)
    raw = pig_raw(pig_state(s0=3, s1=4, tt=2, moves=6))
    results = {(s2, tt): _search.Expectimax(pig, star2=s2, use_tt=tt).search(raw, depth=7)
               for s2 in (True, False) for tt in (True, False)}
    values = [r["value"] for r in results.values()]
    assert max(values) - min(values) < 1e-9
    assert len({r["best"] for r in results.values()}) == 1
    for tt in (True, False):  # the probing pass ran
        assert results[(True, tt)]["nodes"] != results[(False, tt)]["nodes"]
    assert results[(True, True)]["tt_hits"] > 0
    assert results[(True, False)]["tt_hits"] == 0


def test_pig_result_shape(pig):
    r = _search.Expectimax(pig).search(pig_raw(pig_state()), depth=3)
    for key in ("best", "value", "actions", "values", "pv", "depth", "nodes", "time", "nps",
                "tt_hits"):
        assert key in r
    assert r["pv"][0] == r["best"]
    assert -1.0 <= r["value"] <= 1.0
    assert "determinizations" not in r


def test_pig_solved_positions_stop_deepening(pig):
    # One point from the target with a turn total in hand: holding wins now;
    # the move cap ends every other line within four actions, so iterative
    # deepening stops once a depth leaves no leaf at the horizon.
    r = _search.Expectimax(pig).search(pig_raw(pig_state(s0=11, tt=3, max_moves=4)), depth=20)
    assert r["best"] == HOLD and r["value"] == 1.0
    assert r["depth"] <= 4


def test_pig_same_seed_same_result(pig):
    raw = pig_raw(pig_state(s0=4, s1=6, tt=3, moves=8))
    a = _search.Expectimax(pig, seed=5).search(raw, nodes=3000)
    b = _search.Expectimax(pig, seed=5).search(raw, nodes=3000)
    for key in ("best", "value", "values", "pv", "depth", "nodes"):
        assert a[key] == b[key]
    # and the same object searching again gives the same answer
    e = _search.Expectimax(pig, seed=5)
    e.search(pig_raw(pig_state()), depth=4)
    c = e.search(raw, nodes=3000)
    assert (c["best"], c["value"], c["depth"], c["nodes"]) == (a["best"], a["value"], a["depth"], a["nodes"])


def test_pig_no_budget_means_depth_3(pig):
    r = _search.Expectimax(pig).search(pig_raw(pig_state(s0=1, s1=2)))
    assert r["depth"] == 3


def test_pig_node_budget(pig):
    r = _search.Expectimax(pig).search(pig_raw(pig_state()), nodes=2000)
    assert 1 <= r["depth"] < 64
    assert r["best"] in (HOLD, ROLL)
    # the node budget is checked at every node
    assert r["nodes"] <= 2000 + 10 or r["depth"] == 1  # a few terminal probes may overshoot


def test_pig_stop_from_another_thread(pig):
    e = _search.Expectimax(pig)
    out = {}
    t = threading.Thread(target=lambda: out.update(e.search(pig_raw(pig_state(max_moves=1000, target=100)),
                                                            depth=64)))
    t.start()
    deadline = time.monotonic() + 10
    seen = []
    while time.monotonic() < deadline:
        p = e.progress()
        seen.append(p)
        if p["depth"] >= 2:
            break
        time.sleep(0.01)
    e.stop()
    t.join(timeout=10)
    assert not t.is_alive()
    assert out["best"] in (HOLD, ROLL) and out["depth"] >= 2
    assert any(p["running"] for p in seen)
    assert set(seen[-1]) >= {"running", "depth", "nodes", "best", "value", "time"}
    assert e.progress()["running"] is False


def test_pig_time_limit(pig):
    r = _search.Expectimax(pig).search(pig_raw(pig_state(max_moves=1000, target=100)), time_limit=0.05)
    assert r["best"] in (HOLD, ROLL) and r["depth"] >= 1


def test_pig_bad_input(pig):
    e = _search.Expectimax(pig)
    with pytest.raises(ValueError, match="bytes"):
        e.search(b"\x00" * 7, depth=2)
    with pytest.raises(ValueError, match="chance"):
        e.search(pig_raw(pig_state(phase=1)), depth=2)
    with pytest.raises(ValueError, match="terminal"):
        e.search(pig_raw(pig_state(phase=2, s0=12, winner=0)), depth=2)
    with pytest.raises(ValueError, match="invalid state"):
        e.search(pig_raw(pig_state(to_move=5)), depth=2)
    with pytest.raises(ValueError, match="view"):
        e.search(pig_raw(pig_state(hidden=1, viewer=1, b0=-1)), depth=2)
    for kw in (dict(depth=0), dict(depth=65), dict(time_limit=0), dict(time_limit=-1.0), dict(nodes=0)):
        with pytest.raises(ValueError):
            e.search(pig_raw(pig_state()), **kw)
    with pytest.raises(ValueError, match="capsule"):
        _search.Expectimax(object())
    with pytest.raises(ValueError):
        _search.Expectimax(pig, determinizations=0)
    with pytest.raises(ValueError):
        _search.Expectimax(pig, tt_mb=0)
    # the object is still usable after the errors
    assert e.search(pig_raw(pig_state()), depth=2)["depth"] == 2


def test_pig_pimc_on_a_view(pig):
    # The opponent's secret bonus never changes the root player's evaluation,
    # so PIMC over views must agree with the full-information search, and two
    # real states that differ only in the hidden bonus give one view, one answer.
    real_a = pig_state(s0=4, s1=7, tt=2, moves=9, hidden=1, b0=1, b1=0)
    real_b = dict(real_a, b1=1)
    view = dict(real_a, b1=-1, viewer=0)
    full = _search.Expectimax(pig).search(pig_raw(real_a), depth=4)
    r1 = _search.Expectimax(pig, seed=3, determinizations=4).search(pig_raw(view), depth=4)
    r2 = _search.Expectimax(pig, seed=3, determinizations=4).search(pig_raw(view), depth=4)
    assert r1 == {**r2, "time": r1["time"], "nps": r1["nps"], "cpu_time": r1["cpu_time"]}
    assert r1["determinizations"] == 4 and sum(r1["votes"]) == 4
    assert r1["exact_values"] is True
    assert r1["best"] == full["best"]
    assert r1["value"] == pytest.approx(full["value"], abs=1e-9)
    want = {a: pig_expectimax(pig_apply(real_a, a), 3, 0) for a in (HOLD, ROLL)}
    for a, v in zip(r1["actions"], r1["values"]):
        assert v == pytest.approx(want[a], abs=1e-9)
    assert _search.Expectimax(pig).search(pig_raw(real_b), depth=4)["best"] == r1["best"]


# ------------------------------------------------------------------ Ardennes

def _ardennes():
    ardsearch = pytest.importorskip("ardsearch")
    try:
        return ardsearch.load_game("ardennes", variant="basic", road_length=8)
    except Exception as exc:  # the game package is not built in this tree
        pytest.skip(f"ardennes is not available: {exc}")


BASIC_STOCK = {"M": 5, "T": 7, "P": 6, "C": 2, "S": 1, "G": 0, "Y": 0, "K": 0, "R": 0}


def ardennes_position(game, roads, to_move="allies", ap=4, objectives=(8, 2)):
    """A basic-variant position on 8-tile roads; stock is what is not on the board."""
    stock = {side: dict(BASIC_STOCK) for side in ("allies", "germans")}
    road_list = []
    for r in range(1, 8):
        allies, germans, conquered = roads.get(r, ([], [], None))
        for side, line in (("allies", allies), ("germans", germans)):
            for unit in line:
                stock[side][unit] -= 1
        road_list.append({"road": r, "allies": list(allies), "germans": list(germans),
                          "conquered": conquered})
    d = {"game": "ardennes", "variant": "basic", "road_length": 8, "max_rounds": 80, "round": 5,
         "to_move": to_move, "ap": ap, "roads": road_list, "stock": stock,
         "objectives": {"allies": objectives[0], "germans": objectives[1]}, "winner": None}
    return game.state_from_dict(d)


def test_ardennes_wins_with_the_third_road():
    game = _ardennes()
    s = ardennes_position(game, {
        1: (["T", "T", "P"], [], "allies"),
        2: (["T", "T", "P"], [], "allies"),
        3: (["T", "T", "M"], [], None),  # one free tile: a mine conquers it
        4: ([], ["T"], None),
    })
    r = _search.Expectimax(game.capsule).search(s.raw(), depth=2)
    assert s.action_to_string(r["best"]) == "M3"
    assert r["value"] == 1.0
    child = s.clone()
    child.apply_action(r["best"])
    assert child.is_terminal() and child.returns()[0] == 1.0


def test_ardennes_wins_with_the_objectives_second_road():
    game = _ardennes()
    s = ardennes_position(game, {
        3: (["T", "T", "P"], [], "allies"),
        5: (["T", "T", "M"], [], None),
        6: ([], ["T"], None),
    }, objectives=(3, 2))  # allied objective card 3: roads 3 and 5
    for star2, use_tt in ((True, True), (False, False)):
        r = _search.Expectimax(game.capsule, star2=star2, use_tt=use_tt).search(s.raw(), depth=2)
        assert s.action_to_string(r["best"]) == "M5" and r["value"] == 1.0


def test_ardennes_blocks_the_third_road():
    game = _ardennes()
    # The Germans hold roads 6 and 7 and need one tile on road 5; the Allies
    # have one AP left and only a mine on road 5 stops the conquest.
    s = ardennes_position(game, {
        1: (["T"], [], None),
        5: ([], ["T", "T", "M"], None),
        6: ([], ["T", "T", "P"], "germans"),
        7: ([], ["T", "T", "P"], "germans"),
    }, ap=1, objectives=(4, 2))
    r = _search.Expectimax(game.capsule).search(s.raw(), depth=3)
    assert s.action_to_string(r["best"]) == "M5"
    assert r["value"] > -1.0
    values = dict(zip(r["actions"], r["values"]))
    blunder = s.string_to_action("T1") if "T1" in [s.action_to_string(a) for a in s.legal_actions()] \
        else next(a for a in r["actions"] if a != r["best"])
    assert values[blunder] == -1.0  # a refuted move's bound; here the exact loss


def test_ardennes_values_agree_across_options():
    game = _ardennes()
    s = ardennes_position(game, {
        2: (["T", "P"], ["T"], None),
        4: (["M"], ["P", "P"], None),
        5: ([], ["T", "T", "M"], None),
    }, ap=2)
    results = [_search.Expectimax(game.capsule, star2=s2, use_tt=tt).search(s.raw(), depth=3)
               for s2 in (True, False) for tt in (True, False)]
    assert max(r["value"] for r in results) - min(r["value"] for r in results) < 1e-9
    assert results[0]["tt_hits"] > 0


def test_ardennes_pimc_on_a_view_ignores_the_hidden_card():
    game = _ardennes()
    roads = {
        3: (["T", "T", "P"], [], "allies"),
        4: (["P"], ["T", "M"], None),
        6: ([], ["T", "T"], None),
    }
    # Two real games that differ only in the German objective, which the
    # Allies cannot see: the same view, so the same search result.
    real_a = ardennes_position(game, roads, objectives=(3, 2))
    real_b = ardennes_position(game, roads, objectives=(3, 6))
    view_a, view_b = real_a.view(0), real_b.view(0)
    assert view_a.raw() == view_b.raw()
    ra = _search.Expectimax(game.capsule, seed=11, determinizations=3).search(view_a.raw(), depth=2)
    rb = _search.Expectimax(game.capsule, seed=11, determinizations=3).search(view_b.raw(), depth=2)
    assert ra["determinizations"] == 3 and ra["exact_values"]
    for key in ("best", "value", "values", "votes", "pv", "depth", "nodes"):
        assert ra[key] == rb[key]
    assert ra["best"] in view_a.legal_actions()


# ------------------------------------------------- root_actions (go searchactions)

WIN_ON_ROAD_3 = {
    1: (["T", "T", "P"], [], "allies"),
    2: (["T", "T", "P"], [], "allies"),
    3: (["T", "T", "M"], [], None),  # one free tile: M3 conquers it and wins
    4: ([], ["T"], None),
}


def test_ardennes_root_actions_leave_out_the_win():
    game = _ardennes()
    s = ardennes_position(game, WIN_ON_ROAD_3)
    win = s.string_to_action("M3")
    allowed = [a for a in s.legal_actions() if a != win][:2]
    r = _search.Expectimax(game.capsule).search(s.raw(), depth=2, root_actions=allowed)
    assert r["best"] in allowed and r["pv"][0] in allowed
    assert r["actions"] == [a for a in s.legal_actions() if a in allowed]
    full = _search.Expectimax(game.capsule).search(s.raw(), depth=2)
    assert full["best"] == win  # the filter, not the position, kept M3 out


def test_ardennes_root_actions_in_every_determinization():
    game = _ardennes()
    view = ardennes_position(game, WIN_ON_ROAD_3).view(0)
    allowed = view.legal_actions()[-2:]
    r = _search.Expectimax(game.capsule, seed=5, determinizations=3).search(view.raw(), depth=2,
                                                                          root_actions=allowed)
    assert r["determinizations"] == 3 and r["best"] in allowed
    assert sorted(r["actions"]) == sorted(allowed) and sum(r["votes"]) == 3


def test_ardennes_bad_root_actions_are_refused():
    game = _ardennes()
    s = ardennes_position(game, WIN_ON_ROAD_3)
    illegal = next(a for a in range(game.num_actions) if a not in s.legal_actions())
    search = _search.Expectimax(game.capsule)
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        search.search(s.raw(), depth=1, root_actions=[illegal])
    with pytest.raises(ValueError, match="empty"):
        search.search(s.raw(), depth=1, root_actions=[])
    assert search.search(s.raw(), depth=1, root_actions=[s.legal_actions()[0]])["actions"] == [s.legal_actions()[0]]
