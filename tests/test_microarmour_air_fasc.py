"""Micro Armour airstrikes with a Forward Air Support Coordinator (RULES.md
"Airstrikes"; digest: "Bomb points are pre-plotted unless a Forward Air
Support Coordinator is available (depends on nation/date and a cohesion
roll)").

No shipped scenario has a FASC aircraft since session 10 (the airstrike's
Ju 87 lost its FASC, a design choice for balance: RULES.md, Scenarios), so
these rules are tested on `airstrike_fasc`, the airstrike scenario as it was
shipped before (tests/data/microarmour_fasc/airstrike_fasc.toml). The
scenario folder is read when the engine is imported, so the cases
(tests/microarmour_air_fasc_cases.py, each with its rule quote) run in one
child process with ARDSEARCH_MICROARMOUR_SCENARIOS naming that folder, as
tests/test_microarmour_cross.py runs `meeting_air`; each test here reports
one case."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "tests", "data", "microarmour_fasc")
CASES = os.path.join(ROOT, "tests", "microarmour_air_fasc_cases.py")


@pytest.fixture(scope="module")
def results():
    r = subprocess.run([sys.executable, CASES], capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, PYTHONPATH=ROOT, ARDSEARCH_MICROARMOUR_SCENARIOS=FOLDER))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def check(results, case):
    assert case in results, sorted(results)
    assert results[case] == "ok", results[case]


def test_the_test_scenario_keeps_the_fasc(results):
    """The test copy holds the Ju 87 with its FASC; the shipped airstrike's Ju 87 has none."""
    check(results, "the_test_scenario_keeps_the_fasc")


def test_a_fasc_cohesion_roll_frees_the_bomb_point(results):
    """Digest: "Bomb points are pre-plotted unless a Forward Air Support
    Coordinator is available (depends on nation/date and a cohesion roll)".
    The Ju 87 (German, FASC) rolls in its bombing turns: on a pass it may bomb
    any enemy stand's square; on a failure only a plotted point."""
    check(results, "a_fasc_cohesion_roll_frees_the_bomb_point")


def test_bombing_uses_an_ordnance_load_and_none_left_means_no_bombs(results):
    """Digest: "bomb only in turns 2-3 (using its Ordnance Load)". The Ju 87
    carries one load: after it no plot is asked for and no bomb offered."""
    check(results, "bombing_uses_an_ordnance_load_and_none_left_means_no_bombs")


def test_board_text_names_the_fasc(results):
    """The board text marks an aircraft with a FASC, and only such an aircraft."""
    check(results, "board_text_names_the_fasc")


def test_engine_matches_reference_with_a_fasc(results):
    """The engine against the reference model over seeded random games of
    the FASC scenario (FASC rolls happen in them)."""
    check(results, "engine_matches_reference_with_a_fasc")
