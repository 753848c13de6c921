.venv/bin/python -m bench.calibration stosstruppen(scenario=villers) --compare mcts --from bench/results/s24-cal/cal-vil-19000.jsonl bench/results/s24-cal/cal-vil-20000.jsonl
