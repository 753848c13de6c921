.venv/bin/python -m bench.calibration stosstruppen(scenario=kaiserschlacht) --compare mcts --from bench/results/s23-cal/cal-kai-17000.jsonl.gz bench/results/s23-cal/cal-kai-18000.jsonl.gz
