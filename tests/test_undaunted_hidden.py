"""Undaunted: Normandy: hidden hands, hidden draws and the hidden first bid.

A player's view must follow the game event by event from what that player
sees (its own draws, every public event, '?' for the rest), determinize()
must deal only what the view allows, and a bot's move must not depend on
what it cannot see.
"""
from __future__ import annotations

import copy
import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games import undaunted as U
from ardsearch.games.undaunted import _engine as E

HIDDEN = -2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import undaunted as ref  # noqa: E402


def random_game(scenario, seed, max_rounds=8):
    """A seeded random game through the raw engine: the list of (raw state, action)."""
    rng = random.Random(seed)
    raw = E._init(U.pack_params({"scenario": scenario, "max_rounds": max_rounds}))
    steps = []
    while E._current(raw) != -4:
        if E._current(raw) == -1:
            acts, probs = zip(*E._chance(raw))
            a = rng.choices(acts, probs)[0]
        else:
            a = rng.choice(E._legal(raw))
        steps.append((raw, a))
        raw = E._apply(raw, a)
    steps.append((raw, None))
    return steps


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_views_follow_the_game_from_what_each_player_sees(scenario):
    hidden_bids = hidden_draws = 0
    for seed in range(25):
        steps = random_game(scenario, seed)
        for p in (0, 1):
            view = E._observe(steps[0][0], p)
            for raw, a in steps:
                assert view == E._observe(raw, p), f"seed {seed} player {p}"
                assert E._validate(view) is None
                if a is None:
                    break
                if E._visible(raw, a, p):
                    view = E._apply(view, a)
                else:
                    if E.to_dict(raw)["phase"] == "bid1":
                        hidden_bids += 1
                    else:
                        hidden_draws += 1
                    view = E._apply(view, HIDDEN)
    assert hidden_bids > 0 and hidden_draws > 0


def test_determinize_stays_inside_the_view():
    for seed in range(6):
        for raw, _ in random_game(1, seed)[::5]:
            for p in (0, 1):
                view = E._observe(raw, p)
                for k in range(3):
                    full = E._determinize(view, p, seed * 100 + k)
                    assert E._validate(full) is None
                    assert E.to_dict(full)["viewer"] == -1
                    assert E._observe(full, p) == view
                    own = E.to_dict(full)["armies"][p]
                    assert own["hand"] == E.to_dict(raw)["armies"][p]["hand"]


def test_determinize_deals_the_right_multiset():
    # the opponent holds 3 cards out of a pool of {fog x2, rifA, psgt, sl_A}
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    d["armies"][1].update(hand={"fog": 2, "rifA": 1}, deck={"psgt": 1, "sl_A": 1})
    raw = E.from_dict(d)
    view = E._observe(raw, 0)
    counts = {}
    n = 3000
    for seed in range(n):
        hand = E.to_dict(E._determinize(view, 0, seed))["armies"][1]["hand"]
        assert sum(hand.values()) == 3
        for c, k in hand.items():
            counts[c] = counts.get(c, 0) + k
    # each of the 5 pool cards is in hand with probability 3/5
    assert counts["fog"] / n == pytest.approx(2 * 0.6, abs=0.06)
    for c in ("rifA", "psgt", "sl_A"):
        assert counts[c] / n == pytest.approx(0.6, abs=0.05)


