"""Clash of the Ardennes: the engine against the independent reference model.

Over 1000 seeded random games (both variants, several road lengths, all three
`first` settings, short and full-length games) the engine, driven through the
public API, and tests/reference/ardennes.py play the same random choices. At
every step both must agree on the player to move, the legal actions (in
order), the chance outcomes and their probabilities, the notation of the move
played, and at the end the returns. A subset of games also compares the
structured state (to_dict) and the notation of every legal action at every step.

The random policy is of two kinds, chosen per game: uniform over the legal
actions, or "busy" (rarely passes), which fills roads and so reaches clashes,
flanks, mortar shots and conquests far more often.
"""
from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import ardennes as ref  # noqa: E402

ardsearch = pytest.importorskip("ardsearch")

# (id, parameters, number of games, compare to_dict and all notation at every step)
CONFIGS = [
    ("standard-16", dict(variant="standard", road_length=16), 260, False),
    ("basic-16", dict(variant="basic", road_length=16), 120, False),
    ("standard-8", dict(variant="standard", road_length=8), 120, False),
    ("standard-24", dict(variant="standard", road_length=24), 80, False),
    ("basic-12-allies", dict(variant="basic", road_length=12, first="allies"), 100, False),
    ("standard-10-germans", dict(variant="standard", road_length=10, first="germans"), 100, False),
    ("standard-16-short", dict(variant="standard", road_length=16, max_rounds=3), 120, False),
    ("standard-13-dict", dict(variant="standard", road_length=13), 60, True),
    ("basic-9-dict", dict(variant="basic", road_length=9, max_rounds=20, first="allies"), 60, True),
]
assert sum(c[2] for c in CONFIGS) >= 1000

SCHEMA_KEYS = ("game", "variant", "road_length", "max_rounds", "round", "to_move", "ap",
               "roads", "stock", "objectives", "winner")


def _where(params, seed, ref_state):
    moves = " ".join(ref.action_to_string(a) for a in ref_state.history)
    return (f"\n  params={params} seed={seed} ply={len(ref_state.history)}"
            f"\n  moves: {moves}\n  reference board:\n{ref_state}")


def _pick(rng, legal, busy):
    if busy and len(legal) > 1 and rng.random() < 0.95:
        return rng.choice(legal[:-1])  # pass is always the last (105 < chance actions)
    return rng.choice(legal)


def play_one(params, seed, full_compare):
    game = ardsearch.load_game("ardennes", **params)
    eng = game.new_initial_state(seed=seed)
    model = ref.Ardennes(**params).new_initial_state()
    rng = random.Random(seed)
    busy = seed % 2 == 0
    while True:
        where = None
        player = model.current_player()
        if eng.current_player() != player:
            where = _where(params, seed, model)
            assert eng.current_player() == player, f"current player{where}"
        if full_compare:
            got = eng.to_dict()
            want = model.to_dict()
            got_schema = {k: got.get(k) for k in SCHEMA_KEYS}
            assert got_schema == want, f"to_dict{_where(params, seed, model)}\n  engine: {got}\n  want: {want}"
        if player == ref.TERMINAL:
            assert list(eng.returns()) == model.returns(), f"returns{_where(params, seed, model)}"
            return len(model.history)
        if player == ref.CHANCE:
            want = [(a, float(p)) for a, p in model.chance_outcomes()]
            got = list(eng.chance_outcomes())
            ok = [a for a, _ in got] == [a for a, _ in want] and all(
                abs(p - q) <= 1e-12 for (_, p), (_, q) in zip(got, want))
            assert ok, f"chance outcomes{_where(params, seed, model)}\n  engine: {got}\n  want: {want}"
            r, acc, action = rng.random(), 0.0, want[-1][0]
            for a, p in want:
                acc += p
                if r < acc:
                    action = a
                    break
        else:
            want = model.legal_actions()
            got = list(eng.legal_actions())
            if got != want:
                names = lambda acts: [ref.action_to_string(a) for a in acts]  # noqa: E731
                raise AssertionError(
                    f"legal actions{_where(params, seed, model)}\n  engine only: "
                    f"{sorted(set(names(got)) - set(names(want)))}\n  reference only: "
                    f"{sorted(set(names(want)) - set(names(got)))}")
            action = _pick(rng, want, busy)
            if full_compare:
                for a in want:
                    assert eng.action_to_string(a) == ref.action_to_string(a), \
                        f"notation of {a}{_where(params, seed, model)}"
        text = ref.action_to_string(action)
        assert eng.action_to_string(action) == text, f"notation of {action}{_where(params, seed, model)}"
        assert eng.string_to_action(text) == action, f"parse {text!r}{_where(params, seed, model)}"
        eng.apply_action(action)
        model.apply(action, check=False)


