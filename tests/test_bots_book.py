"""The searching bots' book (GameSpec.book): positions they play from data
rather than search. Stand at Mortain's is its US setup phase, where the
evaluation cannot tell one placement from another (every placement read the
same win probability), so a searching bot as the US plays the scenario's
historical setup (RULES.md, Setup)."""
import ardsearch
from ardsearch.bots import load_bot

FREE = ardsearch.load_game("mortain")
HISTORICAL = ardsearch.load_game("mortain", setup="historical")


def places(state):
    return {u: v["at"] for u, v in state.to_dict()["units"].items() if v["at"] != "reserve"}


def set_up(bot, state):
    infos = []
    while state.to_dict()["phase"] == "setup":
        action, info = bot.play(state)
        infos.append(info)
        state.apply_action(action)
    return infos


def test_a_searching_bot_sets_up_as_history_did_without_searching():
    """Contract: "Parameter `setup=historical` uses a fixed setup from the
    scenario file instead (2/120 on Hill 314, the rest around the town)"; with
    the free setup (the game's default) the searching bots play that setup."""
    for preset in ("mcts", "level-1", "expectimax"):
        state = FREE.new_initial_state(seed=3)
        infos = set_up(load_bot(preset, FREE), state)
        assert places(state) == places(HISTORICAL.new_initial_state(seed=3)), preset
        assert all(i["book"] and i["nodes"] == 0 for i in infos), preset
        assert all(0.0 <= i["wp"] <= 1.0 and i["clock"] == "wall" for i in infos)
        assert state.is_chance_node()         # then Turn 1's first card is drawn


def test_the_book_ends_when_the_setup_leaves_history():
    """A person who places a unit elsewhere has left the book: the bot searches."""
    state = FREE.new_initial_state(seed=3)
    state.apply("setup 2-120 0506")           # history has 2/120 on Hill 314 (0803)
    info = load_bot("mcts", FREE, simulations=50).analyze(state)
    assert "book" not in info and info["nodes"] == 50


def test_the_book_goes_on_after_a_person_follows_it():
    state = FREE.new_initial_state(seed=3)
    state.apply("setup 2-120 0803")
    assert load_bot("mcts", FREE).analyze(state)["move"] == "setup 1-120 0604"


def test_random_and_greedy_have_no_book():
    for preset in ("random", "greedy"):
        info = load_bot(preset, FREE).analyze(FREE.new_initial_state(seed=3))
        assert not info.get("book"), preset


def test_no_book_outside_the_setup_phase():
    state = HISTORICAL.new_initial_state(seed=3)
    while state.is_chance_node():
        state.apply_random_chance()
    assert FREE.spec.book(state) is None