def _two_worlds():
    """Two full states at a US decision that differ only in the German hand."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us.update(hand={"rifA": 1, "scoutA": 1, "psgt": 1}, deck={"fog": 2, "rifB": 1})
    a = copy.deepcopy(d)
    a["armies"][1].update(hand={"rifA": 1, "scoutA": 1, "fog": 1}, deck={"psgt": 1, "sl_A": 1, "fog": 1})
    b = copy.deepcopy(d)
    b["armies"][1].update(hand={"psgt": 1, "sl_A": 1, "fog": 1}, deck={"rifA": 1, "scoutA": 1, "fog": 1})
    return a, b


def test_views_ignore_the_opponent_hand():
    a, b = _two_worlds()
    ra, rb = E.from_dict(a), E.from_dict(b)
    assert ra != rb
    assert E._observe(ra, 0) == E._observe(rb, 0)
    assert E._observe(ra, 1) != E._observe(rb, 1)
    assert E._evaluate(E._observe(ra, 0), 0) == E._evaluate(E._observe(rb, 0), 0)


def test_ismcts_move_does_not_depend_on_the_opponent_hand():
    from ardsearch._core import Game
    game = Game(U.SPEC, {})
    a, b = _two_worlds()
    moves = []
    for d in (a, b):
        state = game.state_from_dict(d)
        bot = ardsearch.ISMCTSBot(game, simulations=400, seed=7, reuse_tree=False)
        moves.append(state.action_to_string(bot.step(state)))
    assert moves[0] == moves[1]


# ---------------------------------------------------------------- inferences from public events
def _game(**params):
    from ardsearch._core import Game
    return Game(U.SPEC, params)


def _us_attacks_german_rifle(german_hand, german_deck, german_discard=None):
    """A US turn: the US Rifleman A (in hand) attacks the German Rifleman A."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us.update(hand={"rifA": 1, "psgt": 1}, deck={"fog": 2, "rifB": 1, "scoutA": 1, "scoutB": 1, "sl_A": 1, "sl_B": 1})
    de.update(hand=german_hand, deck=german_deck, discard=german_discard or {})
    state = _game().state_from_dict(d)
    state.apply("rifA:attack:rifA")
    return state


def _german_hands(state, viewer=0, n=200):
    return [state.resample_from_infostate(viewer, seed).to_dict()["armies"][1]["hand"] for seed in range(n)]


@pytest.mark.parametrize("zone,discard", [("deck", {}), ("discard", {"rifA": 1})])
def test_a_casualty_from_the_deck_or_discard_proves_the_hand_held_none(zone, discard):
    """Rulebook, Combat step 4: a casualty is removed "1. From hand. 2. From
    discard pile. 3. From deck". So when the Germans take it from the deck (or
    the discard pile) in sight of both, their hand held no Rifleman A card,
    and the US view may not deal one there. The German pool still holds a
    Rifleman A after the hit (two were in the deck), so a sampler that forgets
    the inference puts it in the hand 4 times in 10."""
    state = _us_attacks_german_rifle({"fog": 1, "psgt": 1, "sl_A": 1, "scoutB": 1},
                                     {"rifA": 2, "rifB": 1, "scoutA": 1, "fog": 1, "sl_B": 1}, discard)
    view = state.view(0)
    outcomes = {view.action_to_string(a): p for a, p in view.chance_outcomes()}
    assert f"hit:{zone}" in outcomes and "hit:hand" in outcomes     # the US cannot tell before the roll
    state.apply(f"hit:{zone}")
    hands = _german_hands(state)
    assert not any(h.get("rifA") for h in hands)
    assert sum(sum(h.values()) for h in hands) == 4 * len(hands)
    # the other cards are still dealt from the rest of the pool (here every one of them can be in hand)
    assert {"rifB", "scoutA", "fog", "psgt", "sl_A", "sl_B", "scoutB"} <= {c for h in hands for c in h}


