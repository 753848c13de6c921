.venv/bin/python -m bench.calibration mortain --games 300 --seed 7000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records bench/results/s20-cal/cal-mort-7000.jsonl
