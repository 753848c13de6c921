"""Engine-level checks for mortain: notation, the structured state, validation
of garbage, the scenario file, pinned perft counts, views, hashing, the
heuristic, and the public API through the generic core."""
import os
import random
import struct

import numpy as np
import pytest

from ardsearch.games.mortain import SPEC, _engine as E, scenario
from reference import mortain as ref  # tests/ is on sys.path (pytest rootdir-relative import)
from reference import perft as reference_perft  # noqa: E402

HERE = os.path.dirname(__file__)
# the historical setup (the search benchmarks' game): the game's default is the US setup phase
HISTORICAL = E.pack_params({"setup": "historical"})


def random_state(seed, steps):
    rng = random.Random(seed)
    raw = E.initial_raw(HISTORICAL)
    for _ in range(steps):
        if E.player(raw) == -4:
            break
        if E.player(raw) == -1:
            outs = E.chance(raw)
            a = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
        else:
            a = rng.choice(E.legal(raw))
        raw = E.apply(raw, a)
    return raw


# -------------------------------------------------------------- notation ----
def test_every_action_round_trips_through_notation():
    raw = E.initial_raw()
    seen = set()
    for a in range(E.NUM_ACTIONS_PY):
        text = E.action_text(raw, a)
        assert text and len(text) < 32
        assert text not in seen, text
        seen.add(text)
        assert E.parse(raw, text) == a, text
    assert E.action_text(raw, E.NUM_ACTIONS_PY) is None and E.action_text(raw, -5) is None


@pytest.mark.parametrize("text", ["", "x", "pass ", "11b", "Jx", "stack 1410", "stack 0010", "air 2-120",
                                  "oba nobody", "tiger+pantherx", "panther+panther-0101", "panther+iv2-0101",
                                  "2-120+tigerx743", "pantherxiv2", "setup tiger 0101", "0101", "-exit",
                                  "panther-exit-", "a" * 200])
def test_garbage_notation_is_rejected(text):
    assert E.parse(E.initial_raw(), text) == -1


def test_pair_order_and_tiger_order_accepted_either_way():
    raw = E.initial_raw()
    assert E.parse(raw, "panther+tigerx743") == E.parse(raw, "tiger+pantherx743") >= 0
    assert E.parse(raw, "tiger+panther-0101") == E.parse(raw, "panther+tiger-0101") >= 0


# ------------------------------------------------------ structured state ----
def test_to_dict_from_dict_round_trip_on_random_states():
    for seed in range(40):
        raw = random_state(seed, random.Random(seed).randrange(600))
        assert E.from_dict(E.to_dict(raw)) == raw


@pytest.mark.parametrize("patch,words", [
    ({"turn": 9}, "turn"), ({"phase": "lunch"}, "phase"), ({"units": {"bogus": {"at": "0101"}}}, "bogus"),
    ({"units": {"panther": {"at": "1410"}}}, "off the map"), ({"deck": {"Ab": 3}}, "deck.Ab"),
    ({"units": {"panther": {"at": "0604"}}}, "share a hex"), ({"card": "Zz"}, "card"), ({"extra": 1}, "unknown"),
    ({"units": {"panther": {"at": "0101"}, "iv2": {"at": "0101"}, "stug": {"at": "0101"}}}, "more than 2"),
    ({"exits": 3}, "exits"), ("not a dict", "dict")])
def test_from_dict_names_the_problem(patch, words):
    with pytest.raises(ValueError, match=words):
        E.from_dict(patch)


