"""state.undo() and state.clone(): the generic core's take-back and copy.

The contract (README, Python API): undo() restores the previous decision point
exactly -- the state before the last player decision, every chance outcome
after it taken back too, and the RNG, history and notation as they were; with
nothing to undo it raises a ValueError that says so. A clone is equal to its
original and independent of it (history and undo stack included). States read
back from bytes or dicts, and samples from resample_from_infostate, have no
undo history.
"""
from __future__ import annotations

import pickle
import random

import pytest

import ardsearch
from ardsearch.games import GAMES

PARAMS = {"microarmour": {"deployment": "close"}}


def game_of(name):
    return ardsearch.load_game(name, **PARAMS.get(name, {}))


def snapshot(s):
    """Everything undo must restore, plus a clone to continue from."""
    return {"raw": s.raw(), "ser": s.serialize(), "dict": s.to_dict(), "hist": s.history(),
            "notes": s.history_strings(), "legal": s.legal_actions(), "depth": s.undo_depth(),
            "masked": [s.masked_history(0), s.masked_history(1)], "clone": s.clone()}


def assert_restored(s, snap):
    assert s == snap["clone"]
    assert s.raw() == snap["raw"] and s.serialize() == snap["ser"]
    assert s.to_dict() == snap["dict"]
    assert s.history() == snap["hist"] and s.history_strings() == snap["notes"]
    assert [s.masked_history(0), s.masked_history(1)] == snap["masked"]
    assert s.legal_actions() == snap["legal"]
    assert s.undo_depth() == snap["depth"]


def continuation(s, seed, steps=40):
    """The next `steps` events from s: decisions from a seeded choice, chance
    outcomes drawn with the state's own RNG (apply_random_chance)."""
    s = s.clone()
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            s.apply_random_chance()
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s.history_strings(), s.raw()


def play_recording(s, rng, decisions):
    """Plays until `decisions` player decisions are made (or the game ends),
    recording a snapshot before each decision."""
    snaps = []
    while len(snaps) < decisions and not s.is_terminal():
        if s.is_chance_node():
            s.apply_random_chance()
            continue
        snaps.append(snapshot(s))
        s.apply_action(rng.choice(s.legal_actions()))
    return snaps


@pytest.mark.parametrize("name", GAMES)
def test_undo_restores_every_decision_point_exactly(name):
    """undo() takes back the last decision and the chance outcomes after it; the
    state, history, notation, legal moves and the RNG's next draws are exactly
    those before the decision."""
    game = game_of(name)
    for seed in range(3):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        snaps = play_recording(s, rng, 60)
        assert len(snaps) > 10
        assert s.undo_depth() == len(snaps)
        for snap in reversed(snaps):
            hist = s.history()
            taken = s.undo()
            assert_restored(s, snap)
            assert taken == hist[len(snap["hist"])]
            # the same seeded continuation gives the same events (the RNG is restored)
            assert continuation(s, seed) == continuation(snap["clone"], seed)
        assert not s.can_undo()
        with pytest.raises(ValueError, match="nothing to undo"):
            s.undo()


@pytest.mark.parametrize("name", GAMES)
def test_undo_returns_the_decision_and_replays_identically(name):
    """undo() returns the action taken back; applying it again with the restored
    RNG gives the same chance outcomes as the first time."""
    game = game_of(name)
    s = game.new_initial_state(seed=11)
    play_recording(s, random.Random(5), 20)
    while s.is_chance_node():
        s.apply_random_chance()
    before = s.clone()
    action = s.legal_actions()[0]
    s.apply_action(action)
    for _ in range(30):
        if not s.is_chance_node():
            break
        s.apply_random_chance()
    after = s.clone()
    assert s.undo() == action
    assert s == before and s.history() == before.history()
    s.apply_action(action)
    for _ in range(30):
        if not s.is_chance_node():
            break
        s.apply_random_chance()
    assert s == after and s.history_strings() == after.history_strings()


def test_undo_at_the_end_and_after_a_failed_move():
    """A finished game can be taken back; an illegal move changes nothing, the
    undo stack included."""
    game = ardsearch.load_game("ardennes", max_rounds=1, road_length=8, first="allies")
    s = game.new_initial_state(seed=0)
    s.apply("obj:1")
    s.apply("obj:2")
    s.apply("pass")
    before = snapshot(s)
    s.apply("pass")
    assert s.is_terminal() and s.outcome() is not None
    with pytest.raises(ardsearch.IllegalMoveError):
        s.apply("pass")
    assert s.undo_depth() == 2
    assert s.undo() == s.string_to_action("pass")
    assert_restored(s, before)
    assert s.outcome() is None
    with pytest.raises(ardsearch.IllegalMoveError):
        s.apply("a3")
    assert s.undo_depth() == 1


