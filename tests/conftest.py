"""Test-wide setup: tests/ and the repository root on sys.path, so that
`reference.<game>` (the pure-Python reference models), the shared helpers
and `bench` (not installed with the package) import the same way whether
pytest is run as `pytest` or `python -m pytest`."""
import os
import sys

_TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _TESTS)
sys.path.append(os.path.dirname(_TESTS))  # last: an installed ardsearch comes first
