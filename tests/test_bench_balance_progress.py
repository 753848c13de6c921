"""bench.balance --progress: the running seat counts after each pair, with
the same games as a run without it (pairs are played in index order, so the
first k pairs of a run are the games of `--pairs k`)."""
from __future__ import annotations

from bench.balance import main

GAME = "stosstruppen(scenario=villers,turns=1)"   # a one-turn game: cheap


def test_progress_prints_each_pair_and_does_not_change_the_games(capsys):
    main([GAME, "--bot", "random", "--pairs", "2", "--seed", "1", "--progress"])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert [ln.split(": after ")[1].split(" pairs")[0] for ln in lines] == ["1", "2"]
    assert lines[-1].split("pairs seat 0 ")[1].split(",")[0] in out   # the final table's seat-0 cell


def test_the_first_pairs_of_a_longer_run_are_the_shorter_run():
    from bench.pairs import parse_spec, play_match
    spec = parse_spec("random")
    short = play_match(GAME, spec, spec, 1, 1)
    long = play_match(GAME, spec, spec, 2, 1)
    assert (long.pairs[0].a_points, long.pairs[0].lengths) == (short.pairs[0].a_points, short.pairs[0].lengths)
