"""Difficulty levels (ardsearch/levels.py, bots/level-*.toml): they load,
their names are shown, the strongest is the bare `mcts` preset, the move
noise stays among near-best moves, and a wanted Elo maps to settings.
Exact checks only: no strength and no timing is asserted here."""
import random

import pytest

import ardsearch
from ardsearch import bots, levels
from ardsearch.levels import LevelBot, find_level, for_elo, pick_move

TITLES = ["beginner", "novice", "club", "strong", "expert", "strongest"]


def test_the_levels_load_weakest_first_with_their_names():
    """Issue 15: "Difficulty levels a person can choose: presets from beginner
    to strongest"."""
    found = levels.levels()
    assert [lv.preset for lv in found] == [f"level-{i}" for i in range(1, 7)]
    assert [lv.title for lv in found] == TITLES
    for lv in found:
        assert lv.description.startswith(f"Level {lv.number} of 6, {lv.title}")
        assert lv.preset in bots.list_bots()


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_every_level_builds_a_bot_in_every_game(name):
    game = ardsearch.load_game(name)
    for lv in levels.levels():
        bot = ardsearch.load_bot(lv.preset, game, seed=1)
        assert isinstance(bot, LevelBot) and bot.name == lv.preset


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_the_strongest_level_is_the_bare_mcts_preset(name):
    """Brief: "Defaults are the best play: the strongest level and the bare
    `mcts` preset agree." Same search settings, no noise."""
    game = ardsearch.load_game(name)
    top = ardsearch.load_bot("level-6", game, seed=5)
    bare = ardsearch.load_bot("mcts", game, seed=5)
    assert top.temperature == 0.0
    assert type(top.inner) is type(bare)
    assert top.inner.settings == bare.settings
    assert (top.inner.simulations, top.inner.time_limit, top.inner.shape) == \
        (bare.simulations, bare.time_limit, bare.shape)


def test_a_level_plays_the_same_moves_as_its_search_with_no_noise():
    """level-5 (no noise) plays exactly what its base search at its budget
    (and with its Mortain table) plays."""
    game = ardsearch.load_game("mortain")
    s = game.new_initial_state(seed=3)
    while s.is_chance_node():
        s.apply_random_chance()
    lv = ardsearch.load_bot("level-5", game, seed=2, simulations=300)
    plain = ardsearch.load_bot("mcts", game, seed=2, simulations=300,
                               **find_level("level-5").games.get("mortain", {}))
    assert lv.step(s) == plain.step(s)


def test_level_moves_are_legal_and_reproducible():
    """The noise comes from the bot's seed: the same seed, the same moves."""
    game = ardsearch.load_game("stosstruppen")
    moves = []
    for _ in range(2):
        bot = ardsearch.load_bot("level-1", game, seed=9)
        s = game.new_initial_state(seed=4)
        played = []
        while not s.is_terminal() and len(played) < 25:
            if s.is_chance_node():
                s.apply_random_chance()
                continue
            a = bot.step(s)
            assert a in s.legal_actions()
            played.append(a)
            s.apply_action(a)
        moves.append(played)
    assert moves[0] == moves[1]


def test_find_level_by_name_title_or_number():
    assert find_level("level-3").title == "club"
    assert find_level("Expert").preset == "level-5"
    assert find_level("1").title == "beginner"
    with pytest.raises(ValueError, match="unknown level 'master'.*level-1 \\(beginner\\)"):
        find_level("master")


def test_bad_level_settings_are_named():
    game = ardsearch.load_game("ardennes")
    with pytest.raises(ValueError, match="temperature=-1"):
        ardsearch.load_bot("level-2", game, temperature=-1)
    with pytest.raises(ValueError, match="base must be a search preset"):
        ardsearch.load_bot("level-2", game, base="level-1")


# ---------------------------------------------------------------- the noise

