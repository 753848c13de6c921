"""Beliefs from the opponent's play (MCTS(belief=b, belief_samples=m);
MctsConfig::belief in csrc/ardsearch/search/mcts_worker.h). In ISMCTS each
search draws m determinizations of the searcher's view, weighs each by
exp(b * the opponent's evaluate() of it), and every simulation plays in one
drawn by weight: hidden facts
under which the opponent's position scores well are taken as likelier,
because it has played knowing them. Checked on Clash of the Ardennes, where
the hidden fact is the opponent's Objective card, and on the settings'
refusals. The match figures are in bench/README.md, "Ardennes: the
opponent's Objective card read from its play"."""
import copy

import pytest

import ardsearch
from ardsearch import _search


@pytest.fixture(scope="module")
def ardennes():
    return ardsearch.load_game("ardennes")


def germans_one_tank_from_card_2(game):
    """The Germans hold road 2 and need 3 more tiles on road 6 (one tank) to
    have both roads of Objective card 2 {2, 6}; the Allies (card 1) to move."""
    s = game.new_initial_state()
    for move in ("first:A", "obj:1", "obj:2"):
        s.apply(move)
    d = s.to_dict()
    d["round"] = 8
    d["roads"][1].update(germans=["M", "T", "T", "T", "T", "T"], conquered="germans")
    d["roads"][5]["germans"] = ["P", "P", "C", "C", "G"]
    d["stock"]["germans"] = {"M": 4, "T": 2, "P": 4, "C": 0, "S": 1, "G": 0, "Y": 1, "K": 1, "R": 1}
    return d


def test_the_opponents_evaluation_favours_the_card_its_roads_name(ardennes):
    """RULES (ardennes.md, Conquering and winning): "A player wins at once
    when they have conquered every road named on their Objective card".
    The Germans' evaluation is highest under card 2, whose roads they have
    all but taken, so that is the card the belief draws."""
    d = germans_one_tank_from_card_2(ardennes)
    german_value = {}
    for card in range(2, 9):
        d2 = copy.deepcopy(d)
        d2["objectives"]["germans"] = card
        german_value[card] = ardennes.state_from_dict(d2).evaluate(1)
    assert max(german_value, key=german_value.get) == 2


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_strong_belief_plays_against_the_card_the_roads_name(ardennes, seed):
    """RULES (ardennes.md, Turn): each Objective card "is hidden from the
    opponent". Uniform determinizations give card 2 one chance in seven; a
    strong belief (b = 1000 over 256 determinizations) draws it nearly always, so the
    Allies' searched value is lower: the threat on road 6 is taken as real."""
    view = ardennes.state_from_dict(germans_one_tank_from_card_2(ardennes)).view(0)
    args = dict(seed=seed, rollout_depth=0, exploration=0.5)
    uniform = _search.MCTS(ardennes.capsule, **args).search(view.raw(), simulations=2000)
    believed = _search.MCTS(ardennes.capsule, belief=1000.0, **args).search(
        view.raw(), simulations=2000)
    assert believed["value"] < uniform["value"] - 0.01
    # the block of road 6's last three tiles: a tank (or the command tank)
    assert believed["best_notation"] in ("T6", "K6")


@pytest.mark.parametrize("threads", [1, 2])
def test_the_same_seed_gives_the_same_search(ardennes, threads):
    """With a simulation budget the belief's extra draws come from each
    thread's own seeded generator: the same seed, the same answer."""
    view = ardennes.state_from_dict(germans_one_tank_from_card_2(ardennes)).view(0)
    runs = [_search.MCTS(ardennes.capsule, seed=5, threads=threads, belief=16.0).search(
        view.raw(), simulations=1500) for _ in range(2)]
    assert runs[0]["visits"] == runs[1]["visits"]
    assert runs[0]["value"] == runs[1]["value"]


def test_the_settings_refuse_what_they_cannot_do(ardennes):
    """belief weighs determinizations, so a game without hidden information
    (Stand at Mortain) or a plain MCTS search refuses it, saying what to do."""
    with pytest.raises(ValueError, match="belief must be >= 0"):
        _search.MCTS(ardennes.capsule, belief=-1.0)
    for n in (0, 4097):
        with pytest.raises(ValueError, match="belief_samples must be between 1 and 4096"):
            _search.MCTS(ardennes.capsule, belief=1.0, belief_samples=n)
    with pytest.raises(ValueError, match="it needs ismcts"):
        _search.MCTS(ardennes.capsule, ismcts=False, belief=1.0)
    mortain = ardsearch.load_game("mortain")
    with pytest.raises(ValueError, match="it needs ismcts"):
        _search.MCTS(mortain.capsule, belief=1.0)
    with pytest.raises(ValueError, match="belief"):
        ardsearch.MCTSBot(ardennes, simulations=10, belief=-2)
    with pytest.raises(ValueError, match="belief_samples"):
        ardsearch.MCTSBot(ardennes, simulations=10, belief=1, belief_samples=5000)


def test_the_bot_passes_the_setting_and_plain_mcts_drops_a_preset_belief(ardennes):
    """A bot's belief reaches its search; a bot forced to plain MCTS
    (ismcts=False) plays without the preset's belief unless it is given."""
    bot = ardsearch.MCTSBot(ardennes, simulations=10, belief=16, belief_samples=4)
    assert (bot.shape["belief"], bot.shape["belief_samples"]) == (16.0, 4)
    assert ardsearch.MCTSBot(ardennes, simulations=10, ismcts=False).shape["belief"] == 0.0
    s = ardennes.new_initial_state()
    for move in ("first:A", "obj:1", "obj:2"):
        s.apply(move)
    move, info = bot.play(s)
    assert move in s.legal_actions()


def test_the_engine_drops_a_belief_in_plain_mcts(ardennes):
    """The protocol engine builds its search from a shape; a belief in it
    (an ISMCTS-only setting) is dropped when the engine searches plain MCTS
    (Algorithm mcts), as a plain-MCTS setting is dropped under ismcts,
    instead of the search refusing to start."""
    from ardsearch.bots import search_shape
    from ardsearch.protocol.searcher import make_search
    settings = {"Seed": 0, "Hash": 64, "Exploration": "auto"}
    shape = dict(search_shape("mcts", ardennes), belief=16.0)
    assert make_search(ardennes, "mcts", settings, None, shape=shape).ismcts is False
    assert make_search(ardennes, "ismcts", settings, None, shape=shape).ismcts is True
