.venv/bin/python -m bench.calibration stosstruppen(scenario=kaiserschlacht) --from bench/results/s22-cal/cal-kai-12000.jsonl bench/results/s22-cal/cal-kai-13000.jsonl --compare mcts
