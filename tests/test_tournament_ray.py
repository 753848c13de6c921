"""The Ray backend on a local Ray instance limited to 2 CPUs: the same games
and the same table as the local backend for the same seeds."""
import pytest

import ardsearch
from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament

ray = pytest.importorskip("ray")

GAME = "ardennes(road_length=8,max_rounds=10)"


def comparable(records):
    out = []
    for r in records:
        r = dict(r)
        r.pop("seconds")
        r["moves"] = [{k: v for k, v in m.items() if k != "time"} for m in r["moves"]]
        out.append(r)
    return sorted(out, key=lambda r: r["index"])


def test_ray_backend_matches_local(tmp_path):
    game = ardsearch.load_game(GAME)
    cfg = TournamentConfig(game.name, dict(game.params),
                           tuple(parse_bot(b) for b in ("random", "greedy", "mcts-fast:nodes=40")), games=2, seed=8)
    local = run_tournament(cfg, tmp_path / "local.jsonl")
    remote = run_tournament(cfg, tmp_path / "ray.jsonl", backend="ray", concurrency=2)
    assert not ray.is_initialized()          # the instance it started is stopped again
    assert len(remote.records) == 6
    assert comparable(remote.records) == comparable(local.records)
    assert remote.summary["entrants"] == local.summary["entrants"]
    assert remote.summary["crosstable"] == local.summary["crosstable"]
