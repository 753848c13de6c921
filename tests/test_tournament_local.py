"""Tournaments on the local backend: schedule, entrants, duplicate pairs,
determinism across concurrency, SPRT, resume after a kill, and the CLI."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ardsearch
from ardsearch.tournament import TournamentConfig, parse_bot, parse_engine, read_results, run_tournament, schedule
from ardsearch.tournament.cli import main_replay, main_tournament
from test_cli import sigint_as_at_a_terminal  # Ctrl-C reaches the child even from a background test run
from ardsearch.tournament.duplicate import DuplicateChance, uniform
from ardsearch.tournament.entrants import Limits, TimeControl, apply_settings
from ardsearch.tournament.records import state_path

GAME = "ardennes(road_length=8,max_rounds=10)"
ROOT = Path(__file__).resolve().parent.parent


def config(bots=("random", "greedy", "mcts-fast:nodes=40"), games=2, seed=3, **kw):
    game = ardsearch.load_game(GAME)
    return TournamentConfig(game.name, dict(game.params), tuple(parse_bot(b) for b in bots), games=games,
                            seed=seed, **kw)


def comparable(records):
    """Records without wall-clock figures, which differ from run to run."""
    out = []
    for r in records:
        r = dict(r)
        r.pop("seconds")
        r["moves"] = [{k: v for k, v in m.items() if k != "time"} for m in r["moves"]]
        out.append(r)
    return sorted(out, key=lambda r: r["index"])


# ---- schedule and entrants -------------------------------------------------

def test_schedule_pairs_share_a_seed_and_swap_seats():
    tasks = schedule(["a", "b", "c"], "round-robin", 4, seed=9)
    assert len(tasks) == 3 * 4 and [t.index for t in tasks] == list(range(12))
    for first, second in zip(tasks[::2], tasks[1::2]):
        assert (first.leg, second.leg) == (0, 1)
        assert first.seed == second.seed and first.seats == second.seats[::-1]
    assert len({t.seed for t in tasks}) == 6            # one seed per pair
    assert {t.seats[0] for t in tasks[:6:2]} == {"a", "b"}   # pair 0 of every pairing comes first
    gauntlet = schedule(["a", "b", "c"], "gauntlet", 2, seed=9)
    assert sorted({tuple(sorted(t.seats)) for t in gauntlet}) == [("a", "b"), ("a", "c")]
    with pytest.raises(ValueError, match="even"):
        schedule(["a", "b"], "round-robin", 3, 0)
    with pytest.raises(ValueError, match="at least 2 entrants"):
        schedule(["a"], "round-robin", 2, 0)


def test_entrant_specs():
    e = parse_bot("quick=mcts-fast:nodes=100,exploration=1.2,tc=5+0.1")
    assert (e.name, e.preset, e.options) == ("quick", "mcts-fast", {"exploration": 1.2})
    assert e.limits == Limits(nodes=100, tc=TimeControl(5.0, 0.1))
    assert parse_bot("greedy").name == "greedy"
    eng = parse_engine("mine=python -m ardsearch.protocol --flag 'a b'")
    assert eng.command == ("python", "-m", "ardsearch.protocol", "--flag", "a b")
    both = apply_settings([e, eng], ["mine.movetime=0.5", "mine.Threads=2"], Limits(nodes=7, depth=3))
    assert both[1].limits == Limits(nodes=7, movetime=0.5, depth=3) and both[1].options == {"Threads": 2}
    assert both[0].limits.nodes == 100                       # its own limit beats the default
    for bad in ("", "x=", "bad name=greedy", "greedy:nodes=-1", "greedy:tc=fast", "greedy:nodes"):
        with pytest.raises(ValueError):
            parse_bot(bad)
    with pytest.raises(ValueError, match="named"):
        apply_settings([parse_bot("greedy"), parse_bot("greedy")], [], Limits())
    with pytest.raises(ValueError, match="NAME"):
        apply_settings([e], ["nobody.nodes=3"], Limits())


# ---- duplicate pairs -------------------------------------------------------

class _FakeChanceState:
    """Just enough of a State for DuplicateChance."""

    def __init__(self, outcomes):
        self.outcomes = outcomes

    def chance_outcomes(self):
        return self.outcomes


def test_duplicate_chance_is_keyed_by_event_index():
    die = [(a, 1 / 6) for a in range(6)]
    coin = [(10, 0.5), (11, 0.5)]
    # Leg 0 rolls a die at every event; leg 1 flips a coin at event 1 only
    # (its play made that event differ). Every other event stays aligned.
    leg0, leg1 = DuplicateChance(42), DuplicateChance(42)
    a = [leg0(_FakeChanceState(die)) for _ in range(8)]
    b = [leg1(_FakeChanceState(coin if k == 1 else die)) for k in range(8)]
    assert a[0] == b[0] and a[2:] == b[2:] and b[1] in (10, 11)
    assert len(set(a)) > 1                                   # it is random, not constant
    assert 0.0 <= uniform(42, 0) < 1.0 and uniform(42, 0) != uniform(43, 0)


def test_tournament_pairs_see_the_same_chance_outcomes(tmp_path):
    result = run_tournament(config(games=4), tmp_path / "r.jsonl")
    games = {(r["pairing"], r["pair"], r["leg"]): r for r in result.records}
    assert len(games) == 12
    for (pairing, pair, leg), r in games.items():
        if leg == 1:
            first = games[(pairing, pair, 0)]
            chance = [[m["move"] for m in g["moves"] if m["player"] == -1] for g in (first, r)]
            # ardennes draws everything (first player, both objectives) before any decision
            assert chance[0] == chance[1] and len(chance[0]) == 3
            assert first["seed"] == r["seed"] and first["seats"] == r["seats"][::-1]


# ---- end to end ------------------------------------------------------------

def test_small_round_robin_is_deterministic_across_concurrency(tmp_path):
    one = run_tournament(config(), tmp_path / "one.jsonl")
    two = run_tournament(config(), tmp_path / "two.jsonl", concurrency=2)
    assert len(one.records) == 6 and one.stopped is None
    assert comparable(one.records) == comparable(two.records)
    assert comparable(read_results(tmp_path / "two.jsonl")) == comparable(one.records)
    assert one.summary["entrants"] == two.summary["entrants"]
    r = one.records[0]
    assert set(r) >= {"seed", "seats", "moves", "result", "returns", "termination", "fault", "length"}
    decisions = [m for m in r["moves"] if m["player"] >= 0]
    assert decisions and all("time" in m for m in decisions)
    assert any("nodes" in m for m in decisions)
    assert one.summary["games"] == 6 and sum(e["games"] for e in one.summary["entrants"]) == 12


def test_sprt_stops_early_and_counts_whole_pairs(tmp_path):
    # greedy on the hand-set evaluation, whatever the game's eval.toml says:
    # it wins most games but not all, so the test sees a sample with spread
    # (a sweep, as the tuned weights of eval-tuned.toml play here, also
    # stops: tests/test_stats.py::test_sprt_stops_on_samples_with_no_spread)
    cfg = config(bots=("greedy:weights=classic", "random"), games=40,
                 sprt=ardsearch.stats.SPRT(elo0=0, elo1=300, alpha=0.1, beta=0.1))
    result = run_tournament(cfg, tmp_path / "s.jsonl")
    assert result.stopped == "sprt"
    assert result.summary["sprt"]["decision"] in ("H0", "H1")
    assert len(result.records) < 40 and len(result.records) % 2 == 0
    again = run_tournament(cfg, tmp_path / "s2.jsonl", concurrency=2)
    assert comparable(again.records) == comparable(result.records)


def test_existing_results_are_not_overwritten_by_accident(tmp_path):
    out = tmp_path / "r.jsonl"
    run_tournament(config(bots=("random", "greedy")), out)
    with pytest.raises(ValueError, match="--resume"):
        run_tournament(config(bots=("random", "greedy")), out)
    with pytest.raises(ValueError, match="seed differ"):
        run_tournament(config(bots=("random", "greedy"), seed=99), out, resume=True)


# ---- resume ------------------------------------------------------------------

KILLER = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, {root!r})
    import ardsearch
    from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament
    game = ardsearch.load_game({game!r})
    cfg = TournamentConfig(game.name, dict(game.params), tuple(parse_bot(b) for b in {bots!r}), games=4, seed=5)
    seen = []
    def after(record):
        seen.append(record)
        if len(seen) == {k}:
            os.kill(os.getpid(), signal.SIGKILL)   # an interruption at its most abrupt
    run_tournament(cfg, {out!r}, on_game=after)
""")


