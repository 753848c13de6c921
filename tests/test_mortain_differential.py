"""Differential test: the engine against the pure-Python reference model
(tests/reference/mortain.py) over seeded random games. Both are driven by the
same choices, made on the sorted notation of the legal moves, so the test
needs nothing from the engine but its notation."""
import random

import pytest

from ardsearch.games.mortain import _engine as E
from reference import mortain as ref  # tests/ is on sys.path (pytest rootdir-relative import)

GAMES = 200


def engine_moves(raw):
    if E.player(raw) == -1:
        return {E.action_text(raw, a): p for a, p in E.chance(raw)}
    return sorted(E.action_text(raw, a) for a in E.legal(raw))


def play(seed, setup="historical", strike_terrain="errata"):
    rng = random.Random(seed)
    raw = E.initial_raw(E.pack_params({"setup": setup, "strike_terrain": strike_terrain}))
    model = ref.Mortain(setup, strike_terrain)
    record = []
    while True:
        cp = E.player(raw)
        expected = {"chance": -1, "terminal": -4}.get(model.player(), model.player())
        assert cp == expected, f"seed {seed} after {record[-8:]}: player {cp} vs reference {expected}"
        if cp == -4:
            break
        mine = engine_moves(raw)
        if cp == -1:
            theirs = model.chances()
            assert mine.keys() == theirs.keys(), f"seed {seed} after {record[-8:]}: cards {mine} vs {theirs}"
            for c, p in theirs.items():
                assert abs(mine[c] - float(p)) < 1e-12, (seed, c)
            cards = sorted(theirs)
            move = rng.choices(cards, [float(theirs[c]) for c in cards])[0]
        else:
            theirs = model.legal()
            assert mine == theirs, (f"seed {seed} after {record[-8:]}:\n engine only {sorted(set(mine) - set(theirs))}"
                                    f"\n reference only {sorted(set(theirs) - set(mine))}")
            move = rng.choice(theirs)
        record.append(move)
        raw = E.apply(raw, E.parse(raw, move))
        model.apply(move)
        assert E.check(raw) is None, (seed, record[-8:], E.check(raw))
    assert E.returns(raw) == model.returns(), seed
    units = E.to_dict(raw)["units"]
    for uid in ref.ORDER:
        at = model.at[uid]
        at = {"dead": "eliminated"}.get(at, at) if isinstance(at, str) else ref.name(at)
        assert units[uid]["at"] == at, (seed, uid)
        assert units[uid]["reduced"] == (uid in model.reduced), (seed, uid)
    return len(record)


def test_random_games_match_reference():
    for seed in range(GAMES):
        play(seed)


@pytest.mark.parametrize("setup,strike", [("free", "errata"), ("historical", "variant"), ("free", "variant")])
def test_parameters_match_reference(setup, strike):
    for seed in range(10):
        play(1000 + seed, setup, strike)
