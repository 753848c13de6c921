"""The `ardsearch` command line: each subcommand, and one-line errors with status 2."""
import io
import subprocess
import sys

import pytest

import ardsearch
from ardsearch.cli import main
from ardsearch.session import HUMAN, Session


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    for name in ardsearch.list_games():
        assert name in out
    assert "mcts-fast" in out and "random" in out


def test_show(capsys):
    code, out, _ = run(capsys, "show", "ardennes(variant=basic)")
    assert code == 0
    assert "Clash of the Ardennes" in out and "variant=basic" in out


def test_perft_matches_the_core(capsys):
    code, out, _ = run(capsys, "perft", "ardennes", "2", "--moves", "first:A", "obj:1")
    assert code == 0
    state = ardsearch.load_game("ardennes").new_initial_state()
    state.apply("first:A")
    state.apply("obj:1")
    from ardsearch._core import perft
    assert out.strip().endswith(f"Nodes searched: {perft(state, 2)}")
    assert "obj:2: " in out


def test_match_prints_a_table(capsys):
    code, out, err = run(capsys, "match", "ardennes(road_length=8,max_rounds=6)", "random", "greedy",
                         "--games", "2", "--seed", "3")
    assert code == 0
    assert "random" in out and "greedy" in out and "mean length" in out
    assert "2/2 games" in err  # the progress bar


def test_match_writes_game_records(capsys, tmp_path):
    path = tmp_path / "m.jsonl"
    code, out, _ = run(capsys, "match", "ardennes(road_length=8,max_rounds=6)", "random", "greedy",
                       "--games", "2", "--seed", "3", "--quiet", "--out", str(path))
    assert code == 0 and str(path) in out
    from ardsearch.records import read_records
    records = read_records(path)
    assert [r.extra["index"] for r in records] == [0, 1]
    assert [r.players[0]["name"] for r in records] == ["random", "greedy"]   # seats alternate
    assert all(r.result != "*" for r in records)


def test_play_against_a_bot(capsys, monkeypatch):
    script = "help\nmoves\nnot-a-move\npass\n" * 3 + "quit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, _ = run(capsys, "play", "ardennes(road_length=8)", "--vs", "random", "--as", "0",
                       "--seed", "1")
    assert code == 0
    assert "commands:" in out and "moves:" in out
    assert "not ardennes notation" in out
    assert "chance: first:" in out


def test_show_hides_hidden_information(capsys):
    """`ardsearch show ardennes` printed both hidden objective cards; it shows
    the board as the first side sees it."""
    code, out, _ = run(capsys, "show", "ardennes", "--seed", "3")
    assert code == 0
    assert "objective hidden" in out
    assert out.count("objective card") == 1


def test_play_deals_a_fresh_seed_and_prints_it(capsys, monkeypatch):
    seeds = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        code, out, _ = run(capsys, "play", "ardennes", "--vs", "random", "--as", "germans")
        assert code == 0 and "you play Germans, the bot (random) plays Allies" in out
        seeds.append(out.split("seed ")[1].split(":")[0])
    assert seeds[0] != seeds[1]
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    _, again, _ = run(capsys, "play", "ardennes", "--vs", "random", "--as", "1", "--seed", seeds[0])
    assert f"seed {seeds[0]}:" in again


def test_play_save_then_load(capsys, monkeypatch, tmp_path):
    path = tmp_path / "game.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("T3\nquit\n"))
    code, out, _ = run(capsys, "play", "ardennes", "--vs", "random", "--seed", "5", "--save", str(path))
    assert code == 0 and "saved to" in out
    rec = ardsearch.read_record(path)
    assert any(m["move"] == "T3" and m["side"] == rec.players[0]["side"] for m in rec.moves)
    monkeypatch.setattr(sys, "stdin", io.StringIO("history\nquit\n"))
    code, out, _ = run(capsys, "play", "--load", str(path))
    assert code == 0 and "T3" in out


def test_rules_prints_the_installed_rules(capsys):
    code, out, _ = run(capsys, "rules", "mortain")
    assert code == 0 and out.startswith("#") and "Mortain" in out


