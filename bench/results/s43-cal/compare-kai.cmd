.venv/bin/python -m bench.calibration stosstruppen(scenario=kaiserschlacht) --compare mcts --from bench/results/s42-cal/cal-kai-42000.jsonl.gz bench/results/s43-cal/cal-kai-60000.jsonl
