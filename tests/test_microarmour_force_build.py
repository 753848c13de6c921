"""Micro Armour's point-buy and bidding procedure as a tool (issue 12: "the
point-buy and bidding procedure as a tool that turns a roster into a scenario
file (not part of the search)"): ardsearch/games/microarmour/force_build.py,
data/points.toml and `ardsearch microarmour-build`; RULES.md "Point-buy forces".

Digest (Set-up): "Players bid a point base secretly and the lowest bid is
used. Player B's points = (A's cohesion / B's cohesion) x point base x the
scenario force ratio (1:1, 1:2, 1:3 or the reverse). Extras such as HQs
(x1.5), GHQ quality multipliers, engineers (+10) ... airstrikes ... are
priced."; "To begin with, divide Player A's Force Cohesion Level (FCL) by
Player B's FCL and multiply the number obtained by Player B's "point base.""
(Scenario generation) "Each player then secretly bids part of his point
base, and the higher bidder picks his friendly edge; both bids are lost." """
import copy
import json
import os
import subprocess
import sys

import pytest

from ardsearch._toml import read_toml
from ardsearch.games.microarmour import _data
from ardsearch.games.microarmour.force_build import (RosterError, aircraft_cost, budgets, build, load_points,
                                                     stand_cost)
from ardsearch.games.microarmour.scenario_toml import dumps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "docs", "examples", "microarmour-roster.toml")


def roster(tmp_path, change=None, name="roster"):
    """The example roster, changed by `change(dict)`, written to tmp_path."""
    d = copy.deepcopy(read_toml(EXAMPLE))
    if change:
        change(d)
    path = tmp_path / f"{name}.toml"
    path.write_text(dumps(d), encoding="utf-8")
    return str(path)


def test_points_file_prices_every_weapon_type():
    """data/points.toml has a cost for every stand type of weapons.toml (the
    digest prints none: design values), the digest's HQ x1.5, engineer and
    recon +10, and the force ratios "1:1, 1:2, 1:3 or the reverse"."""
    p = load_points()
    assert set(p["stand"]) == {w["key"] for w in _data.load_weapons()}
    assert p["hq"] == 1.5 and p["engineer"] == 10 and p["recon"] == 10
    assert sorted(p["ratios"]) == sorted(["1:1", "1:2", "1:3", "2:1", "3:1"])


