"""The `ardsearch` command line: each subcommand, and one-line errors with status 2."""
import io
import subprocess
import sys

import pytest

import ardsearch
from ardsearch.cli import main


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


def test_play_against_a_bot(capsys, monkeypatch):
    script = "help\nmoves\nnot-a-move\npass\n" * 3 + "quit\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, _ = run(capsys, "play", "ardennes(road_length=8)", "--vs", "random", "--as", "0",
                       "--seed", "1")
    assert code == 0
    assert "commands:" in out and "moves:" in out
    assert "not ardennes notation" in out
    assert "chance: first:" in out


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
    ["frobnicate"],
])
def test_bad_arguments_exit_2_with_one_line(argv):
    p = subprocess.run([sys.executable, "-m", "ardsearch", *argv], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "error" in p.stderr