def test_nothing_to_undo_says_so():
    """A fresh game, a game with only chance events so far, and states read back
    from bytes, dicts or raw structs have no decision to take back."""
    game = ardsearch.load_game("ardennes")
    s = game.new_initial_state(seed=3)
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    s.apply_random_chance()
    assert s.is_chance_node() or s.current_player() in (0, 1)
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    while s.is_chance_node():
        s.apply_random_chance()
    s.apply_action(s.legal_actions()[0])
    assert s.can_undo()
    for other in (game.deserialize_state(s.serialize()), game.state_from_raw(s.raw()),
                  game.state_from_dict(s.to_dict())):
        assert not other.can_undo() and other.undo_depth() == 0
        with pytest.raises(ValueError, match="nothing to undo"):
            other.undo()


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_equal_and_independent(name):
    """A clone equals its original, and playing or undoing on one never touches
    the other (state, history, notation, undo stack, RNG)."""
    game = game_of(name)
    s = game.new_initial_state(seed=2)
    play_recording(s, random.Random(2), 15)
    c = s.clone()
    assert c == s and c.serialize() == s.serialize() and c.to_dict() == s.to_dict()
    assert c.history() == s.history() and c.undo_depth() == s.undo_depth()
    snap = snapshot(s)
    # play on the clone
    play_recording(c, random.Random(9), 10)
    c.undo()
    c.undo()
    assert_restored(s, snap)
    # undo on the original
    c = s.clone()
    csnap = snapshot(c)
    s.undo()
    assert_restored(c, csnap)
    assert continuation(c, 4) == continuation(csnap["clone"], 4)


@pytest.mark.parametrize("name", GAMES)
def test_pickle_keeps_history_rng_and_undo(name):
    """A pickled state comes back equal, with its history, RNG and undo stack."""
    game = game_of(name)
    s = game.new_initial_state(seed=8)
    play_recording(s, random.Random(8), 12)
    p = pickle.loads(pickle.dumps(s))
    assert p == s and p.history_strings() == s.history_strings() and p.undo_depth() == s.undo_depth()
    assert continuation(p, 1) == continuation(s, 1)
    s.undo()
    p.undo()
    assert p == s and p.history() == s.history()


def _mirror(full, view, player):
    """Applies to `view` the event just applied to `full`, as `player` saw it."""
    seen = full.masked_history(player)[-1]
    view.apply("?" if seen == "?" else seen)


@pytest.mark.parametrize("name", [g for g in GAMES if game_of(g).hidden_information])
def test_undo_in_a_view(name):
    """A view (view(player)) undoes to the view of the earlier position: what the
    player did not see stays hidden, also in its undo history. A view played
    forward with '?' undoes exactly too."""
    game = game_of(name)
    full = game.new_initial_state(seed=4)
    rng = random.Random(4)
    for player in (0, 1):
        s = full.clone()
        view = s.view(player)
        snaps = []
        for _ in range(400):
            if s.is_terminal() or len(snaps) >= 25:
                break
            if not s.is_chance_node():
                snaps.append((s.clone(), snapshot(view)))
                s.apply_action(rng.choice(s.legal_actions()))
            else:
                s.apply_random_chance()
            _mirror(s, view, player)
        assert view.raw() == s.view(player).raw()
        taken_from_full = s.view(player)
        for earlier, vsnap in reversed(snaps):
            view.undo()
            assert_restored(view, vsnap)
            taken_from_full.undo()
            # the view made from the full state undoes to the view of the earlier full state
            assert taken_from_full.raw() == earlier.view(player).raw()
            assert taken_from_full.history() == earlier.view(player).history()


@pytest.mark.parametrize("name", GAMES)
def test_resampled_state_has_no_undo_history(name):
    """resample_from_infostate draws a full state whose past is not determined:
    it has no undo history (README)."""
    game = game_of(name)
    s = game.new_initial_state(seed=6)
    play_recording(s, random.Random(6), 8)
    while s.is_chance_node():
        s.apply_random_chance()
    sample = s.resample_from_infostate(s.current_player(), seed=1)
    assert not sample.can_undo()
    with pytest.raises(ValueError, match="nothing to undo"):
        sample.undo()
    assert s.can_undo()
