.venv/bin/python -m bench.calibration microarmour --from /tmp/cal-ma3.jsonl /tmp/cal-ma-8000.jsonl --installed mcts
