#!/bin/bash
# Queue runner: pops "NAME SCENARIO SEED BOTSPEC [extra args]" lines from $1.todo, runs each tournament.
cd /work/wt-stossearch2
Q=bench/results/s10-stossearch/$1.todo
D=bench/results/s10-stossearch
while [ ! -e $D/STOP ]; do
  line=$(head -n1 $Q 2>/dev/null)
  if [ -z "$line" ]; then sleep 15; continue; fi
  sed -i 1d $Q
  set -- $line
  name=$1; scen=$2; seed=$3; spec=$4; shift 4
  { date -u +%H:%M:%S; uptime; } > $D/$name.load
  echo "nice -n 5 python -m ardsearch tournament 'stosstruppen(scenario=$scen)' --bots '$spec' greedy --games 20 --seed $seed --concurrency 1 $* --out $D/$name.jsonl" > $D/$name.cmd
  nice -n 5 /work/main/.venv/bin/python -m ardsearch tournament "stosstruppen(scenario=$scen)" --bots "$spec" greedy --games 20 --seed $seed --concurrency 1 --quiet "$@" --out $D/$name.jsonl > $D/$name.md 2> $D/$name.err
  { date -u +%H:%M:%S; uptime; } >> $D/$name.load
done
