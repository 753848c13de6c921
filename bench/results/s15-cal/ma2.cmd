nice -n 5 .venv/bin/python -m bench.calibration microarmour --games 150 --seed 5000 --bots a=mcts:nodes=1000 b=mcts:nodes=1000 --installed mcts --jobs 2 --records bench/results/s15-cal/cal-ma2.jsonl