def test_a_casualty_from_the_hand_proves_the_hand_held_one():
    """Rulebook, Combat step 4 ("1. From hand"): after `hit:hand` the view
    knows one card of the unit was in the hand (it is now removed), and the
    rest of the hand is dealt as the draws allow, not from a pool that forgets
    it. Hand of 2 from a pool {rifA x2, fog x2}: the hand held a Rifleman A, so
    the other card is a Rifleman A with weight 1 (the pair) against 4 (a
    Rifleman A and a Fog of War): P = 1/5 (uniform over the pool would say 1/3)."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us.update(hand={"rifA": 1}, deck={"fog": 2, "rifB": 1})
    de.update(hand={"rifA": 2}, deck={"fog": 2})
    state = _game().state_from_dict(d)
    state.apply("rifA:attack:rifA")
    state.apply("hit:hand")
    hands = _german_hands(state, n=3000)
    share = sum(1 for h in hands if h.get("rifA")) / len(hands)
    assert share == pytest.approx(0.2, abs=0.03)


def test_inspire_keeps_the_card_known_in_hand():
    """Rulebook, Inspire: cards "from your play area ... to your hand" are
    taken in sight of both, so the opponent's view keeps them in the hand."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=1, initiative=0, turn_index=1)
    us, de = d["armies"]
    us.update(hand={}, deck={"fog": 2, "rifB": 1, "rifA": 1, "psgt": 1})
    de.update(hand={"sl_A": 1, "fog": 1, "scoutB": 1}, deck={"rifA": 1, "rifB": 2, "fog": 2, "psgt": 1},
              play={"rifA": 1})
    state = _game().state_from_dict(d)
    state.apply("sl_A:inspire:rifA")
    view = state.view(0)
    assert view.to_dict()["armies"][1]["hand"] == {"rifA": 1}
    assert all(h.get("rifA", 0) >= 1 for h in _german_hands(state, n=100))


