"""README rows for this directory's runs: run, pentanomial, Elo [95%], score, by seat, UTC, load.
python bench/results/s14-prior/table.py NAME[:ENTRANT] ...  (ENTRANT defaults to mcts)."""
import re
import subprocess
import sys

D = "bench/results/s14-prior"
for arg in sys.argv[1:]:
    name, _, who = arg.partition(":")
    who = who or "mcts"
    out = subprocess.run([sys.executable, "bench/results/s10-stossearch/summ.py", f"name={who}", f"{D}/{name}.jsonl"],
                         capture_output=True, text=True).stdout
    m = re.search(r"pairs (\d+) penta (\[.*?\]) Elo (\S+) \[(\S+), (\S+)\] German (\S+) British (\S+) .*wilson (.*)", out)
    load = open(f"{D}/{name}.load").read().split("\n")
    times = [l for l in load if re.match(r"^\d\d:\d\d:\d\d$", l)]
    loads = [re.search(r"load average: ([\d.]+)", l).group(1) for l in load if "load average" in l]
    print(f"| {name} | {m.group(1)} | {m.group(2)} | {m.group(3)} [{m.group(4)}, {m.group(5)}] | {m.group(8)} | "
          f"{m.group(6)} | {m.group(7)} | {'-'.join(t[:5] for t in times)} | {', '.join(loads)} |")
