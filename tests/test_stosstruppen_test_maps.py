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
