"""The board geometry the refusal reasons read from the engines
(ardsearch/games/<game>/_illegal_reasons.py): Mortain's hex distance,
Stosstruppen's square distance, front arc and edge contact, Undaunted's tile
distance. Each is the engine's own C function behind a small `def`; here it
agrees with the rule on hand-picked pairs and refuses a bad name with
ValueError. Each docstring quotes the game's RULES.md."""
from __future__ import annotations

import pytest

import ardsearch
from ardsearch.games.mortain._engine import hex_distance
from ardsearch.games.stosstruppen._engine import in_assault_contact, in_front_arc, square_distance
from ardsearch.games.undaunted._engine import tile_distance


def test_mortain_hex_distance_follows_the_map():
    """RULES.md, Map: "Hexes are flat-topped and odd columns sit half a hex
    higher, so `0704` touches `0703`, `0705`, `0603`, `0604`, `0803`, `0804`
    and an even column's `0604` touches `0603`, `0605`, `0504`, `0505`,
    `0704`, `0705`." """
    for h in ("0703", "0705", "0603", "0604", "0803", "0804"):
        assert hex_distance("0704", h) == 1
    for h in ("0603", "0605", "0504", "0505", "0704", "0705"):
        assert hex_distance("0604", h) == 1
    assert hex_distance("0704", "0704") == 0
    assert hex_distance("0704", "0605") == 2      # touches 0604, not 0704
    assert hex_distance("0704", "0702") == 2
    assert hex_distance("0803", "0601") == 3
    assert hex_distance("0101", "1309") == 14
    assert hex_distance("1309", "0101") == 14


@pytest.mark.parametrize("bad", ["0000", "1401", "0710", "abcd", "704", "07040", "", None, 704])
def test_mortain_hex_distance_refuses_a_name_off_the_map(bad):
    with pytest.raises(ValueError, match="hex"):
        hex_distance(bad, "0704")
    with pytest.raises(ValueError, match="hex"):
        hex_distance("0704", bad)


def test_stosstruppen_square_distance_is_chebyshev():
    """RULES.md, Table and measurement: "Distance is Chebyshev (a diagonal step
    is 1)." """
    assert square_distance("c3", "c3") == 0
    assert square_distance("c3", "d4") == 1
    assert square_distance("c3", "b2") == 1
    assert square_distance("a1", "c2") == 2
    assert square_distance("d3", "n9") == 10
    assert square_distance("p12", "a1") == 15


def test_stosstruppen_front_arc():
    """RULES.md, Fire: "a target is in the arc looking in a direction if its
    forward distance f >= 1 and 2 x |sideways| <= f + 1 (the 3 squares in
    front, widening one column every two squares)." """
    assert all(in_front_arc("n", "h5", sq) for sq in ("g6", "h6", "i6"))     # the 3 squares in front
    assert not any(in_front_arc("n", "h5", sq) for sq in ("h5", "g5", "h4", "f6", "f7"))
    assert in_front_arc("n", "h5", "f8")           # 2 columns aside 3 squares on
    assert in_front_arc("s", "n9", "n8") and not in_front_arc("s", "n9", "n10")
    assert in_front_arc("e", "c3", "d4") and not in_front_arc("e", "c3", "b3")
    assert in_front_arc("w", "c3", "b2") and not in_front_arc("w", "c3", "c2")


def test_stosstruppen_assault_contact():
    """Contract: "foot units in contact (adjacent square) with an enemy may
    assault", "Distance is Chebyshev (diagonal = 1)": the 8 squares around."""
    assert all(in_assault_contact("d7", sq) for sq in ("d6", "d8", "c7", "e7", "c6", "e6", "c8", "e8"))
    assert not any(in_assault_contact("d7", sq) for sq in ("d7", "d9", "f7", "b5", "f9"))


@pytest.mark.parametrize("bad", ["q1", "a0", "a13", "A1", "c", "", None, 3])
def test_stosstruppen_geometry_refuses_a_bad_square(bad):
    for f in (lambda: square_distance(bad, "c3"), lambda: square_distance("c3", bad),
              lambda: in_front_arc("n", bad, "c3"), lambda: in_assault_contact("c3", bad)):
        with pytest.raises(ValueError, match="expected a square like 'c3'"):
            f()


@pytest.mark.parametrize("bad", ["x", "N", "north", "", None, 0])
def test_stosstruppen_front_arc_refuses_a_bad_facing(bad):
    with pytest.raises(ValueError, match="expected a facing n, e, s or w"):
        in_front_arc(bad, "c3", "c4")


def undaunted_tiles(scenario: int) -> list[dict]:
    return ardsearch.load_game("undaunted", scenario=scenario).new_initial_state(seed=0).to_dict()["tiles"]


def test_undaunted_tile_distance_is_the_shortest_path_over_the_scenarios_adjacency():
    """RULES.md, Tiles: "Distance is the shortest path in tiles over the
    scenario's adjacency (contract)." Scenario 2: 10A touches 5A and 11A,
    9A is two steps (10A-11A-9A), 2A three; 1A and 12A are two steps in
    scenario 2 but 1A is no tile of scenario 1."""
    tiles = undaunted_tiles(2)
    assert tile_distance(tiles, "10A", "10A") == 0
    assert tile_distance(tiles, "10A", "5A") == tile_distance(tiles, "10A", "11A") == 1
    assert tile_distance(tiles, "10A", "9A") == tile_distance(tiles, "9A", "10A") == 2
    assert tile_distance(tiles, "10A", "1A") == tile_distance(tiles, "10A", "12A") == 2
    assert tile_distance(tiles, "10A", "2A") == 3
    assert tile_distance(tiles, "10A", "4A") == 5
    scenario_1 = undaunted_tiles(1)
    assert tile_distance(scenario_1, "17B", "13B") == 1
    with pytest.raises(ValueError, match="'1A' is not a tile of this board"):
        tile_distance(scenario_1, "17B", "1A")


def test_undaunted_tile_distance_on_a_board_given_by_hand():
    """The board is the one passed: a row 1A-2A-3A, and 4A joined to nothing
    (99: no path)."""
    row = [{"name": "1A", "cover": 0, "adjacent": ["2A"]},
           {"name": "2A", "cover": 1, "adjacent": ["1A", "3A"]},
           {"name": "3A", "cover": "hill", "adjacent": ["2A"]},
           {"name": "4A", "cover": 0, "adjacent": []}]
    assert tile_distance(row, "1A", "3A") == 2
    assert tile_distance(row, "3A", "1A") == 2
    assert tile_distance(row, "1A", "4A") == 99


@pytest.mark.parametrize("bad", ["zz", "19A", "10C", "", None, 10, ["10A"]])
def test_undaunted_tile_distance_refuses_a_name_not_on_the_board(bad):
    tiles = undaunted_tiles(2)
    with pytest.raises(ValueError, match="is not a tile of this board"):
        tile_distance(tiles, bad, "10A")
    with pytest.raises(ValueError, match="is not a tile of this board"):
        tile_distance(tiles, "10A", bad)


@pytest.mark.parametrize("board", [None, [], "10A", [{"name": "1A"}], [{"name": "1A", "cover": 0, "adjacent": ["9A"]}]])
def test_undaunted_tile_distance_refuses_a_bad_board(board):
    with pytest.raises(ValueError):
        tile_distance(board, "1A", "1A")