def test_play_ends_cleanly_on_eof(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", "ardennes", "--vs", "random", "--as", "1")
    assert code == 0


@pytest.mark.parametrize("argv", [
    ["match", "nosuchgame", "random", "random"],
    ["match", "ardennes", "nosuchbot", "random", "--games", "1"],
    ["show", "ardennes(variant=huge)"],
    ["perft", "ardennes", "two"],
    ["perft", "ardennes", "1", "--moves", "zz9"],
    ["play", "ardennes", "--as", "7"],
    ["play", "ardennes", "--as", "italians"],
    ["play"],
    ["rules", "chess"],
    ["frobnicate"],
])
def test_bad_arguments_exit_2_with_one_line(argv):
    p = subprocess.run([sys.executable, "-m", "ardsearch", *argv], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "error" in p.stderr


SMALL = "ardennes(road_length=8,max_rounds=6)"
ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
ENV = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}


def sigint_as_at_a_terminal():
    """Popen preexec_fn for the Ctrl-C tests: the child gets SIGINT at its
    default, as a command started from a terminal does. A shell without job
    control starts background jobs with SIGINT ignored and children inherit
    that, so a test run launched in the background would otherwise see an
    engine that ignores Ctrl-C."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ---- bot settings ------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["play", "ardennes", "--vs", "mcts-fast", "--set", "simulations=abc"],
     ["simulations='abc'", "an integer >= 0"]),
    (["match", SMALL, "mcts-fast", "random", "--games", "2", "--set-a", "simulations=-5"],
     ["simulations=-5", "an integer >= 0"]),
    (["match", SMALL, "random", "mcts-fast", "--games", "2", "--set-b", "exploration=high"],
     ["exploration='high'", "a number >= 0"]),
    (["match", SMALL, "random", "expectimax", "--games", "2", "--set-b", "depth=2.5"],
     ["depth=2.5", "an integer from 1 to 64"]),
    (["match", SMALL, "mcts-fast", "random", "--games", "2", "--set-a", "solver=maybe"],
     ["solver='maybe'", "true or false"]),
    (["match", SMALL, "mcts-fast", "random", "--games", "2", "--set-a", "simulations"],
     ["--set-a", "KEY=VALUE"]),
    (["match", SMALL, "mcts-fast", "random", "--games", "2", "--set-a", "seed=3"], ["--set-a", "--seed"]),
    (["play", "ardennes", "--vs", "random", "--set", "seed=3"], ["--set", "--seed"]),
])
def test_bad_bot_settings_fail_before_anything_starts(capsys, argv, words):
    """cli.py: "Bad arguments print one line on stderr and exit with status 2."
    A bot setting given on the command line is checked against its type before
    anything starts (no board, no progress bar), and the line names the setting,
    the value and the type it takes."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and all(w in err for w in words), err
    assert "invalid literal" not in err
    assert "games" not in err and out == ""      # nothing started


# ---- closed pipes --------------------------------------------------------------

@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament
    game = ardsearch.load_game(SMALL)
    out = tmp_path_factory.mktemp("replay") / "r.jsonl"
    run_tournament(TournamentConfig(game.name, dict(game.params), (parse_bot("random"), parse_bot("greedy"))),
                   out)
    return out


def into_closed_pipe(argv, cwd):
    """Runs `ardsearch argv` with stdout a pipe nobody reads (like `| head` after
    head has gone): every write to it fails with EPIPE."""
    import os
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-m", "ardsearch", *argv], stdin=subprocess.DEVNULL, stdout=w,
                              stderr=subprocess.PIPE, text=True, timeout=180, cwd=cwd, env=ENV)
    finally:
        os.close(w)


@pytest.mark.parametrize("argv", [
    ["list"],
    ["show", "ardennes"],
    ["perft", "ardennes", "3"],
    ["play", "ardennes", "--vs", "random"],
    ["match", SMALL, "random", "random", "--games", "2", "--quiet"],
    ["replay", "{results}"],
    ["replay", "{results}", "--game", "1"],
    ["tournament", SMALL, "--bots", "random", "greedy", "--quiet", "--out", "{tmp}/t.jsonl"],
    ["engine"],
])
def test_a_closed_pipe_ends_quietly(tmp_path, results_file, argv):
    """cli.py: a reader that goes away (`ardsearch replay ... | head`) ends any
    command quietly with status 141, as a command killed by SIGPIPE would: no
    traceback, no "Exception ignored" at exit; files are still written."""
    argv = [a.format(results=results_file, tmp=tmp_path) for a in argv]
    p = into_closed_pipe(argv, tmp_path)
    assert p.stderr == "" and p.returncode in (0, 141), (p.returncode, p.stderr)
    if argv[0] != "engine":       # the engine answers nothing to empty input
        assert p.returncode == 141
    if argv[0] == "tournament":
        assert (tmp_path / "t.md").exists() and (tmp_path / "t.summary.json").exists()


