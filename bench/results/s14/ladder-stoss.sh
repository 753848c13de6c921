cd /work/main
echo "start $(date -u +%H:%M:%S) $(uptime)" > bench/results/s14/ladder-stoss.load
nice -n 5 .venv/bin/python -m bench.ladder stosstruppen --rungs random level-1 level-2 level-3 level-4 --pairs 10 10 8 6 --seed 1 --jobs 1 --json bench/results/s14/ladder-stosstruppen-1to4.jsonl > bench/results/s14/ladder-stoss-1to4.out 2>&1
echo "end1to4 $(date -u +%H:%M:%S) $(uptime)" >> bench/results/s14/ladder-stoss.load
