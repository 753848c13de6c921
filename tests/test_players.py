"""The two sides of every game: game.player_names / player_titles /
player_index, and one encoding of the winner in to_dict() across games (the
side's name, "draw", or null)."""
from __future__ import annotations

import copy

import pytest

import ardsearch
from ardsearch.games import GAMES

SIDES = {
    "ardennes": (("allies", "germans"), ("Allies", "Germans")),
    "mortain": (("german", "us"), ("Germans", "US")),
    "undaunted": (("us", "germans"), ("US", "Germans")),
    "stosstruppen": (("german", "british"), ("Germans", "British")),
    "microarmour": (("german", "soviet"), ("Germans", "Soviets")),
}


@pytest.mark.parametrize("name", GAMES)
def test_player_names_and_titles(name):
    """Each game's sides, player 0 first, as its RULES.md structured state names
    them (and as a person reads them)."""
    game = ardsearch.load_game(name)
    names, titles = SIDES[name]
    assert game.player_names == names and game.player_titles == titles
    assert isinstance(game.player_names, tuple) and isinstance(game.player_titles, tuple)


@pytest.mark.parametrize("name", GAMES)
def test_player_index_by_name_title_or_number(name):
    game = ardsearch.load_game(name)
    names, titles = SIDES[name]
    for i in (0, 1):
        assert game.player_index(names[i]) == i
        assert game.player_index(names[i].upper()) == i
        assert game.player_index(titles[i]) == i
        assert game.player_index(f" {titles[i].lower()} ") == i
        assert game.player_index(i) == i
        assert game.player_index(str(i)) == i
    for bad in ("2", 2, -1, "", "nobody", None, True, 1.0):
        with pytest.raises(ValueError) as e:
            game.player_index(bad)
        assert names[0] in str(e.value) and names[1] in str(e.value)


def test_to_move_names_match_player_names():
    """Where to_dict names the side to move, it uses player_names."""
    for name in ("ardennes", "stosstruppen", "microarmour"):
        game = ardsearch.load_game(name)
        s = game.new_initial_state(seed=0)
        while s.is_chance_node():
            s.apply_random_chance()
        assert s.to_dict()["to_move"] == game.player_names[s.current_player()]


def _finished_undaunted():
    """RULES.md (Undaunted), End of the game: max_rounds ... "after the last round
    the game ends on points" -- here the Germans' 3 points to the US 2."""
    g = ardsearch.load_game("undaunted", max_rounds=1)
    from ardsearch.games import undaunted as U
    d = U.load_scenario(U.scenario_path(1))
    d.update(phase="turn", round=1, to_move=1, initiative=0, turn_index=1, max_rounds=1)
    s = g.state_from_dict(d)
    s.apply("end")
    return g, s


def test_undaunted_winner_is_a_side_name():
    """One encoding of the winner across games: Undaunted's to_dict names the
    winning army ("us" / "germans") as the other four games do."""
    g, s = _finished_undaunted()
    d = s.to_dict()
    assert d["winner"] == "germans" and d["end_reason"] == "max_rounds"
    assert s.view(0).to_dict()["winner"] == "germans"


def test_undaunted_from_dict_reads_the_winner_by_name():
    """state_from_dict accepts what to_dict writes, the old 0/1 too, and
    rejects anything else naming the choices."""
    g, s = _finished_undaunted()
    d = s.to_dict()
    from ardsearch.games.undaunted import _engine as E
    assert E.to_dict(E.from_dict(d, g.params)) == d
    old = copy.deepcopy(d)
    old["winner"] = 1
    assert E.to_dict(E.from_dict(old, g.params)) == d
    for bad in ("draw", "allies", 2, True):
        old["winner"] = bad
        with pytest.raises(ValueError, match="'us', 'germans' or null"):
            E.from_dict(old, g.params)
