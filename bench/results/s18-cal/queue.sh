#!/bin/bash
# Fresh-game checks of two calibrations fitted and judged on held-out pairs only
# (session 18): Undaunted scenario 3 and Stand at Mortain. Waits for process $1.
cd /work/main
while kill -0 "$1" 2>/dev/null; do sleep 5; done
D=bench/results/s18-cal
run() {  # name, then the command
  n=$1; shift
  echo "$*" > $D/$n.cmd
  { date -u +%H:%M:%S; cat /proc/loadavg; } > $D/$n.load
  nice -n 5 "$@" > $D/$n.out 2>&1
  { date -u +%H:%M:%S; cat /proc/loadavg; } >> $D/$n.load
}
run u3c .venv/bin/python -m bench.calibration 'undaunted(scenario=3)' --games 200 --seed 6000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed ismcts --jobs 1 --records $D/cal-u3c.jsonl
run mortc .venv/bin/python -m bench.calibration mortain --games 150 --seed 6000 --bots a=mcts:nodes=3000 b=mcts:nodes=3000 --installed mcts --jobs 1 --records $D/cal-mortc.jsonl
