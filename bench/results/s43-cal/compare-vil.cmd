.venv/bin/python -m bench.calibration stosstruppen(scenario=villers) --compare mcts --from bench/results/s42-cal/cal-vil-43000.jsonl.gz bench/results/s43-cal/cal-vil-61000.jsonl
