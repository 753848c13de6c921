.venv/bin/python -m bench.calibration mortain --games 100 --seed 33000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records bench/results/s29-cal/cal-mort-33000.jsonl
