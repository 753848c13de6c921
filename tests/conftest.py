"""Test-wide setup: tests/ on sys.path, so that `reference.<game>` (the
pure-Python reference models) and the shared helpers import the same way
whether pytest is run as `pytest` or `python -m pytest`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
