# run the matches named on the command line one after another: NAME SCEN SEED SETTINGS
cd /work/main
D=bench/results/s15-flat
while read -r name scen seed games settings; do
  [ -z "$name" ] && continue
  echo "nice -n 5 .venv/bin/python -m ardsearch tournament 'stosstruppen(scenario=$scen)' --bots 'flat=mcts:$settings' greedy --games $games --seed $seed --concurrency 1 --out $D/$name.jsonl" > $D/$name.cmd
  echo "start $(date -u +%H:%M:%S) $(uptime)" > $D/$name.load
  bash $D/$name.cmd > $D/$name.out 2>&1
  echo "end $(date -u +%H:%M:%S) $(uptime)" >> $D/$name.load
done < "$1"
