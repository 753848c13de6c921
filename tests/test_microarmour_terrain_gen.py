"""Micro Armour's terrain-generation procedure (issue 12: "the
terrain-generation procedure (Open / Mixed / Closed density) as a seeded setup
option that builds a random legal map"): ardsearch/games/microarmour/terrain_gen.py
and `ardsearch microarmour-map`; RULES.md "Generated terrain".

Digest (Terrain): "Open uses 2 x 2D6%, Mixed 4 x 2D6% and Closed 7 x 2D6% of
the board area; each piece's area is recorded. Players alternate placing
features until the total is reached." and "Unless the scenario says otherwise,
maximum sighting distance is 40" in Open, 20" in Mixed and 10" in Closed
terrain." """
import os
import subprocess
import sys

import pytest

from ardsearch._toml import read_toml
from ardsearch.games.microarmour import _data
from ardsearch.games.microarmour.scenario_toml import dumps
from ardsearch.games.microarmour.terrain_gen import CLOSE_SHIFT, MULTIPLIER, SIGHTING, Table, generate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DENSITIES = ("open", "mixed", "closed")
BASES = ("introductory", "airstrike")
SEEDS = range(8)


def write(doc, folder, name):
    path = os.path.join(folder, f"{name}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(doc))
    return path


def chart_names():
    return {t["char"]: t["name"] for t in _data.load_charts()["terrain"]}


def test_same_seed_same_map_and_other_seeds_differ():
    """'a seeded setup option': the same density, seed and base give the same
    scenario; the seeds 0..7 give eight different tables."""
    for density in DENSITIES:
        assert generate(density, 11) == generate(density, 11)
        assert len({tuple(generate(density, s)["map"]) for s in SEEDS}) == len(SEEDS)


@pytest.mark.parametrize("density", DENSITIES)
def test_density_total_is_the_multiplier_times_2d6_percent(density):
    """"Open uses 2 x 2D6%, Mixed 4 x 2D6% and Closed 7 x 2D6% of the board
    area ... until the total is reached": the recorded 2D6 roll is 2..12, the
    total is multiplier x roll percent of the squares (rounded), and the
    table's feature squares (neither clear nor road) are exactly the total.
    "maximum sighting distance is 40" in Open, 20" in Mixed and 10" in Closed":
    the file's sighting."""
    names = chart_names()
    for seed in SEEDS:
        doc = generate(density, seed)
        g = doc["generated"]
        assert 2 <= g["roll_2d6"] <= 12 and g["percent"] == MULTIPLIER[density] * g["roll_2d6"]
        squares = len(doc["map"]) * len(doc["map"][0])
        assert g["board_squares"] == squares and g["total"] == round(g["percent"] * squares / 100)
        features = sum(1 for row in doc["map"] for ch in row if names[ch] not in ("clear", "road"))
        assert features == g["total"] == g["feature_squares"]
        assert doc["sighting"] == SIGHTING[density] and doc["density"] == density


def test_each_piece_recorded_and_the_sides_alternate():
    """"each piece's area is recorded. Players alternate placing features":
    the pieces list their placing side, alternating from the scenario's first
    side, their terrain and area; their areas plus the village make the total."""
    names = chart_names()
    doc = generate("mixed", 3)
    pieces = doc["generated"]["pieces"]
    assert [p["by"] for p in pieces] == [("german", "soviet")[i % 2] for i in range(len(pieces))]
    assert all(p["terrain"] in ("woods", "rough", "hill") and p["area"] >= 1 for p in pieces)
    village = sum(1 for row in doc["map"] for ch in row if names[ch] == "buildings")
    assert village + sum(p["area"] for p in pieces) == doc["generated"]["total"]


@pytest.mark.parametrize("base", BASES)
def test_every_generated_map_passes_the_loader_and_is_legal(base, tmp_path):
    """Every generated file loads through the scenario loader (its validation:
    map, stands, aircraft, buildings), keeps the base's village and roads
    (the objective), puts no stand (either deployment) on terrain its class
    may not enter, and every stand can reach the village."""
    charts, weapons = _data.load_charts(), _data.load_weapons()
    base_map = read_toml(os.path.join(ROOT, "ardsearch", "games", "microarmour", "scenarios", f"{base}.toml"))["map"]
    names = chart_names()
    for density in DENSITIES:
        for seed in SEEDS:
            doc = generate(density, seed, base)
            path = write(doc, tmp_path, f"{base}{density}{seed}")
            sc = _data.load_scenario(path=path, charts=charts, weapons=weapons)
            assert read_toml(path) == doc                   # the writer round-trips
            for row, old in zip(doc["map"], base_map):
                for ch, was in zip(row, old):
                    assert (names[ch] in ("buildings", "road")) == (names[was] in ("buildings", "road"))
                    if names[was] in ("buildings", "road"):
                        assert ch == was
            table = Table(read_toml(path), charts, weapons)
            assert table.connected()
            for p, stands in enumerate(sc["stands"]):
                for st in stands:
                    cls = "WTFA".index(weapons[st["type"]]["move"])
                    shift = CLOSE_SHIFT if p == 0 else -CLOSE_SHIFT     # the engine's close deployment
                    for x in (st["x"], st["x"] + shift):
                        assert charts["terrain"][sc["grid"][st["y"]][x]]["cost"][cls] != 0


def test_a_generated_scenario_plays_to_the_end(tmp_path):
    """The file is a scenario like the shipped ones: in the folder named by
    ARDSEARCH_MICROARMOUR_SCENARIOS it is `scenario=<file name>`, and a seeded
    random game on it (close deployment) plays to the end with the closed
    table's 10" sighting."""
    write(generate("closed", 2), tmp_path, "gen")
    code = ("import random, ardsearch\n"
            "from ardsearch.random_walk import random_walk\n"
            "g = ardsearch.load_game('microarmour', scenario='gen', deployment='close')\n"
            "s = g.new_initial_state(4); r = random.Random(4)\n"
            "while not s.is_terminal(): random_walk(s, 1, r)\n"
            "print('generated closed terrain' in str(s), s.outcome())\n")
    env = dict(os.environ, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("True ")


def test_the_command_writes_the_file_and_refuses_bad_input(tmp_path):
    """`ardsearch microarmour-map mixed --seed 4 -o FILE` writes the file the
    function gives; a bad density or base is one line on stderr, status 2."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = tmp_path / "m.toml"
    r = subprocess.run([sys.executable, "-m", "ardsearch", "microarmour-map", "mixed", "--seed", "4", "-o", str(out)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert read_toml(str(out)) == generate("mixed", 4)
    for args, words in ((["dense"], "expected open, mixed or closed"),
                        (["open", "--base", "nowhere"], "expected one of introductory")):
        r = subprocess.run([sys.executable, "-m", "ardsearch", "microarmour-map", *args], env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, r.stderr


def test_the_scenario_folder_refuses_a_missing_folder_and_a_name_clash(tmp_path, monkeypatch):
    """ARDSEARCH_MICROARMOUR_SCENARIOS (_data.py) adds its folder's files to
    the scenarios; a folder that is not there, or a file named like a scenario
    already in play, is a one-line error that says what to do."""
    monkeypatch.setenv(_data.SCENARIO_DIR_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="expected a folder of scenario .toml files"):
        _data.scenario_names()
    monkeypatch.setenv(_data.SCENARIO_DIR_ENV, str(tmp_path))
    write(generate("open", 1), tmp_path, "mymap")
    assert _data.scenario_names()[0] == "introductory" and "mymap" in _data.scenario_names()
    write(generate("open", 1), tmp_path, "airstrike")
    with pytest.raises(ValueError, match="airstrike.toml: a scenario of that name is already in play .*rename the file"):
        _data.scenario_names()


def test_the_roll_is_2d6():
    """"2 x 2D6%": over 80 seeds the recorded roll takes 2..12 only, most of
    those values, and averages near 7 (two six-sided dice)."""
    rolls = [generate("open", seed)["generated"]["roll_2d6"] for seed in range(80)]
    assert set(rolls) <= set(range(2, 13)) and len(set(rolls)) >= 8
    assert 6 <= sum(rolls) / len(rolls) <= 8
