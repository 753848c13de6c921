"""`bench`: a fixed search over fixed positions of every game.

The positions come from each game's start with a fixed seed, walked a fixed
number of plies by an index rule (no RNG), so they depend on the rules only.
Each is searched by the game's default algorithm with one thread, seed 0 and
a fixed simulation budget; `Nodes searched` (the sum of tree nodes) is then a
signature that changes only when the search or the rules change.

`stop` ends a bench like a search: the running search returns at once, no
further position is searched, and the total line says `partial`
(docs/protocol.md).
"""
from __future__ import annotations

import threading
import time

DEFAULT_NODES = 3000
# (start seed, plies to walk) per position
POSITIONS = ((1, 0), (2, 7), (3, 19))


def bench_positions(game):
    """The fixed decision states of one game."""
    out = []
    for seed, plies in POSITIONS:
        state = game.new_initial_state(seed=seed)
        step = 0
        while not state.is_terminal() and (step < plies or state.is_chance_node()):
            options = state.legal_actions()
            state.apply_action(options[(step * 7 + seed) % len(options)])
            step += 1
        if not state.is_terminal():
            out.append(state)
    return out


def run_bench(emit, nodes: int = DEFAULT_NODES, stop_event=None, final=None) -> int:
    """Runs the bench, printing with emit (the last line with final). A
    stop_event (a searcher.StopSignal, or any Event) that gets set ends it
    early; the total is then marked partial. Returns the total."""
    import ardsearch

    from ..bots import SHAPE_FALLBACK
    from .searcher import STOP_POLL_S, make_search, notation_line

    def stopped() -> bool:
        return stop_event is not None and stop_event.is_set()

    total = 0
    t0 = time.perf_counter()
    for name in ardsearch.list_games():
        if stopped():
            break
        try:
            game = ardsearch.load_game(name)
        except Exception as exc:
            emit(f"info string bench {name} skipped: {exc}")
            continue
        algorithm = "ismcts" if game.hidden_information else "mcts"
        for i, state in enumerate(bench_positions(game), 1):
            if stopped():
                break
            view = state.view(state.current_player()) if game.hidden_information else state
            # a fixed search shape, so the bench signature does not move with the presets
            search = make_search(game, algorithm, {"Seed": 0, "Hash": 64, "Exploration": 1.4}, None, threads=1,
                                 shape=SHAPE_FALLBACK)
            result = _stoppable(search, view.raw(), nodes, stop_event, STOP_POLL_S)
            total += int(result["nodes"])
            best = notation_line(view, [result["best"]])
            emit(f"info string bench {name} position {i} nodes {int(result['nodes'])} "
                 f"bestmove {best[0] if best else result['best']}")
    ms = max(1, int((time.perf_counter() - t0) * 1000))
    emit(f"Total time (ms) : {ms}")
    emit(f"Nodes searched : {total}" + (" partial" if stopped() else ""))
    (final or emit)(f"Nodes/second : {total * 1000 // ms}")
    return total


def _stoppable(search, raw: bytes, nodes: int, stop_event, poll_s: float) -> dict:
    """search.search(raw, simulations=nodes), ended early by stop_event. The
    signal's hook stops a running search at once; a watcher repeats stop()
    while the event is up, since a stop just before the search starts is
    cleared by the start."""
    if stop_event is None:
        return search.search(raw, simulations=nodes)
    if hasattr(stop_event, "on_set"):
        stop_event.on_set(search.stop)
    done = threading.Event()

    def watch():
        while not done.wait(poll_s):
            if stop_event.is_set():
                search.stop()

    watcher = threading.Thread(target=watch, daemon=True, name="ardsearch-bench-stop")
    watcher.start()
    try:
        return search.search(raw, simulations=nodes)
    finally:
        done.set()
        watcher.join()