def test_noise_is_off_at_temperature_zero():
    assert pick_move([1, 2, 3], [10, 80, 10], [0.1, 0.2, 0.3], [None] * 3, 2, 0.0, 1.0,
                     random.Random(0)) == 2


def test_noise_never_picks_a_move_far_below_the_best_or_unvisited_or_proven_lost():
    """Weakening "never by illegal or absurd play": only visited moves within
    max_loss of the best one's value, never a proven loss."""
    actions = [10, 11, 12, 13, 14]
    visits = [50, 40, 0, 30, 30]
    values = [0.50, 0.45, 0.49, 0.10, 0.48]
    proven = [None, None, None, None, -1]
    rng = random.Random(1)
    seen = {pick_move(actions, visits, values, proven, 10, 1.0, 0.1, rng) for _ in range(300)}
    assert seen == {10, 11}


def test_noise_always_takes_a_proven_win():
    rng = random.Random(1)
    for _ in range(50):
        assert pick_move([1, 2], [5, 5], [1.0, 0.99], [1, None], 1, 5.0, 1.0, rng) == 1


def test_noise_weights_follow_visits_to_the_power_one_over_temperature():
    """At temperature 0.5 a move with twice the visits is drawn four times as often."""
    rng = random.Random(7)
    n = 20000
    picks = [pick_move([1, 2], [200, 100], [0.0, 0.0], [None, None], 1, 0.5, 1.0, rng) for _ in range(n)]
    share = picks.count(1) / n
    assert abs(share - 0.8) < 0.02


# ---------------------------------------------------------------- Elo -> settings

SYNTHETIC = {
    "mcts": 'name = "mcts"\nalgorithm = "mcts"\n[params]\nsimulations = 100000\ntime_limit = 2.0\n',
    "level-1": ('name = "level-1"\nalgorithm = "level"\nlevel = 1\ntitle = "low"\n[params]\n'
                'simulations = 100\ntemperature = 1.0\nmax_loss = 0.4\n[elo]\ntoy = 200\n'),
    "level-2": ('name = "level-2"\nalgorithm = "level"\nlevel = 2\ntitle = "mid"\n[params]\n'
                'simulations = 10000\ntemperature = 0.0\n[elo]\ntoy = 600\nother = 50\n'),
    "level-3": ('name = "level-3"\nalgorithm = "level"\nlevel = 3\ntitle = "top"\n[params]\n'
                '[elo]\ntoy = 550\n'),
}


@pytest.fixture
def synthetic(monkeypatch):
    monkeypatch.setattr(bots, "_roster_files", lambda: dict(SYNTHETIC))


def test_for_elo_gives_the_levels_own_settings_at_their_elo(synthetic):
    low = for_elo("toy", 200)
    assert (low["simulations"], low["temperature"], low["max_loss"], low["near"]) == (100, 1.0, 0.4, "level-1")
    mid = for_elo("toy", 600)
    assert (mid["simulations"], mid["temperature"]) == (10000, 0.0)


def test_for_elo_interpolates_between_the_levels_around_it(synthetic):
    """Half-way in Elo: the simulations' geometric mean, the noise's arithmetic mean."""
    half = for_elo("toy", 400)
    assert half["simulations"] == 1000
    assert half["temperature"] == pytest.approx(0.5)
    assert half["max_loss"] == pytest.approx(0.2)
    assert half["time_limit"] == 2.0


def test_for_elo_interpolates_root_margin_a_dial_not_a_shape(monkeypatch):
    """root_margin (the one-ply band a level chooses from, Stosstruppen's
    strength dial) is interpolated like the noise, from a level's own table
    or else its base's; a game where neither sets it gets none."""
    roster = dict(SYNTHETIC)
    roster["mcts"] += '[games.toy]\nroot_margin = 0.01\n'
    roster["level-1"] = roster["level-1"].replace("[elo]", "[games.toy]\nroot_margin = 0.5\n[elo]")
    monkeypatch.setattr(bots, "_roster_files", lambda: roster)
    assert for_elo("toy", 200)["search"] == {"root_margin": 0.5}
    assert for_elo("toy", 300)["search"]["root_margin"] == pytest.approx(0.3775)
    assert for_elo("toy", 500)["search"]["root_margin"] == pytest.approx(0.1325)
    assert for_elo("toy", 600)["search"] == {}  # level-2's own: the base's 0.01 is the search's default
    assert "root_margin" not in for_elo("other", 50)["search"]


