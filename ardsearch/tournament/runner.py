"""Runs a tournament: schedule, resume, dispatch to a backend, SPRT, progress, results.

    config = TournamentConfig("ardennes", game.params, entrants, games=4, seed=1)
    result = run_tournament(config, "results.jsonl")
    print(text_report(result.summary))
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

import ardsearch
from ardsearch.tournament import backends
from ardsearch.tournament.config import TournamentConfig
from ardsearch.tournament.records import ResultsWriter, check_output_file, load_for_resume, state_path
from ardsearch.tournament.schedule import pairings
from ardsearch.tournament.standings import Standings


@dataclass
class TournamentResult:
    records: list[dict]       # the games that count, in schedule order
    summary: dict             # figures (see Standings.summary)
    standings: Standings
    stopped: str | None       # why the run ended early: "sprt", "fault" or None
    played: int               # games played by this run (not those resumed)


def check_entrants(config: TournamentConfig) -> None:
    """Fails before any game on a preset that does not exist or a bad bot option."""
    game = ardsearch.load_game(config.game, **config.params)
    for e in config.entrants:
        if e.kind == "bot":
            from ardsearch.tournament.players import BotPlayer, GameFault
            try:
                BotPlayer(e).new_game(game, 0, 0)
            except GameFault as f:
                raise ValueError(f"entrant {e.name}: {f.message}") from None
    if config.sprt is not None and len(config.entrants) != 2:
        raise ValueError(f"--sprt compares two entrants, got {len(config.entrants)}")


class Progress:
    """One status line on stderr: games done, running score, ETA."""

    def __init__(self, total: int, done: int, out=sys.stderr, enabled=True):
        self.total, self.start_done = total, done
        self.t0 = time.perf_counter()
        self.out, self.enabled = out, enabled

    def show(self, standings: Standings, done: int) -> None:
        if not self.enabled:
            return
        played = done - self.start_done
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / played * (self.total - done) if played else 0.0
        width = 24
        filled = width * done // max(1, self.total)
        if len(standings.names) == 2:
            t = standings.pairings[0]
            score = f"{t.a} +{t.wdl[0]} ={t.wdl[1]} -{t.wdl[2]}"
        else:
            rows = {n: [0.0, 0] for n in standings.names}
            for _, name, pts in standings.timeline:
                rows[name][0] += pts
                rows[name][1] += 1
            lead = max(rows, key=lambda n: rows[n][0] / rows[n][1] if rows[n][1] else 0.0)
            score = f"leader {lead} {rows[lead][0]:g}/{rows[lead][1]}" if rows[lead][1] else ""
        self.out.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {done}/{self.total} games  {score}  "
                       f"eta {eta:5.0f}s ")
        self.out.flush()

    def end(self) -> None:
        if self.enabled:
            self.out.write("\n")
            self.out.flush()


def run_tournament(config: TournamentConfig, out, *, resume: bool = False, overwrite: bool = False,
                   backend: str = "local", concurrency: int = 1, address: str | None = None,
                   recover: bool = False, progress: bool = False, on_game=None) -> TournamentResult:
    """Plays every scheduled game not already in `out` and returns the figures.

    Without `recover` the first fault (timeout, crash, illegal move, stall,
    protocol error) ends the run after its game is recorded. With an SPRT the
    run ends at the first duplicate pair, in schedule order, after which the
    test decides; games that finished beyond that pair are recorded but not
    counted. `on_game(record)` is called after each game is safely written.
    """
    out = Path(out)
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    tasks = config.tasks()
    names = [e.name for e in config.entrants]
    plan = pairings(names, config.format)
    for path in (out, state_path(out)):   # and the temporary files they are replaced through
        check_output_file(path)
        check_output_file(path.with_name(path.name + ".tmp"))
    if resume:
        records = load_for_resume(out, config)
    else:
        if (out.exists() or state_path(out).exists()) and not overwrite:
            raise ValueError(f"{out} already exists: pass --resume to continue it or --overwrite to start over")
        records = []
    check_entrants(config)
    writer = ResultsWriter(out, config, records)
    by_index = {r["index"]: r for r in records}
    bar = Progress(len(tasks), len(by_index), enabled=progress)
    state = {"stop": None, "limit": None}

    def counted() -> Standings:
        # The contiguous prefix of the schedule; with SPRT, cut at the deciding pair.
        prefix = []
        for t in tasks:
            r = by_index.get(t.index)
            if r is None or (state["limit"] is not None and t.index > state["limit"]):
                break
            prefix.append(r)
        return Standings.of(prefix, names, plan, config.sprt)

    def check_sprt() -> None:
        if config.sprt is None or state["limit"] is not None:
            return
        s = Standings(names, plan, config.sprt)
        for t in tasks:
            r = by_index.get(t.index)
            if r is None:
                return
            s.add(r)
            if t.leg == 1 and s.sprt_decision() is not None:
                state["limit"], state["stop"] = t.index, "sprt"
                return

    check_sprt()
    todo = [t for t in tasks if t.index not in by_index]
    played = 0
    try:
        bar.show(counted(), len(by_index))
        for record in backends.run(backend, config, todo, concurrency, lambda: state["stop"] is not None, address):
            writer.add(record)
            by_index[record["index"]] = record
            played += 1
            if record["fault"] and not recover and state["stop"] is None:
                state["stop"] = "fault"
            check_sprt()
            bar.show(counted(), len(by_index))
            if on_game:
                on_game(record)
        standings = counted()
        summary = standings.summary()
        summary["stopped"] = state["stop"]
        summary["complete"] = state["stop"] == "sprt" or all(t.index in by_index for t in tasks)
        writer.finish(summary)
    finally:
        writer.close()
        bar.end()
    kept = [by_index[t.index] for t in tasks if t.index in by_index
            and (state["limit"] is None or t.index <= state["limit"])]
    return TournamentResult(kept, summary, standings, state["stop"], played)
