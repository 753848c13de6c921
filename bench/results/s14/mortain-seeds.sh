cd /work/main
for s in 10 11; do
  F=bench/results/eqtime-mortain-mcts-vs-v1-s14-seed$s
  echo "nice -n 5 .venv/bin/python -m ardsearch tournament mortain --bots mcts mcts-v1 --movetime 0.1 --clock cpu --games 40 --seed $s --concurrency 1 --out $F.jsonl" > $F.cmd
  echo "start $(date -u +%H:%M:%S) $(uptime)" > $F.load
  bash $F.cmd > $F.md 2> $F.err
  echo "end $(date -u +%H:%M:%S) $(uptime)" >> $F.load
done