@pytest.mark.parametrize("name,params,games,full", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_engine_matches_reference(name, params, games, full):
    base = 1000 * (CONFIGS.index(next(c for c in CONFIGS if c[0] == name)) + 1)
    for seed in range(base, base + games):
        play_one(params, seed, full)


# ---------------------------------------------------------------- random positions
def random_position(rng, variant, L, max_rounds):
    """A consistent structured state with random lines on every road (roads in
    contact, nearly full, conquered), so that placements, clashes, flanks and
    mortar shots of every geometry come up, not only those random play reaches.
    Neither side has already won (fewer than 3 roads, objective not complete)."""
    while True:
        stock = {}
        for side in ("allies", "germans"):
            stock[side] = dict(ref.FULL_STOCK)
            if variant == "basic":
                for u in ref.SPECIALS:
                    stock[side][u] = 0
        has_special = {"allies": False, "germans": False}

        def grow(side, room):
            line = []
            while room > 0:
                choices = [u for u in ref.UNITS if stock[side][u] > 0 and ref.LENGTH[u] <= room
                           and not (u in ref.SPECIALS and has_special[side])]
                if not choices or (line and rng.random() < 0.08):
                    break
                u = rng.choice(choices)
                stock[side][u] -= 1
                has_special[side] |= u in ref.SPECIALS
                line.append(u)
                room -= ref.LENGTH[u]
            return line

        roads = []
        for r in range(1, 8):
            if rng.random() < 0.12:  # one side tries to fill the whole road
                side = rng.choice(("allies", "germans"))
                lines = {side: grow(side, L), ("germans" if side == "allies" else "allies"): []}
            else:
                free = rng.choice((0, 0, 0, 1, 2, 3, 6))
                a_room = rng.randint(0, L - free)
                allied = grow("allies", a_room)
                used = sum(ref.LENGTH[u] for u in allied)
                lines = {"allies": allied, "germans": grow("germans", L - free - used)}
            conquered = None
            for side, other in (("allies", "germans"), ("germans", "allies")):
                if sum(ref.LENGTH[u] for u in lines[side]) == L and not lines[other]:
                    conquered = side
            roads.append({"road": r, "allies": lines["allies"], "germans": lines["germans"],
                          "conquered": conquered})
        objectives = rng.sample(range(1, 9), 2)
        done = False
        for side, card in zip(("allies", "germans"), objectives):
            mine = {d["road"] for d in roads if d["conquered"] == side}
            done |= len(mine) >= 3 or set(ref.OBJECTIVES[card - 1]) <= mine
        if done:
            continue
        return {"game": "ardennes", "variant": variant, "road_length": L,
                "max_rounds": max_rounds, "round": rng.randint(1, max_rounds),
                "to_move": rng.choice(("allies", "germans")), "ap": rng.randint(1, 4),
                "roads": roads, "stock": stock,
                "objectives": {"allies": objectives[0], "germans": objectives[1]},
                "winner": None}


def play_from_position(rng, d, plies):
    game = ardsearch.load_game("ardennes", variant=d["variant"], road_length=d["road_length"],
                               max_rounds=d["max_rounds"])
    eng = game.state_from_dict(d)
    model = ref.ArdennesState.from_dict(d)
    start = f"\n  start position: {d}"
    for ply in range(plies):
        got = {k: eng.to_dict().get(k) for k in SCHEMA_KEYS}
        assert got == model.to_dict(), f"to_dict at ply {ply}{start}\n  engine: {got}\n  " \
            f"reference: {model.to_dict()}\n  moves: {[ref.action_to_string(a) for a in model.history]}"
        if model.is_terminal():
            assert eng.is_terminal() and list(eng.returns()) == model.returns(), f"returns{start}"
            return
        want = model.legal_actions()
        got = list(eng.legal_actions())
        assert got == want, (
            f"legal actions at ply {ply}{start}\n  moves: "
            f"{[ref.action_to_string(a) for a in model.history]}\n  engine only: "
            f"{[ref.action_to_string(a) for a in set(got) - set(want)]}\n  reference only: "
            f"{[ref.action_to_string(a) for a in set(want) - set(got)]}\n{model}")
        action = _pick(rng, want, True)
        eng.apply_action(action)
        model.apply(action, check=False)


@pytest.mark.parametrize("variant,L", [("standard", 16), ("standard", 8), ("standard", 11),
                                       ("basic", 13), ("standard", 24)])
def test_engine_matches_reference_from_random_positions(variant, L):
    rng = random.Random(f"{variant}-{L}")
    for _ in range(80):
        d = random_position(rng, variant, L, max_rounds=rng.choice((3, 80)))
        play_from_position(rng, d, plies=30)