def test_resume_after_kill_matches_an_uninterrupted_run(tmp_path):
    bots = ("random", "greedy", "mcts-fast:nodes=30")
    out = tmp_path / "killed.jsonl"
    script = KILLER.format(root=str(ROOT), game=GAME, bots=bots, k=5, out=str(out))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()
    assert len(read_results(out)) == 5
    assert json.loads(state_path(out).read_text())["finished"] is False
    # a torn line from a write cut short: dropped on resume
    with open(out, "a") as f:
        f.write('{"index": 7, "seats": ["ran')
    played = []
    resumed = run_tournament(config(bots=bots, games=4, seed=5), out, resume=True, on_game=played.append)
    assert len(played) == 12 - 5 and 7 in [r["index"] for r in played]
    fresh = run_tournament(config(bots=bots, games=4, seed=5), tmp_path / "fresh.jsonl")
    assert comparable(resumed.records) == comparable(fresh.records)
    assert resumed.summary["entrants"] == fresh.summary["entrants"]
    assert resumed.summary["crosstable"] == fresh.summary["crosstable"]
    assert comparable(read_results(out)) == comparable(fresh.records)


# ---- command line ------------------------------------------------------------

def test_cli_tournament_writes_tables_and_replay_prints_the_game(tmp_path, capsys):
    out = tmp_path / "res.jsonl"
    code = main_tournament([GAME, "--bots", "random", "greedy", "--games", "2", "--seed", "1",
                            "--out", str(out), "--quiet"])
    assert code == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "pentanomial" in text
    summary = json.loads((tmp_path / "res.summary.json").read_text())
    assert summary["games"] == 2
    assert "## Crosstable" in (tmp_path / "res.md").read_text()
    assert main_replay([str(out)]) == 0
    listing = capsys.readouterr().out
    assert listing.count("seed") == 2
    assert main_replay([str(out), "--game", "1"]) == 0
    shown = capsys.readouterr().out
    record = read_results(out)[1]
    assert all(m["move"] in shown for m in record["moves"])
    assert "road 1" in shown and f"result {record['result']}" in shown


