.venv/bin/python -m bench.calibration mortain --games 150 --seed 6000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records bench/results/s18-cal/cal-mortc.jsonl
