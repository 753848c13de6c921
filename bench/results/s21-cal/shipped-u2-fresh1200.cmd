.venv/bin/python -m bench.calibration undaunted(scenario=2) --from /tmp/u2r/cal-u2-9000.jsonl /tmp/u2r/cal-u2-10000.jsonl --installed ismcts --plot bench/results/s21-cal/u2-fresh1200.svg
