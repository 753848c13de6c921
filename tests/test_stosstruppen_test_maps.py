"""Stosstruppen on maps that are not shipped: the folder named by
ARDSEARCH_STOSSTRUPPEN_SCENARIOS (RULES.md, Scenarios) and the terrain rules
no shipped map has the terrain for.

The scenario tables are built when the engine is imported, so each case runs
in a child process with the variable set (as the Micro Armour FASC tests do)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAPS = os.path.join(ROOT, "tests", "data", "stosstruppen_maps")


def run(code: str, folder: str | None = MAPS) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.path.join(ROOT, "tests"))
    env.pop("ARDSEARCH_STOSSTRUPPEN_SCENARIOS", None)
    if folder is not None:
        env["ARDSEARCH_STOSSTRUPPEN_SCENARIOS"] = folder
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=ROOT)


def test_hill_with_woods_always_blocks_line_of_sight():
    """Contract, LOS: "hills block unless the firer or the target is on the
    hilltop; a hill with woods or buildings always blocks". On the test map
    `hill_woods` (woods on k4, l4, k5, l5 of the hill j4-l5) a German rifle on
    the hill at j4 cannot see a British rifle on m4 through k4 and l4."""
    r = run("""
        from test_stosstruppen_rules import build, legal
        s = build({0: "a1", 1: "j4", 16: "a12", 17: "m4"}, phase="fire", card="Gf", scenario="hill_woods")
        assert "j4xm4" not in legal(s), legal(s)
        print("ok")
    """)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_no_line_of_sight_passes_over_any_square_of_a_wooded_hill():
    """Fire A: "Hills block the LOS unless either the firing unit or the
    target is on a hilltop. No LOS may pass over a hill containing Woods or
    Buildings." On `hill_woods` the hill j4-l5 holds woods, so its open
    squares j4 and j5 block too, although the firer stands on a hill: from the
    other hill (b6) to o2 the line crosses j4; from j5, on the wooded hill
    itself, to j3 it crosses j4. On the shipped Kaiserschlacht map (no woods
    on that hill) both lines are open. The reference model agrees."""
    r = run("""
        from test_stosstruppen_rules import build, legal, model
        for scenario, seen in (("hill_woods", False), ("kaiserschlacht", True)):
            for firer, target in (("b6", "o2"), ("j5", "j3")):
                s = build({0: "a1", 1: firer, 16: "a12", 17: target}, phase="fire", card="Gf",
                          scenario=scenario)
                note = f"{firer}x{target}"
                assert (note in legal(s)) == seen, (scenario, note)
                assert (note in model(s).legal()) == seen, (scenario, note, "reference")
        print("ok")
    """)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_an_extra_folder_adds_its_scenarios_beside_the_shipped_ones():
    """A scenario file in the folder plays under its file name; the shipped ones stay."""
    r = run("""
        import ardsearch
        for name in ("hill_woods", "kaiserschlacht", "villers"):
            s = ardsearch.load_game("stosstruppen", scenario=name).new_initial_state(seed=0)
            assert not s.is_terminal()
        print(ardsearch.load_game("stosstruppen", scenario="hill_woods").new_initial_state(seed=0))
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Hill woods (test map)" in r.stdout


def test_a_missing_folder_is_refused_with_the_variable_named():
    r = run("import ardsearch.games.stosstruppen", folder=os.path.join(MAPS, "no such folder"))
    assert r.returncode != 0
    assert "ARDSEARCH_STOSSTRUPPEN_SCENARIOS" in r.stderr and "expected a folder" in r.stderr


def test_a_name_already_shipped_is_refused(tmp_path):
    (tmp_path / "villers.toml").write_text(open(os.path.join(MAPS, "hill_woods.toml")).read())
    r = run("import ardsearch.games.stosstruppen", folder=str(tmp_path))
    assert r.returncode != 0
    assert "villers.toml" in r.stderr and "already in play" in r.stderr and "rename" in r.stderr


def _variant(tmp_path, name, *changes):
    """The test map hill_woods saved as `name`.toml in tmp_path with text replacements."""
    text = open(os.path.join(MAPS, "hill_woods.toml")).read()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    (tmp_path / f"{name}.toml").write_text(text)
    return str(tmp_path)