def test_validate_never_crashes_on_garbage():
    rng = random.Random(5)
    good = E.initial_raw(HISTORICAL)
    for i in range(3000):
        if i % 2:
            raw = bytes(rng.randrange(256) for _ in range(E.STATE_SIZE))
        else:
            b = bytearray(good)
            for _ in range(rng.randrange(1, 4)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            raw = bytes(b)
        problem = E.check(raw)
        assert problem is None or isinstance(problem, str)
        if problem is None:              # a valid state must be playable
            E.legal(raw), E.chance(raw), E.evaluate(raw, 0), E.to_dict(raw)
    with pytest.raises(ValueError):
        E.check(b"short")


def test_random_states_validate():
    for seed in range(30):
        assert E.check(random_state(seed, 300)) is None


# -------------------------------------------------------------- scenario ----
def write(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return str(p)


def test_scenario_file_loads():
    sc = scenario.load()
    assert len(sc.units) == 22 and sc.turns == 6 and sc.exits_to_win == 5
    assert [u.id for u in sc.units if u.tiger] == ["tiger"]


@pytest.mark.parametrize("old,new,words", [
    ("turns = 6", "turns = 0", "'turns'"),
    ('". f . . v . f f . . f . .",', '". f . . v . f f . . f . Z",', "unknown terrain letter 'Z'"),
    ('id = "recon"', 'id = "rex"', "without 'x'"),
    ('"2-120" = "0803"', '"2-120" = "1303"', "column 13"),
    ('full = [6, 3]', 'full = [6]', "'full'"),
    ('kind = "gun"', 'kind = "horse"', "'kind'"),
    ('[map]', '[mapp]', "missing table \\[map\\]"),
])
def test_scenario_errors_name_file_key_and_expectation(tmp_path, old, new, words):
    text = open(scenario.DEFAULT_PATH).read()
    assert old in text
    path = write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(scenario.ScenarioError, match=words) as e:
        scenario.load(path)
    assert "s.toml" in str(e.value)


def test_scenario_not_toml(tmp_path):
    with pytest.raises(scenario.ScenarioError, match="not valid TOML"):
        scenario.load(write(tmp_path, "[[[["))


# ----------------------------------------------------------------- perft ----
def perft_cases():
    for line in open(os.path.join(HERE, "data", "mortain.perft")):
        if line.startswith("#") or not line.strip():
            continue
        name, params, moves, counts = (x.strip() for x in line.split("|"))
        yield name, dict(kv.split("=") for kv in params.split()), \
            [m.strip() for m in moves.split(",") if m.strip()], \
            [tuple(map(int, c.split(":"))) for c in counts.split()]


@pytest.mark.parametrize("name,params,moves,counts", list(perft_cases()))
def test_perft_pinned(name, params, moves, counts):
    raw = E.initial_raw(E.pack_params(params))
    for m in moves:
        raw = E.apply(raw, E.parse(raw, m))
    for depth, count in counts:
        assert E.perft(raw, depth) == count, (name, depth)


# the free setup out of the scenario file's order, down to its last unit
FREE_SETUP_7 = ["setup 743 0604", "setup td-b 0604", "setup 2-117 0507", "setup 1-117 0605",
                "setup td-a 0802", "setup 3-120 0704", "setup 1-120 0704"]


H = {"setup": "historical"}


@pytest.mark.parametrize("params,moves", [(H, []), (H, ["8b"]), (H, ["Jr"]), ({}, []), ({"setup": "free"}, []),
                                          ({"setup": "free"}, FREE_SETUP_7[:3]), ({"setup": "free"}, FREE_SETUP_7),
                                          (H, ["Kb", "tiger-1305", "Qb", "panther-1305", "Jb", "stack 1305"])])
def test_perft_depth_2_matches_reference(params, moves):
    raw = E.initial_raw(E.pack_params(params))
    model = ref.Mortain(**params)
    for m in moves:
        raw = E.apply(raw, E.parse(raw, m))
        model.apply(m)
    assert E.perft(raw, 2) == reference_perft(model, 2)


# ---------------------------------------------- hash, views, observation ----
def test_hash_depends_on_play_not_on_viewer():
    a = random_state(3, 200)
    b = bytearray(a)
    b[-1] = 0                          # viewer byte
    assert E.hash_raw(a) == E.hash_raw(bytes(b))
    assert E.hash_raw(a) != E.hash_raw(random_state(3, 201))


def test_observation_tensor_shape_and_content():
    raw = E.initial_raw(HISTORICAL)
    t = E.observation_tensor(raw, 0)
    assert t.shape == SPEC.observation_shape and t.dtype == np.float32
    assert t[5:17].sum() == 8          # the eight US units on the map in the historical setup


def test_render_shows_board_and_units():
    text = SPEC.render(E.initial_raw(HISTORICAL))
    assert "turn 1/6" in text and "2-120:0803" in text and "tiger:reserve" in text


def test_evaluate_is_bounded_and_zero_sum():
    for seed in range(20):
        raw = random_state(seed, 400)
        v = E.evaluate(raw, 0)
        assert -1 <= v <= 1 and E.evaluate(raw, 1) == pytest.approx(-v)


# ---------------------------------------------------------- public API ----
def load_game(**params):
    core = pytest.importorskip("ardsearch._core")
    return core.Game(SPEC, params or None)


def test_public_api_plays_through_the_core():
    game = load_game(setup="historical")
    s = game.new_initial_state(seed=1)
    assert s.is_chance_node() and len(s.chance_outcomes()) == 27
    s.apply("8b")
    assert s.current_player() == 0
    s.apply("panther-1305")
    assert s.to_dict()["units"]["panther"]["at"] == "1305"
    clone = game.state_from_dict(s.to_dict())
    assert clone.raw() == s.raw()
    assert game.deserialize_state(s.serialize()).raw() == s.raw()
    import ardsearch
    with pytest.raises(ValueError):
        s.apply("panther-0101")


def test_core_perft_matches():
    core = pytest.importorskip("ardsearch._core")
    game = load_game(setup="historical")
    if not hasattr(core, "perft"):
        pytest.skip("core has no perft")
    assert core.perft(game.new_initial_state(), 2) == 1903   # tests/data/mortain.perft, initial 2


def greedy_action(raw, rng):
    """One-ply greedy: the move whose result evaluates best for the mover
    (chance results averaged over the combat card)."""
    me = E.player(raw)
    best, best_v = [], -9.0
    for a in E.legal(raw):
        child = E.apply(raw, a)
        if E.player(child) == -1 and E.to_dict(child)["phase"] == "combat":
            v = sum(p * E.evaluate(E.apply(child, c), me) for c, p in E.chance(child))
        else:
            v = E.evaluate(child, me)
        if v > best_v + 1e-12:
            best, best_v = [a], v
        elif abs(v - best_v) <= 1e-12:
            best.append(a)
    return rng.choice(best)


def test_greedy_beats_random_with_either_side():
    wins = 0
    games = 12
    for seed in range(games):
        rng = random.Random(seed)
        greedy_side = seed % 2
        raw = E.initial_raw(HISTORICAL)
        while E.player(raw) != -4:
            cp = E.player(raw)
            if cp == -1:
                outs = E.chance(raw)
                a = rng.choices([o for o, _ in outs], [p for _, p in outs])[0]
            elif cp == greedy_side:
                a = greedy_action(raw, rng)
            else:
                a = rng.choice(E.legal(raw))
            raw = E.apply(raw, a)
        wins += E.returns(raw)[greedy_side] > 0
    assert wins >= games * 3 // 4, f"greedy won {wins} of {games}"


def test_search_benchmarks_measure_the_historical_setup():
    """C, Order of battle: "Parameter `setup=historical` uses a fixed setup from the
    scenario file instead (2/120 on Hill 314, the rest around the town), which is the
    default for search benchmarks": `python -m bench` (and bench.openspiel_compare)
    measure that game when no game is named, while the game's own default is the US
    setup phase."""
    import ardsearch
    from ardsearch import benchmark
    games = benchmark.default_games()
    assert "mortain(setup=historical)" in games and "mortain" not in games
    assert len(games) == len(ardsearch.list_games())
    game = ardsearch.load_game(benchmark.BENCH_GAMES["mortain"])
    assert game.name == "mortain" and game.params["setup"] == "historical"
    assert game.new_initial_state(seed=0).is_chance_node()
