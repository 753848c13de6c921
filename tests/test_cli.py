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
        code, out, _ = run(capsys, "play", "ardennes", "--vs", "random", "--as", "1")
        assert code == 0 and "you play" in out
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