def test_a_noisy_measurement_below_a_weaker_level_is_raised_to_it(synthetic):
    """level-3 measured 550 < level-2's 600: the map stays monotone, the top is 600."""
    assert levels.elo_range("toy") == (200.0, 600.0)
    top = for_elo("toy", 600)
    assert top["simulations"] in (10000, 100000)


def test_for_elo_refuses_an_elo_outside_the_measured_levels(synthetic):
    with pytest.raises(ValueError, match="outside toy's measured levels: choose from 200 .* to 600"):
        for_elo("toy", 100)
    with pytest.raises(ValueError, match="no level has a measured Elo in nogame"):
        for_elo("nogame", 100)


# ---------------------------------------------------------------- per-game tables

# The Mortain tables of the level files (bench/README.md, "Stand at Mortain:
# levels that rise"): the search shape each level plays there.
MORTAIN_SHAPES = {
    "level-1": {"rollout_depth": 10, "normalize": False, "eval_children": True},
    "level-2": {"rollout_depth": 0, "normalize": True, "eval_children": True},
    "level-3": {"rollout_depth": 0, "normalize": True, "eval_children": True},
    "level-4": {"rollout_depth": 0, "normalize": True, "eval_children": True},
    "level-5": {"rollout_depth": 10, "normalize": True, "eval_children": True},
    # the bare mcts preset, whose own Mortain table (session 13) sets normalize and eval_children
    "level-6": {"rollout_depth": 10, "normalize": True, "eval_children": True},
}


def test_each_levels_mortain_table_is_applied_to_its_search():
    """A level's [games.mortain] table reaches the search it plays (the bot's,
    and the protocol's through level_settings), over its base's shape; other
    games keep the base's shape; level-6 has no table (the bare preset)."""
    from ardsearch.protocol.strength import level_settings
    mortain, ardennes = ardsearch.load_game("mortain"), ardsearch.load_game("ardennes")
    for lv in levels.levels():
        table = lv.games.get("mortain", {})
        bot = ardsearch.load_bot(lv.preset, mortain, seed=1)
        bare = ardsearch.load_bot(lv.base, mortain, seed=1)
        assert bot.inner.shape == {**bare.shape, **{k: v for k, v in table.items() if k in bare.shape}}
        assert {k: bot.inner.shape[k] for k in MORTAIN_SHAPES[lv.preset]} == MORTAIN_SHAPES[lv.preset]
        assert bot.inner.simulations == lv.settings("mortain").get("simulations", bare.simulations)
        assert level_settings(mortain, {}, {"algorithm": "level", "name": lv.preset})[0]["search"] == table
        other = ardsearch.load_bot(lv.preset, ardennes, seed=1)
        assert other.inner.shape == ardsearch.load_bot(lv.base, ardennes, seed=1).shape
    assert "mortain" not in find_level("level-6").games


# The Stosstruppen tables of the level files (bench/README.md, "Stosstruppen:
# levels by the one-ply band"): (simulations, root_margin, temperature) a level.
STOSSTRUPPEN_BANDS = {
    "level-1": (120, 1.0, 1.0),
    "level-2": (120, 0.5, 0.6),
    "level-3": (120, 0.3, 0.3),
    "level-4": (120, 0.05, 0.0),
    "level-5": (120, 0.01, 0.0),
    "level-6": (150000, 0.01, 0.0),  # the bare mcts preset
}