def test_extras_hq_x1_5_ghq_quality_engineers_and_recon():
    """"HQs (x1.5), GHQ quality multipliers, engineers (+10)" and "[R]econ
    (... +10 points)": an HQ costs 1.5 times its type's cost (rounded up), a
    GHQ that times its quality's multiplier, an engineer or recon stand 10
    more."""
    p = load_points()
    w = {w["key"]: w for w in _data.load_weapons()}
    base = p["stand"]["ger_hq"]
    assert stand_cost(p, w["ger_hq"], 0) == -(-base * 3 // 2)
    assert stand_cost(p, w["ger_ghq"], 0) == -(-p["stand"]["ger_ghq"] * 3 // 2)
    assert stand_cost(p, w["ger_ghq"], 3) > stand_cost(p, w["ger_ghq"], 0) > stand_cost(p, w["ger_ghq"], -2)
    assert stand_cost(p, w["pz4h"], 0) == p["stand"]["pz4h"]
    assert stand_cost(p, {**w["pz4h"], "engineer": True}, 0) == p["stand"]["pz4h"] + 10
    assert stand_cost(p, {**w["pz4h"], "recon": True}, 0) == p["stand"]["pz4h"] + 10
    a = p["air"]
    plane = {"turns": 3, "ordnance": 2, "fasc": True}
    assert aircraft_cost(p, plane) == a["base"] + 3 * a["per_turn"] + 2 * a["per_load"] + a["fasc"]


def test_player_b_points_scale_with_the_cohesion_ratio_and_force_ratio():
    """"Player B's points = (A's cohesion / B's cohesion) x point base x the
    scenario force ratio": A 15, B 12, base 400: B has 500 at 1:1, 1000 at
    1:2, 1500 at 1:3, 250 at 2:1; A has the point base."""
    assert budgets(400, (1, 1), 15, 12) == (400, 500)
    assert budgets(400, (1, 2), 15, 12) == (400, 1000)
    assert budgets(400, (1, 3), 15, 12) == (400, 1500)
    assert budgets(400, (2, 1), 15, 12) == (400, 250)
    assert budgets(400, (1, 1), 12, 15) == (400, 320)


def test_the_example_roster_builds_a_scenario_that_loads(tmp_path):
    """The lowest point-base bid is used (400 and 380: 380); B's budget is
    380 x 15/12; the higher edge bidder (the Soviets, 15 to 10) takes the edge
    it chose (west) and the Germans the other; both edge bids come off the
    budgets; every purchase is on the table, facing the enemy, on its side's
    edge columns; the file passes the scenario loader."""
    doc = build(EXAMPLE)
    pts = doc["points"]
    assert pts["point_base"] == 380 and pts["budget"] == [380, 475] and pts["edge_winner"] == "soviet"
    assert doc["side"]["soviet"]["edge"] == "west" and doc["side"]["german"]["edge"] == "east"
    assert pts["spent"][0] <= 380 - 10 and pts["spent"][1] <= 475 - 15
    path = tmp_path / "built.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    sc = _data.load_scenario(path=str(path))
    assert [len(s) for s in sc["stands"]] == [11, 12] and len(sc["aircraft"]) == 1
    for st in doc["stand"]:
        assert (st["at"][0] >= 27, st["facing"]) == ((True, "w") if st["side"] == "german" else (False, "e"))
    points, w = load_points(), {w["key"]: w for w in _data.load_weapons()}
    german = sum(stand_cost(points, w[st["type"]], 1) for st in doc["stand"] if st["side"] == "german")
    assert german == pts["spent"][0]


def test_a_tie_in_the_edge_bids_keeps_the_tables_edges(tmp_path):
    """Design (the digest does not say who picks on a tie): equal edge bids
    keep the base scenario's edges; the bids are still lost."""
    doc = build(roster(tmp_path, lambda d: d["bid"].update(edge=[12, 12])))
    assert doc["side"]["german"]["edge"] == "west" and doc["points"]["edge_winner"] == "tie"


BAD = [
    (lambda d: d["side"]["german"]["stand"].append({"type": "pz4h", "count": 3}), "german: expected a force of at most"),
    (lambda d: d["side"]["german"]["stand"].append({"type": "tiger"}), "side.german.stand[6].type: expected a weapon type"),
    (lambda d: d["side"]["soviet"]["stand"].pop(0), "side.soviet.stand: expected exactly one GHQ stand"),
    (lambda d: d["side"]["soviet"]["stand"].append({"type": "sov_ghq"}), "exactly one GHQ stand"),
    (lambda d: d["side"]["german"].update(stnad=[]), "side.german.stnad: expected one of the keys"),
    (lambda d: d.update(ratio="4:1"), "ratio: expected a force ratio A:B"),
    (lambda d: d.update(base="kursk"), "base: expected a scenario name"),
    (lambda d: d["side"]["soviet"]["stand"].append({"type": "rifle", "count": 6}), "at most 16 stands"),
    (lambda d: d["bid"].update(point_base=[400]), "bid.point_base: expected two whole numbers"),
    (lambda d: d["side"]["german"].update(cohesion=25), "side.german.cohesion: expected a whole number from 5 to 20"),
    (lambda d: d["bid"].update(edge=[500, 0]), "bid.edge: expected each edge bid within its side's budget (german: 380"),
    (lambda d: d["side"]["soviet"]["aircraft"][0].update(plot=[6, 10], turns=1),
     "the scenario it makes is refused: scenario.toml: aircraft[0].plot"),
]


@pytest.mark.parametrize("change, words", BAD, ids=[w for _, w in BAD])
def test_bad_rosters_are_refused_with_one_line(tmp_path, change, words):
    """Bad input is refused with one line naming the file, the key and what
    was expected (over budget, unknown type, not one GHQ, unknown key, a
    ratio the procedure has not, an unknown table, too many stands, a bid
    that is not two numbers, a cohesion out of range, an aircraft the
    scenario loader refuses)."""
    with pytest.raises(RosterError) as e:
        build(roster(tmp_path, change))
    msg = str(e.value)
    assert words in msg and "\n" not in msg and msg.startswith("roster.toml: ")


def test_the_command_writes_a_playable_scenario_and_refuses_bad_input(tmp_path):
    """`ardsearch microarmour-build ROSTER -o FILE` writes the file; in the
    folder named by ARDSEARCH_MICROARMOUR_SCENARIOS it is `scenario=built` and
    a seeded random game plays to the end. A file that is not TOML is one line
    on stderr and status 2."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = tmp_path / "built.toml"
    r = subprocess.run([sys.executable, "-m", "ardsearch", "microarmour-build", EXAMPLE, "-o", str(out)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert read_toml(str(out)) == build(EXAMPLE)
    code = ("import random, ardsearch\n"
            "from ardsearch.random_walk import random_walk\n"
            "g = ardsearch.load_game('microarmour', scenario='built')\n"
            "s = g.new_initial_state(3); r = random.Random(3)\n"
            "while not s.is_terminal(): random_walk(s, 1, r)\n"
            "print(s.outcome())\n")
    r = subprocess.run([sys.executable, "-c", code], env=dict(env, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path)),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "turn" in r.stdout, r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("side = [", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "ardsearch", "microarmour-build", str(bad)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "not valid TOML" in r.stderr


def test_the_edge_bid_is_lost_from_the_budget(tmp_path):
    """"both bids are lost": the German force of the example costs 354 of its
    380 points; with an edge bid of 26 it still fits (354 = 380 - 26), with 27
    it is refused, whoever wins the edge."""
    assert build(EXAMPLE)["points"]["spent"][0] == 354
    doc = build(roster(tmp_path, lambda d: d["bid"].update(edge=[26, 15])))
    assert doc["points"]["edge_winner"] == "german" and doc["points"]["spent"][0] == 354
    with pytest.raises(RosterError, match="at most 353 points"):
        build(roster(tmp_path, lambda d: d["bid"].update(edge=[27, 15])))


def test_the_lowest_point_base_bid_is_used_whoever_made_it(tmp_path):
    """"Players bid a point base secretly and the lowest bid is used": the
    bids 380 / 400 give the same point base as 400 / 380."""
    doc = build(roster(tmp_path, lambda d: d["bid"].update(point_base=[380, 400])))
    assert doc["points"]["point_base"] == 380 and doc["points"]["budget"] == [380, 475]


def test_close_deployment_moves_each_side_from_its_own_edge(tmp_path):
    """RULES.md, parameters: `deployment=close` starts each side 9" from its own edge
    toward the enemy's. The example roster's scenario has the edges swapped (Soviets
    west, Germans east, the edge bid's winner choosing west): with `close` the Germans
    move 9" west and the Soviets 9" east of their file squares, the same in the engine
    and the reference model; the built file keeps no `entry` key (its force is
    deployed on its edge columns, RULES.md Entry from the table edge)."""
    doc = build(EXAMPLE)
    assert all("entry" not in s for s in doc["side"].values())
    (tmp_path / "built.toml").write_text(dumps(doc), encoding="utf-8")
    file_x = {s["id"]: s["at"][0] for s in doc["stand"]}
    code = ("import json, sys, ardsearch\n"
            f"sys.path.insert(0, {os.path.join(ROOT, 'tests')!r})\n"
            "from reference import microarmour as ref\n"
            "d = ardsearch.load_game('microarmour', scenario='built', deployment='close')"
            ".new_initial_state(0).to_dict()\n"
            "m = ref.Ref(scenario='built', deployment='close').to_dict()\n"
            "print(json.dumps({'engine': {s['id']: s['at'][0] for s in d['stands']},"
            " 'same': [s['at'] for s in d['stands']] == [s['at'] for s in m['stands']],"
            " 'off': d['units']['offtable']}))\n")
    env = dict(os.environ, PYTHONPATH=ROOT, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["same"] and out["off"] == []
    for s in doc["stand"]:
        assert out["engine"][s["id"]] == file_x[s["id"]] + (-9 if s["side"] == "german" else 9)
