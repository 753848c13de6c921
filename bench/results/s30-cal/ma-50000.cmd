.venv/bin/python -m bench.calibration microarmour --games 75 --seed 50000 --bots a=mcts:nodes=1000 b=mcts:nodes=1000 --installed mcts --jobs 1 --records bench/results/s30-cal/cal-ma-50000.jsonl
