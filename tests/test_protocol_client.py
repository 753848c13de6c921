"""The client against our engine (sync and asyncio) and against the
fault-injection engines of tests/engines/."""
from __future__ import annotations

import asyncio

import pytest

from test_protocol_helpers import ENGINE_CMD, engine_env, faulty_cmd, require_search

from ardsearch.protocol.client import (AsyncEngine, Engine, EngineError, EngineTerminatedError,
                                       EngineTimeoutError, Limit)


def decision_state(seed=5):
    import ardsearch

    state = ardsearch.load_game("ardennes").new_initial_state(seed=seed)
    while state.is_chance_node():
        state.apply_random_chance()
    return state


@pytest.fixture(scope="module")
def engine():
    require_search()
    with Engine.popen(ENGINE_CMD, timeout=20, env=engine_env()) as e:
        yield e


def test_handshake_fills_id_games_options(engine):
    assert engine.id["name"].startswith("ardsearch")
    assert engine.protocol_version == 1
    assert "ardennes" in engine.games
    assert engine.options["Algorithm"].type == "combo"
    assert "ismcts" in engine.options["Algorithm"].vars
    assert engine.options["Threads"].min == 1


def test_play_returns_a_legal_action_with_info(engine):
    engine.new_game("ardennes")
    state = decision_state()
    result = engine.play(state, Limit(nodes=300))
    assert result.action in state.legal_actions()
    assert result.move == state.action_to_string(result.action)
    assert result.info["nodes"] > 0 and 0 <= result.info["wp"] <= 1 and result.info["pv"]


def test_play_a_short_game_through_the_client(engine):
    state = decision_state(seed=11)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        state.apply_action(engine.play(state, Limit(nodes=50)).action)
    assert len(state.history()) >= 12


def test_analyse_with_multipv_and_configure(engine):
    engine.configure({"MultiPV": 4})
    try:
        info = engine.analyse(decision_state(), Limit(nodes=300))
    finally:
        engine.configure({"MultiPV": 1})
    assert len(info["actions"]) == 4 and info["bestmove"]
    with pytest.raises(EngineError):
        engine.configure({"NoSuchOption": 1})
    with pytest.raises(EngineError):
        engine.configure({"Threads": 0})


def test_new_game_errors(engine):
    with pytest.raises(EngineError):
        engine.new_game("chess")
    with pytest.raises(EngineError):
        engine.new_game("ardennes", road_length=2)
    engine.new_game("ardennes")


def test_play_at_a_chance_node_is_refused(engine):
    import ardsearch

    with pytest.raises(EngineError):
        engine.play(ardsearch.load_game("ardennes").new_initial_state(seed=1), Limit(nodes=10))


def test_asyncio_client():
    require_search()

    async def main():
        engine = await AsyncEngine.popen(ENGINE_CMD, timeout=20, env=engine_env())
        async with engine:
            state = decision_state()
            result = await engine.play(state, Limit(nodes=200))
            assert result.action in state.legal_actions()
            info = await engine.analyse(state, Limit(time=0.2))
            assert info["bestmove"]
        assert engine.process.returncode == 0

    asyncio.run(main())


# ---- fault injection -----------------------------------------------------

def test_crash_on_go_raises_terminated():
    require_search()
    with Engine.popen(faulty_cmd("crash-on-go"), timeout=5) as e:
        with pytest.raises(EngineTerminatedError):
            e.play(decision_state(), Limit(nodes=10))
        with pytest.raises(EngineTerminatedError):
            e.play(decision_state(), Limit(nodes=10))


def test_hang_after_go_times_out():
    require_search()
    # the error names the budget that ran out: the call's 0.5 s, not the
    # engine's default (no assertion on elapsed time: it flaked under load)
    with Engine.popen(faulty_cmd("hang-after-go"), timeout=30) as e:
        with pytest.raises(EngineTimeoutError, match=r"within 0\.5 s"):
            e.play(decision_state(), Limit(nodes=10), timeout=0.5)


@pytest.mark.parametrize("mode,match", [("illegal-bestmove", "illegal move 'f1'"),
                                        ("nonsense-bestmove", "not notation")])
def test_bad_bestmove_is_an_error_and_state_is_unchanged(mode, match):
    require_search()
    with Engine.popen(faulty_cmd(mode), timeout=5) as e:
        state = decision_state()
        before = state.history()
        with pytest.raises(EngineError, match=match):
            e.play(state, Limit(nodes=1))
        assert state.history() == before


def test_garbage_output_is_an_error():
    with pytest.raises(EngineError):
        Engine.popen(faulty_cmd("garbage"), timeout=3)


def test_slow_handshake_times_out():
    # the handshake would finish after 30 s: the error names the 0.5 s budget
    with pytest.raises(EngineTimeoutError, match=r"within 0\.5 s"):
        Engine.popen(faulty_cmd("slow-handshake"), timeout=0.5)


def test_engine_error_line_is_raised():
    require_search()
    with Engine.popen(faulty_cmd("error-on-newgame"), timeout=5) as e:
        with pytest.raises(EngineError, match="refuses"):
            e.new_game("ardennes")


def test_missing_engine_binary():
    with pytest.raises(EngineTerminatedError):
        Engine.popen(["/nonexistent/engine-binary"], timeout=1)
