"""The compliance suite against our engine (API and command line) and
against a broken engine (it must fail there)."""
from __future__ import annotations

import subprocess
import sys

from test_protocol_helpers import ENGINE_CMD, engine_env, faulty_cmd, require_search

from ardsearch.protocol import compliance


def test_our_engine_passes_the_compliance_suite():
    require_search()
    report = compliance.run(ENGINE_CMD)
    assert report.passed, report.text()
    names = " ".join(c.name for c in report.checks)
    for needed in ("handshake", "bad input", "stop", "quit", "EOF", "info grammar", "strict grammar",
                   "pv: playable", "go infinite ignores other limits", "movestogo 1", "one-sided clocks"):
        assert needed in names
    for needed in ("go at a bestmove: stop not lost", "go depth", "stop ends perft", "stop ends bench"):
        assert needed in names


def test_compliance_from_the_command_line():
    require_search()
    proc = subprocess.run([sys.executable, "-m", "ardsearch.protocol", "--compliance"], capture_output=True,
                          timeout=120, env=engine_env())
    assert proc.returncode == 0, proc.stdout.decode()[-2000:]
    assert b"checks passed" in proc.stdout


def test_a_broken_engine_fails_the_suite():
    report = compliance.run(faulty_cmd("crash-on-go"))
    assert not report.passed
    assert report.checks[0].name == "handshake"


def test_info_line_grammar():
    ok = ["info depth 3 nodes 100 nps 2000 time 50 wp 0.5312 pv T3 P4", "info string hello world",
          "info action T3 visits 40 value -0.125", "info nodes 5 wp 1"]
    bad = ["info depth x", "info wp 1.5", "info colour blue", "info pv", "info action T3 visits x value 1"]
    assert all(compliance.info_line_problem(s) is None for s in ok)
    assert all(compliance.info_line_problem(s) is not None for s in bad)
