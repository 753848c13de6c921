.venv/bin/python -m bench.calibration microarmour --games 150 --seed 8000 --bots a=mcts:nodes=1000 b=mcts:nodes=1000 --installed mcts --jobs 1 --records bench/results/s21-cal/cal-ma-8000.jsonl
