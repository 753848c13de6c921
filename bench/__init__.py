"""Benchmarks: `python -m bench` (see bench/README.md for the latest figures)."""