def test_an_emptied_deck_shows_the_hand():
    """Rulebook, Draw Cards: "If your deck runs out, simply shuffle your
    discard pile to form a new deck." The deck ran out in sight of both, so
    the cards drawn before are exactly the old deck: the view keeps them as
    known, and the draws after the shuffle come from the discard pile."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="deal", round=1, to_move=1, initiative=0, draws_pending=4)
    us, de = d["armies"]
    de.update(hand={}, deck={"psgt": 1, "sl_A": 1}, discard={"fog": 3, "rifA": 1})
    state = _game().state_from_dict(d)
    for card in ("psgt", "sl_A", "fog", "rifA"):
        state.apply(f"draw:{card}")
    german = state.view(0).to_dict()["armies"][1]
    assert german["hand"] == {"psgt": 1, "sl_A": 1}
    hands = _german_hands(state, n=200)
    assert all(h.get("psgt") == 1 and h.get("sl_A") == 1 for h in hands)
    assert all(sum(h.get(c, 0) for c in ("fog", "rifA")) == 2 for h in hands)


def test_two_fogs_reveal_as_the_draws_imply():
    """Rules contract (Round 3: the remaining hand goes to the discard pile)
    and RULES.md (the hand is revealed smallest card first). A hand of two
    Fog of War reveals a Fog of War first with probability 1 on the full
    state. On the US view the German hand is 2 unknown cards dealt from a
    pool of 2 Fog of War and 7 other cards: a Fog of War comes first exactly
    when the hand holds one, P = 1 - C(7,2)/C(9,2) = 15/36 (not 2/9, the Fog
    share of the pool); each other card c comes first when the hand has no
    Fog of War and no card below c."""
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="leftover", round=1, to_move=1, initiative=0, turn_index=1)
    de = d["armies"][1]
    de.update(hand={"fog": 2}, deck={"rifA": 1, "rifB": 1, "scoutA": 1, "scoutB": 1, "sl_A": 1, "sl_B": 1, "psgt": 1})
    state = _game().state_from_dict(d)
    assert [(state.action_to_string(a), p) for a, p in state.chance_outcomes()] == [("reveal:fog", 1.0)]
    view = state.view(0)
    got = {view.action_to_string(a): p for a, p in view.chance_outcomes()}
    others = ["rifA", "rifB", "scoutA", "scoutB", "sl_A", "sl_B", "psgt"]   # in card order
    expected = {"reveal:fog": 15 / 36}
    for i, c in enumerate(others[:-1]):                            # c and one larger card of the 7
        expected[f"reveal:{c}"] = (len(others) - 1 - i) / 36
    assert got.keys() == expected.keys()
    for k in expected:
        assert got[k] == pytest.approx(expected[k], abs=1e-12)
    # after a Fog of War is revealed, the other card is a Fog of War in 1 of
    # the 15 hands holding one ({fog, fog} once, {fog, x} twice for each x)
    view.apply("reveal:fog")
    got = {view.action_to_string(a): p for a, p in view.chance_outcomes()}
    assert got["reveal:fog"] == pytest.approx(1 / 15, abs=1e-12)
    assert got["reveal:rifA"] == pytest.approx(2 / 15, abs=1e-12)


# ---------------------------------------------------------------- many positions reached by play
def _random_play(scenario, seed, max_rounds=6):
    """(state, model, belief) at every step of a seeded random game through the
    core State, the reference model and the reference's public belief."""
    rng = random.Random(seed * 31 + scenario)
    state = _game(scenario=scenario, max_rounds=max_rounds).new_initial_state(seed=seed)
    model = ref.Undaunted(state.to_dict())
    belief = ref.PublicBelief(model)
    while True:
        yield state, model, belief
        if state.is_terminal():
            return
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            a = rng.choices(acts, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        move = state.action_to_string(a)
        belief.update(model, move)
        model.apply(move)
        state.apply_action(a)


def _sample_key(full, army):
    d = full.to_dict()
    ar = d["armies"][army]
    hidden_bid = d["phase"] in ("bid2", "reveal") and army == d["initiative"] and ar["bid"] is not None
    return tuple(ar["hand"].get(c, 0) for c in ref.CARDS), ref.ORDER[ar["bid"]] if hidden_bid else None


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_no_resample_contradicts_a_public_event(scenario):
    """Contract, Hidden information: `determinize` deals the opponent's hand
    "from that multiset" — and RULES.md: only hands that fit every public
    event (casualty zones, plays, bids, reveals, Inspire, emptied decks). Every
    sample must be a hand (and hidden first bid) the reference's exact public
    belief gives a positive weight."""
    samples = 0
    for seed in range(12):
        for step, (state, model, belief) in enumerate(_random_play(scenario, seed)):
            if step % 3:
                continue
            for p in (0, 1):
                post = belief.posterior(1 - p)
                for k in range(4):
                    full = state.resample_from_infostate(p, seed * 100003 + step * 17 + k)
                    key = _sample_key(full, 1 - p)
                    assert post.get(key, 0.0) > 0.0, (scenario, seed, step, p, model.phase, key)
                    assert full.view(p).raw() == state.view(p).raw()
                    samples += 1
    assert samples > 1000


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_view_chance_probabilities_are_exact(scenario):
    """RULES.md, Hidden information: a chance node on a view gives each
    outcome the chance of the full state's outcome over the hands the viewer
    thinks possible, weighted by the posterior (draws, first-bid reveals,
    leftover reveals, casualty zones). Compared, at every chance node of
    seeded random games and for both viewers, with the reference's exact
    enumeration of the hands."""
    nodes = 0
    for seed in range(10):
        for state, model, belief in _random_play(scenario, seed):
            if not state.is_chance_node():
                continue
            for p in (0, 1):
                view = state.view(p)
                got = {view.action_to_string(a): x for a, x in view.chance_outcomes()}
                want = {k: x for k, x in belief.view_chance(model, p).items() if x > 0}
                assert got.keys() == want.keys(), (scenario, seed, p, model.phase)
                for k in want:
                    assert got[k] == pytest.approx(want[k], abs=1e-9), (scenario, seed, p, model.phase, k)
                nodes += 1
    assert nodes > 500


def test_view_chance_matches_resampled_full_states():
    """The view's chance probabilities against the empirical frequencies of the
    full state's outcome over resample_from_infostate samples, on the chance
    nodes whose outcome depends on the opponent's hand (leftover reveals,
    casualty zones, the first bid's reveal) of seeded random games."""
    checked = 0
    for seed in range(30):
        for state, model, belief in _random_play(1, seed):
            if not state.is_chance_node() or model.phase not in ("leftover", "roll", "reveal"):
                continue
            for p in (0, 1):
                view = state.view(p)
                if view.to_dict()["armies"][1 - p]["unknown_hand"] == 0:
                    continue
                probs = dict(view.chance_outcomes())
                n = 300
                freq = {}
                for k in range(n):
                    full = state.resample_from_infostate(p, seed * 7919 + k)
                    for a, x in full.chance_outcomes():
                        freq[a] = freq.get(a, 0.0) + x / n
                assert set(freq) <= set(probs)
                for a, x in probs.items():
                    sigma = (x * (1 - x) / n) ** 0.5
                    assert abs(freq.get(a, 0.0) - x) <= 5 * sigma + 1e-9, (seed, p, model.phase)
                checked += 1
            if checked >= 40:
                return
    assert checked >= 20


def _plain_deal(pool, like):
    """The hands a uniform deal from the pool gives (no inference), as the
    size of the hands in `like`."""
    from math import comb
    size = sum(next(iter(like))[0])
    out = {}

    def rec(i, left, hand, w):
        if i == len(pool):
            if left == 0:
                out[(tuple(hand), None)] = w
            return
        for k in range(min(left, pool[i]) + 1):
            rec(i + 1, left - k, hand + [k], w * comb(pool[i], k))
    rec(0, size, [], 1.0)
    total = sum(out.values())
    return {k: w / total for k, w in out.items()}


def _tv(p, q):
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


def test_resample_frequencies_match_the_posterior():
    """determinize draws each possible hand with its exact posterior weight:
    over positions with recorded inferences, the frequency of each sampled
    hand stays within 5 standard errors of the reference's posterior, and the
    total variation distance stays within twice its sampling noise."""
    checked = 0
    for seed in range(40):
        for state, model, belief in _random_play(1, seed):
            if model.phase != "turn" or checked >= 12:
                continue
            p = 1 - model.to_move
            post = belief.posterior(1 - p)
            if len(post) < 3 or _tv(post, _plain_deal(belief.pool(model, 1 - p), post)) < 0.02:
                continue                                    # no inference to get right here
            n = 2000
            freq = {}
            for k in range(n):
                key = _sample_key(state.resample_from_infostate(p, seed * 1000003 + k), 1 - p)
                freq[key] = freq.get(key, 0) + 1 / n
            for key, x in post.items():
                assert abs(freq.get(key, 0.0) - x) <= 5 * (x * (1 - x) / n) ** 0.5 + 1e-9
            tv = _tv(freq, post)
            # mean absolute deviation of a frequency is about 0.8 standard errors
            assert tv < 0.5 * sum(1.6 * (x * (1 - x) / n) ** 0.5 for x in post.values()) + 0.01
            checked += 1
        if checked >= 12:
            break
    assert checked >= 6


def test_random_games_stay_inside_the_record_limits():
    """RULES.md, Hidden information: the record keeps at most 6 blocks and a
    table of 128 states, and is exact while it never has to merge blocks (a
    merge happens only when a new block would pass 6 blocks or a table of
    64 x 2). Random games of all three scenarios stay well inside."""
    most_blocks = largest = 0
    for scenario in (1, 2, 3):
        for seed in range(25):
            for raw, _ in random_game(scenario, 500 + seed):
                for army in E.to_dict(raw)["armies"]:
                    blocks = army["record"]["blocks"]
                    table = 1
                    for b in blocks:
                        table *= b["draws"] + 1
                    most_blocks = max(most_blocks, len(blocks))
                    largest = max(largest, table)
    assert 2 <= most_blocks < 6 and largest <= 64