# ---- Ctrl-C during a match ---------------------------------------------------

def test_ctrl_c_during_a_match_prints_the_finished_games(capsys, monkeypatch):
    """Ctrl-C during `match` keeps what finished: the table of the finished
    games, a line saying the match was interrupted after N of M games, and the
    usual status 130 of an interrupted command."""
    from ardsearch import match
    real = match._play_indexed

    def play(task):
        if task[5] == 3:          # the fourth game: Ctrl-C
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(match, "_play_indexed", play)
    code, out, err = run(capsys, "match", SMALL, "random", "greedy", "--games", "6", "--seed", "2")
    assert code == 130
    assert "interrupted after 3 of 6 games" in out and "interrupted after 3 of 6 games" in err
    assert "games 3, mean length" in out and "greedy" in out
    assert "Traceback" not in err


def test_ctrl_c_during_a_parallel_match(tmp_path):
    """The same with --jobs 2 and a real SIGINT to the whole process group (what
    a terminal sends): the workers stop at once and print nothing; the games that
    finished are in the table."""
    import os
    import re
    import signal
    import time
    p = subprocess.Popen([sys.executable, "-m", "ardsearch", "match", "ardennes", "greedy", "mcts-fast",
                          "--games", "200", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=tmp_path, env=ENV, start_new_session=True,
                         preexec_fn=sigint_as_at_a_terminal)
    try:
        os.set_blocking(p.stderr.fileno(), False)
        seen = b""
        deadline = time.monotonic() + 240
        while not re.search(rb"\] [1-9]\d*/200 games", seen):
            assert time.monotonic() < deadline and p.poll() is None, seen
            seen += p.stderr.read() or b""
            time.sleep(0.05)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    err = (seen + err).decode()
    out = out.decode()
    assert p.returncode == 130, err
    m = re.search(r"interrupted after (\d+) of 200 games", out)
    assert m and int(m.group(1)) >= 1 and f"games {m.group(1)}, mean length" in out, out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


# ---- play: line length ------------------------------------------------------

class _Endless(io.RawIOBase):
    """A stream without a file descriptor: `size` bytes of 'x' with no newline, then `tail`."""

    def __init__(self, size, tail):
        self.left, self.tail = size, tail

    def readable(self):
        return True

    def readinto(self, b):
        n = len(b)
        if self.left:
            k = min(n, self.left)
            b[:k] = b"x" * k
            self.left -= k
            return k
        k = min(n, len(self.tail))
        b[:k] = self.tail[:k]
        self.tail = self.tail[k:]
        return k


def test_play_caps_the_input_line(capsys, monkeypatch):
    """`play` reads its input with the protocol's cap (ardsearch/protocol/lineio.py:
    "Reads Lines ... without ever holding more than MAX_LINE bytes of one line. An
    oversized line yields exactly one Line with a problem"): a newline-free stream
    does not grow memory, and the over-long line is answered with a clear message."""
    import tracemalloc
    from ardsearch.protocol.lineio import MAX_LINE
    stream = io.TextIOWrapper(io.BufferedReader(_Endless(24 * MAX_LINE, b"\nmoves\nquit\n")), encoding="ascii")
    monkeypatch.setattr(sys, "stdin", stream)
    tracemalloc.start()
    try:
        code, out, _ = run(capsys, "play", "ardennes", "--vs", "random", "--as", "0", "--seed", "1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0
    assert peak < 8 * MAX_LINE, peak          # the stream held 24 MiB in one line
    assert out.count("line too long") == 1 and "moves:" in out


def test_play_caps_the_input_line_on_a_real_stdin(tmp_path):
    """The same through the command with stdin a file (read by file descriptor)."""
    from ardsearch.protocol.lineio import MAX_LINE
    feed = tmp_path / "in.txt"
    feed.write_bytes(b"y" * (3 * MAX_LINE) + b"\nmoves\nquit\n")
    with open(feed, "rb") as stdin:
        p = subprocess.run([sys.executable, "-m", "ardsearch", "play", "ardennes", "--vs", "random"],
                           stdin=stdin, capture_output=True, text=True, timeout=120, env=ENV, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("line too long") == 1 and "moves:" in p.stdout
    assert len(p.stdout) < 100_000           # the long line is not echoed back


def test_parallel_match_gives_the_games_of_a_serial_one():
    """match.py: "a game is reproduced exactly from (game, presets, seed)": with
    --jobs the games finish in any order but come back in game order, the same
    games as one process plays."""
    from ardsearch.match import run_match
    one = run_match(SMALL, "random", "greedy", games=6, seed=5, jobs=1, progress=False)
    two = run_match(SMALL, "random", "greedy", games=6, seed=5, jobs=2, progress=False)
    assert [(r.seed, r.seats, r.moves) for r in one.records] == [(r.seed, r.seats, r.moves) for r in two.records]
    assert (one.wins, one.draws, one.losses) == (two.wins, two.draws, two.losses)


def test_replay_reads_every_kind_of_record(capsys, tmp_path):
    """docs/records.md: play, match and tournament write records and replay
    reads them all, naming the sides and saying why the game ended."""
    path = tmp_path / "m.jsonl"
    run(capsys, "match", "ardennes(road_length=8,max_rounds=6)", "greedy", "random",
        "--games", "2", "--seed", "1", "--quiet", "--out", str(path))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "greedy (allies)" in out and "random (germans)" in out
    code, out, _ = run(capsys, "replay", str(path), "--game", "1", "--no-board")
    assert code == 0 and "Allies: random" in out and "result " in out
    rec = ardsearch.read_record(path, index=1)
    assert rec.outcome["sentence"] in out


def test_replay_of_a_game_saved_in_progress_says_it_is_not_over(capsys, tmp_path):
    """docs/records.md: result `*` is "a game not over"; replay says so in
    words rather than printing the termination `normal` as if it had ended."""
    session = Session(ardsearch.load_game("ardennes(road_length=8,max_rounds=6)"), [HUMAN, "random"], seed=4)
    list(session.advance())
    session.move(session.state.action_to_string(session.state.legal_actions()[0]))
    path = tmp_path / "saved.json"
    session.save(path)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "not over (saved in progress)" in out and "normal" not in out
    code, out, _ = run(capsys, "replay", str(path), "--game", "0", "--no-board")
    assert code == 0 and out.rstrip().endswith("result *: not over (saved in progress)")


def test_match_takes_a_bot_written_as_a_tournament_writes_it(capsys, tmp_path):
    """`ardsearch match GAME preset:key=value ...` as `ardsearch tournament`
    takes it (it said "unknown bot preset 'mcts:simulations=30'"); the
    settings reach the bot, and one given both inline and by --set-a is refused."""
    game = "ardennes(road_length=8,max_rounds=6)"
    path = tmp_path / "m.jsonl"
    code, out, _ = run(capsys, "match", game, "mcts:simulations=30,exploration=0.5", "random",
                       "--games", "2", "--seed", "1", "--quiet", "--out", str(path))
    assert code == 0 and "mcts:simulations=30,exploration=0.5 vs random" in out
    rec = ardsearch.read_record(path, index=0)
    mcts = next(p for p in rec.players if p["name"] == "mcts")
    assert (mcts["settings"]["simulations"], mcts["settings"]["exploration"]) == (30, 0.5)
    from ardsearch.cli import _bot_spec
    assert _bot_spec("mcts:simulations=30", {"exploration": 0.5}, "--set-a") == \
        ("mcts", {"simulations": 30, "exploration": 0.5})
    assert _bot_spec("greedy", {}, "--set-b") == ("greedy", {})
    code, out, _ = run(capsys, "match", game, "mcts:simulations=30", "mcts", "--set-b", "simulations=20",
                       "--games", "2", "--quiet")
    rows = [line.split()[0] for line in out.splitlines() if line.startswith("mcts")]
    assert rows == ["mcts:simulations=30", "mcts:simulations=20"]      # two bots of one preset read apart
    code, _, err = run(capsys, "match", game, "mcts:simulations=30", "random", "--set-a", "simulations=40")
    assert code != 0 and "both set simulations" in err
    code, _, err = run(capsys, "match", game, "mcts:simulations", "random")
    assert code != 0 and "expected key=value" in err
    code, _, err = run(capsys, "match", game, "mcts:seed=3", "random")
    assert code != 0 and "give --seed instead" in err
