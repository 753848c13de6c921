#!/bin/bash
# Queue runner: pops "NAME SCENARIO SEED SPEC_A SPEC_B" lines from queue.todo and runs
# each as a seeded duplicate-pair tournament (one at a time, nice -n 5).
# A line "PYTEST file..." runs those test files instead (so tests never overlap a match).
cd /work/wt-prior
D=bench/results/s14-prior
Q=$D/queue.todo
export PYTHONPATH=/work/wt-prior
while [ ! -e $D/STOP ]; do
  line=$(head -n1 $Q 2>/dev/null)
  if [ -z "$line" ]; then sleep 10; continue; fi
  sed -i 1d $Q
  set -- $line
  if [ "$1" = PYTEST ]; then shift; nice -n 5 /work/main/.venv/bin/python -m pytest -q "$@" > $D/pytest.log 2>&1; echo "rc=$?" >> $D/pytest.log; continue; fi
  name=$1; scen=$2; seed=$3; a=$4; b=$5
  { date -u +%H:%M:%S; uptime; } > $D/$name.load
  echo "PYTHONPATH=/work/wt-prior nice -n 5 python -m ardsearch tournament 'stosstruppen(scenario=$scen)' --bots '$a' '$b' --games 20 --seed $seed --concurrency 1 --out $D/$name.jsonl" > $D/$name.cmd
  nice -n 5 /work/main/.venv/bin/python -m ardsearch tournament "stosstruppen(scenario=$scen)" --bots "$a" "$b" --games 20 --seed $seed --concurrency 1 --quiet --out $D/$name.jsonl > $D/$name.md 2> $D/$name.err
  { date -u +%H:%M:%S; uptime; } >> $D/$name.load
done