def test_a_diagonal_trench_square_is_a_connected_trench(tmp_path):
    """Contract, Assault: "defender in trench or bunker adds 1d3 unless
    attacked along a connected trench"; RULES.md (design): trench squares
    next to each other, diagonals included, are connected. On a copy of the
    test map with a trench on c9, diagonal to the trench on d8, a rifle on c9
    assaults d8 with no bonus to the defender; from c7 (open) the defender
    adds 1d3."""
    folder = _variant(tmp_path, "diagonal_trench", ('"..WW...K........"', '"..TW...K........"'))
    r = run("""
        from test_stosstruppen_rules import build, outcomes
        s = build({0: "a1", 1: "c9", 16: "a12", 17: "d8"}, phase="assault", card="Ga", scenario="diagonal_trench")
        s.apply("c9@d8")
        assert abs(outcomes(s)["win"] - 15 / 36) < 1e-12, outcomes(s)
        s = build({0: "a1", 1: "c7", 16: "a12", 17: "d8"}, phase="assault", card="Ga", scenario="diagonal_trench")
        s.apply("c7@d8")
        win = sum(1 for a in range(1, 7) for d in range(1, 7) for b in range(1, 4) if a > d + b) / 108
        assert abs(outcomes(s)["win"] - win) < 1e-12, outcomes(s)
        print("ok")
    """, folder)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_anti_tank_table_d6_adds_the_schneider_bonus(tmp_path):
    """Contract, Fire: "the anti-tank hit table (design: 1d6: 1-2 main
    armament out, 3-4 secondary out, 5 immobilised, 6 destroyed; +2 against
    the Schneider CA.1)"; Notation: "`d<n>=<k>` where an exact die value
    matters". No shipped scenario has a Schneider: on a copy of the test map
    whose British tank is one, `d6=<k>` at a penetration reads the table at
    k + 2 (1-2 secondary out, 3 immobilised, 4-6 destroyed), as the
    reference model does."""
    folder = _variant(tmp_path, "schneider", ('{ type = "markiv", at = "n9", facing = "s" }',
                                              '{ type = "schneider", at = "n9", facing = "s" }'))
    r = run("""
        from test_stosstruppen_rules import alias_reads, build, outcomes
        s = build({0: "a1", 11: "h2", 16: "a12", 23: "h5"}, phase="fire", card="Gf", scenario="schneider")
        s.apply("h2xh5")                       # light infantry gun d10 against armour 5
        want = {"miss": 0.5, "hit:sec": 0.5 / 3, "hit:immob": 0.5 / 6, "hit:kill": 0.25}
        got = outcomes(s)
        assert set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-12 for k in want), got
        reads = [alias_reads(s, f"d6={k}") for k in range(1, 7)]
        assert reads == ["hit:sec", "hit:sec", "hit:immob", "hit:kill", "hit:kill", "hit:kill"], reads
        print("ok")
    """, folder)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_a_doubled_road_move_passes_wire_after_a_test(tmp_path):
    """Movement E: "All units starting and ending on roads double their
    movement"; Obstacles A: other units "must take a morale test to pass"
    barbed wire. On a copy of the test map with a road along row 4 and wire
    on h4, a rifle on e4 goes along the road to k4 (6 road steps, twice its
    move) through the wire after one test; to g4, short of the wire, with
    none."""
    folder = _variant(tmp_path, "road_wire", ('"...BB.....WW...."', '"================"'),
                      ('"m7"]', '"m7", "h4"]'))
    r = run("""
        from test_stosstruppen_rules import build, fill, legal, model
        s = build(fill({0: "e3", 1: "e4", 16: "a12"}), scenario="road_wire")
        moves = legal(s)
        assert model(s).legal() == moves
        assert {"e4-g4", "e4-h4", "e4-k4"} <= moves and "e4-l4" not in moves, sorted(moves)
        for move, test in (("e4-g4", "none"), ("e4-h4", "cross-test"), ("e4-k4", "cross-test")):
            s = build(fill({0: "e3", 1: "e4", 16: "a12"}), scenario="road_wire")
            s.apply(move)
            assert s.to_dict()["pending"]["kind"] == test, move
        print("ok")
    """, folder)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_a_square_reached_through_wire_or_over_a_trench_takes_the_wire_test(tmp_path):
    """Obstacles A: other units "must take a morale test to pass" wire ("If
    they fail, the may test again next movement phase"); Obstacles B: a
    non-foot unit that fails its trench test "is immobilized there in that
    trench". RULES.md (design): of a path through wire and one over a trench
    to the same square, the wire test is taken (failing it costs the move,
    failing the trench the unit). On a copy of the test map with wire on
    m10, the German light infantry gun on n9 reaches l9 over the trench on
    m8 or through the wire on m10 (a British rifle holds m9 between): it
    tests for the wire and, failing, stays on n9, not stuck. With the wire
    square held too, the same move is a trench crossing over m8."""
    folder = _variant(tmp_path, "wire_or_trench", ('"m7"]', '"m7", "m10"]'))
    r = run("""
        from test_stosstruppen_rules import build, fill, legal, model, unit
        import reference.stosstruppen as ref
        s = build(fill({0: "n11", 11: "n9", 16: "a12", 17: "m9"}), scenario="wire_or_trench")
        m = model(s)
        assert "n9-l9" in legal(s) and m.legal() == legal(s)
        for note in ("n9-l9", "fail"):
            if note == "fail":
                pending = s.to_dict()["pending"]
                assert pending["kind"] == "cross-test" and pending["flags"] == 2, pending   # PF_CROSS, no PF_TRENCH
            s.apply(note)
            m.apply(note)
        assert unit(s, 11)["square"] == "n9" and not unit(s, 11)["stuck"]
        assert ref.name(m.units[11]["sq"]) == "n9" and not m.units[11]["stuck"]
        # with a second British rifle on the wire square, only the trench is left
        s = build(fill({0: "n11", 11: "n9", 16: "a12", 17: "m9", 18: "m10"}), scenario="wire_or_trench")
        s.apply("n9-l9")
        pending = s.to_dict()["pending"]
        assert pending["kind"] == "cross-test" and pending["flags"] == 10 and pending["aux"] == 7 * 16 + 12, pending
        print("ok")
    """, folder)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]
