.venv/bin/python -m bench.ladder mortain --pairs 20 20 16 10 5 2 --seed 1 --jobs 1 --json bench/results/s33-ladder/ladder-mortain.jsonl
