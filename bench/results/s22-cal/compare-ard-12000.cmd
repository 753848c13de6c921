.venv/bin/python -m bench.calibration ardennes --from /tmp/cal-ard-6000.jsonl --holdout bench/results/s22-cal/cal-ard-12000.jsonl --compare mcts