def test_each_levels_stosstruppen_band_reaches_its_search():
    """A level's [games.stosstruppen] table (budget, root_margin, noise)
    reaches the bot's search and the protocol's level settings; another
    game keeps the level's generic budget and noise."""
    from ardsearch.protocol.strength import level_settings
    stoss, ardennes = ardsearch.load_game("stosstruppen"), ardsearch.load_game("ardennes")
    for lv in levels.levels():
        bot = ardsearch.load_bot(lv.preset, stoss, seed=1)
        assert (bot.inner.simulations, bot.inner.shape["root_margin"], bot.temperature) \
            == STOSSTRUPPEN_BANDS[lv.preset]
        proto = level_settings(stoss, {}, {"algorithm": "level", "name": lv.preset})[0]
        assert (proto["simulations"], proto["temperature"]) == (STOSSTRUPPEN_BANDS[lv.preset][0],
                                                                 STOSSTRUPPEN_BANDS[lv.preset][2])
        assert proto["search"].get("root_margin", 0.01) == STOSSTRUPPEN_BANDS[lv.preset][1]
        other = ardsearch.load_bot(lv.preset, ardennes, seed=1)
        assert other.temperature == lv.params.get("temperature", 0.0)
        assert other.inner.simulations == lv.params.get("simulations", other.inner.simulations)


def test_a_level_passes_other_search_settings_to_its_base():
    """Settings besides budget and noise go to the base search, checked there."""
    game = ardsearch.load_game("ardennes")
    bot = ardsearch.load_bot("level-2", game, seed=1, rollout_depth=3, eval_children=True)
    assert (bot.inner.shape["rollout_depth"], bot.inner.shape["eval_children"]) == (3, True)
    with pytest.raises(ValueError, match="unknown override 'depth'.*simulations"):
        ardsearch.load_bot("level-2", game, depth=3)


def test_a_tournaments_limits_reach_a_level_as_they_reach_its_base():
    """`ardsearch tournament --bots level-1:nodes=7` recorded nodes 7 but the
    level searched its own 25 simulations (session 39): a tournament sets
    its limits on the bot it has, and a level's budget lives in its base
    search. A level's simulations, time limit and clock are now its base's,
    read and set through it, and its noise stays its own."""
    from ardsearch.tournament import parse_bot
    from ardsearch.tournament.entrants import Limits, apply_settings
    from ardsearch.tournament.players import BotPlayer
    game = ardsearch.load_game("ardennes(road_length=8,max_rounds=10)")
    (entrant,) = apply_settings([parse_bot("level-1:nodes=7")], [], Limits(movetime=0.2, clock="cpu"))
    player = BotPlayer(entrant)
    player.new_game(game, 0, 5)
    inner = player.bot.inner
    assert (inner.simulations, inner.time_limit, inner.clock) == (7, 0.2, "cpu")
    assert player.bot.temperature == ardsearch.load_bot("level-1", game).temperature > 0


def test_a_level_has_only_the_limits_its_base_has():
    """A tournament applies a limit where hasattr(bot, name) holds: a level
    on MCTS has simulations and no nodes or depth; one on expectimax the
    reverse; setting what the base lacks is refused with its name."""
    game = ardsearch.load_game("ardennes")
    on_mcts = ardsearch.load_bot("level-6", game)
    assert hasattr(on_mcts, "simulations") and not hasattr(on_mcts, "nodes")
    assert not hasattr(on_mcts, "depth")
    on_expectimax = LevelBot(game, base="expectimax")
    assert hasattr(on_expectimax, "nodes") and hasattr(on_expectimax, "depth")
    assert not hasattr(on_expectimax, "simulations")
    with pytest.raises(AttributeError, match="its base 'expectimax' has no setting 'simulations'"):
        on_expectimax.simulations = 10
    on_mcts.clock = "cpu"
    assert on_mcts.clock == on_mcts.inner.clock == "cpu"
