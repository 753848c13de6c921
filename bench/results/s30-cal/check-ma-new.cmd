.venv/bin/python -m bench.calibration microarmour --installed mcts --from bench/results/s30-cal/cal-ma-37000.jsonl bench/results/s30-cal/cal-ma-38000.jsonl --plot bench/results/s30-cal/ma-new152.svg
