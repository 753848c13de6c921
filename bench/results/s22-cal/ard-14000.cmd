.venv/bin/python -m bench.calibration ardennes --games 600 --seed 14000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records bench/results/s22-cal/cal-ard-14000.jsonl