@pytest.mark.parametrize("argv, message", [
    ([GAME, "--bots", "random"], "at least 2 entrants"),
    ([GAME, "--bots", "random", "greedy", "--games", "3"], "even"),
    ([GAME, "--bots", "random", "nosuchbot"], "nosuchbot"),
    (["nosuchgame", "--bots", "random", "greedy"], "nosuchgame"),
    ([GAME, "--bots", "a", "b", "c", "--sprt", "elo1=5"], "two entrants"),
    ([GAME, "--bots", "random", "greedy", "--sprt", "elo1=x"], "number"),
])
def test_cli_bad_arguments_exit_2_with_one_line(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main_tournament(argv + ["--out", str(tmp_path / "x.jsonl"), "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_replay_errors(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main_replay([str(tmp_path / "missing.jsonl")])
    assert exc.value.code == 2
    out = tmp_path / "r.jsonl"
    main_tournament([GAME, "--bots", "random", "greedy", "--out", str(out), "--quiet"])
    with pytest.raises(SystemExit) as exc:
        main_replay([str(out), "--game", "9"])
    assert exc.value.code == 2 and "0..1" in capsys.readouterr().err


def test_cli_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "ratings.png"
    code = main_tournament([GAME, "--bots", "random", "greedy", "mcts-fast:nodes=20", "--out",
                            str(tmp_path / "r.jsonl"), "--plot", str(png), "--quiet"])
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_command_runs_a_tournament(tmp_path):
    # The same through `python -m ardsearch tournament` (the lead's CLI dispatch).
    out = tmp_path / "r.jsonl"
    proc = subprocess.run([sys.executable, "-m", "ardsearch", "tournament", GAME, "--bots", "random", "greedy",
                           "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert len(read_results(out)) == 2


def test_results_file_is_a_records_file(tmp_path):
    """docs/records.md: "ardsearch tournament --out writes them": each line is a
    game record that reads back in full, with both players, every move's side
    and comments, and the outcome with its reason."""
    from ardsearch.records import read_records
    out = tmp_path / "r.jsonl"
    run_tournament(config(), out)
    records = read_records(out)
    assert len(records) == 6
    for rec in records:
        assert rec.result != "*" and rec.outcome["winner"] in ("draw", *[p["side"] for p in rec.players])
        assert rec.players[0]["settings"]["preset"] in ("random", "greedy", "mcts-fast")
        assert all(m["side"] for m in rec.moves)
        assert rec.state().is_terminal()
    mcts_moves = [m for rec in records for m in rec.moves
                  if m["player"] >= 0 and rec.players[m["player"]]["name"].startswith("mcts-fast")]
    assert any("wp" in m and "nodes" in m for m in mcts_moves)


# ---- output paths ------------------------------------------------------------

def _bad_out_cases(tmp_path):
    (tmp_path / "afile").write_text("not a folder\n")
    (tmp_path / "adir").mkdir()
    return [
        (["--out", str(tmp_path / "afile" / "r.jsonl")], "which is a file, not a folder"),
        (["--out", str(tmp_path / "afile" / "sub" / "r.jsonl")], "which is a file, not a folder"),
        (["--out", str(tmp_path / "missing" / "sub" / "r.jsonl")], "does not exist: create it first"),
        (["--out", str(tmp_path / "adir")], "is a folder, not a file"),
        (["--out", str(tmp_path / "adir"), "--overwrite"], "is a folder, not a file"),
        (["--out", str(tmp_path / "adir"), "--resume"], "is a folder, not a file"),
        (["--out", str(tmp_path / "r.jsonl"), "--plot", str(tmp_path / "afile" / "p.png")],
         "which is a file, not a folder"),
        (["--out", str(tmp_path / "r.jsonl"), "--plot", str(tmp_path / "adir")], "is a folder"),
    ]


@pytest.mark.parametrize("case", range(8))
def test_cli_bad_out_paths_are_one_line_exit_2_and_leave_nothing(tmp_path, capsys, case):
    """ardsearch/cli.py: "Bad arguments print one line on stderr and exit with
    status 2." A results path that cannot be written (under a file, in a missing
    folder, a folder itself, with or without --overwrite) is a bad argument: it is
    found before the first game, the line says what was wrong and what to do, and
    no file or folder is left behind (no stray .tmp)."""
    extra, message = _bad_out_cases(tmp_path)[case]
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(SystemExit) as exc:
        main_tournament([GAME, "--bots", "random", "greedy", "--quiet"] + extra)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert ("--plot" if "--plot" in extra else "--out") in err     # what to change
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes to any folder")
def test_cli_unwritable_out_folder(tmp_path, capsys):
    """As above, for a folder this user may not write."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(SystemExit) as exc:
            main_tournament([GAME, "--bots", "random", "greedy", "--quiet", "--out", str(locked / "r.jsonl")])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "not writable" in err and err.count("\n") == 1
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_cli_write_failure_leaves_no_temporary_file(tmp_path, capsys, monkeypatch):
    """A write that fails after the checks (permissions, a full disk: here the
    rename of the first temporary file) is one line, exit status 2, and the
    temporary file is removed."""
    from ardsearch.tournament import records

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(records.os, "replace", refuse)
    code = main_tournament([GAME, "--bots", "random", "greedy", "--quiet", "--out", str(tmp_path / "r.jsonl")])
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spec, words", [
    ("mcts-fast:nodes=1.5", ["nodes=1.5", "a positive integer"]),
    ("mcts-fast:nodes=true", ["nodes=True", "a positive integer"]),
    ("mcts-fast:depth=0", ["depth=0", "a positive integer"]),
    ("mcts-fast:movetime=abc", ["movetime='abc'", "a positive number of seconds"]),
    ("mcts-fast:movetime=-1", ["movetime=-1", "a positive number of seconds"]),
    ("mcts-fast:seed=3", ["seed", "tournament --seed"]),
])
def test_entrant_limits_are_read_strictly(spec, words):
    """ardsearch tournament --help: "keys nodes, movetime, depth, tc are limits".
    A limit that is not of its type is refused with the key, the value and what it
    takes, never truncated (nodes=1.5 is not 1); a bot's seed comes from the
    tournament's --seed."""
    with pytest.raises(ValueError) as exc:
        parse_bot(spec)
    assert all(w in str(exc.value) for w in words), str(exc.value)


def test_cli_ctrl_c_keeps_the_finished_games_and_resumes(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a
    tournament on worker processes: the workers stop at once and print nothing,
    the command says where the finished games are and how to go on (--resume),
    exits with status 130, and --resume then completes the schedule."""
    import re
    import signal
    import time
    out = tmp_path / "r.jsonl"
    # games long enough (a search of 3,000 simulations a move) that the
    # interrupt lands while most of them are still to play
    argv = [sys.executable, "-m", "ardsearch", "tournament", GAME, "--bots", "greedy", "mcts-fast:nodes=3000",
            "--games", "20", "--concurrency", "2", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                         start_new_session=True, preexec_fn=sigint_as_at_a_terminal)
    try:
        os.set_blocking(p.stderr.fileno(), False)
        seen = b""
        deadline = time.monotonic() + 240
        while not re.search(rb"\] [1-9]\d*/20 games", seen):
            assert time.monotonic() < deadline and p.poll() is None, seen
            seen += p.stderr.read() or b""
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    err = (seen + err).decode()
    assert p.returncode == 130, err
    assert "interrupted" in err and "--resume" in err and str(out) in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    done = json.loads(state_path(out).read_text())["done"]
    assert 1 <= len(done) < 20 and len(read_results(out)) >= len(done)
    again = subprocess.run(argv + ["--resume", "--quiet"], capture_output=True, text=True, cwd=tmp_path, env=env,
                           timeout=240)
    assert again.returncode == 0, again.stderr
    assert sorted(r["index"] for r in read_results(out)) == list(range(20))


def test_cli_replay_of_a_foreign_jsonl_is_one_line(tmp_path, capsys):
    """ardsearch/cli.py: "Bad arguments print one line on stderr and exit with
    status 2": a JSON-lines file whose records are not tournament records (here
    with an index but no seats) is such an argument, not a KeyError traceback."""
    other = tmp_path / "other.jsonl"
    other.write_text('{"index": 0, "score": 3}\n')
    for argv in ([str(other)], [str(other), "--game", "0"]):
        with pytest.raises(SystemExit) as exc:
            main_replay(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "not an ardsearch game record" in err and err.count("\n") == 1, err
