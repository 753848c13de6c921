"""The C++ MCTS / ISMCTS core (ardsearch._search.MCTS) on hand-built
Clash of the Ardennes positions: tactics, the solver, determinism, tree
reuse, memory cap, the hidden-information discipline and API errors."""
import random
import threading
import time

import pytest

import ardsearch
from ardsearch import _search

LENGTH = dict(M=1, T=3, P=2, C=2, S=2, G=5, Y=1, K=3, R=2)


@pytest.fixture(scope="module")
def game():
    return ardsearch.load_game("ardennes")


def position(game, allies, germans, ap=4, to_move="allies", objectives=(4, 8)):
    """A standard-variant decision point from road -> unit letters (from each
    owner's block to its leading unit); a line filling all 16 tiles is conquered."""
    roads = []
    for r in range(1, 8):
        a, g = list(allies.get(r, "")), list(germans.get(r, ""))
        full = {"allies": sum(LENGTH[u] for u in a) == 16, "germans": sum(LENGTH[u] for u in g) == 16}
        roads.append({"road": r, "allies": a, "germans": g,
                      "conquered": next((side for side, f in full.items() if f), None)})
    return game.state_from_dict({"to_move": to_move, "ap": ap, "roads": roads,
                                 "objectives": {"allies": objectives[0], "germans": objectives[1]}})


# Allies hold roads 1 and 2; road 3 lacks one tile and they have a mine: M3 wins at once.
WIN_IN_ONE = ({1: "TTTTTM", 2: "GPPPPCM", 3: "PPCSMTT"}, {7: "T"})
# Road 3 lacks two tiles and only mines are left in stock: M3 then M3 (one turn, two actions).
WIN_IN_TWO = ({1: "TTTTTM", 2: "GPPPPCM", 3: "PPCSTT"}, {7: "T"})
# Germans hold roads 6 and 7 and need one tile on road 5 (they keep a mine in stock).
# Allies have 1 AP: only a mine or the spy on road 5 stops the German mine next turn.
MUST_BLOCK = ({1: "T"}, {6: "TTTTTM", 7: "GPPPPCM", 5: "PPCSMTT"})


def notation(state, result):
    return state.action_to_string(result["best"])


def test_node_fits_in_64_bytes():
    assert _search.NODE_SIZE <= 64


@pytest.mark.parametrize("ismcts", [False, True])
def test_finds_the_winning_move(game, ismcts):
    s = position(game, *WIN_IN_ONE)
    r = _search.MCTS(game.capsule, seed=1, ismcts=ismcts).search(s.raw(), simulations=2000)
    assert notation(s, r) == "M3"
    assert r["pv_notation"][0] == "M3"
    assert r["wp"] > 0.9


@pytest.mark.parametrize("ismcts", [False, True])
def test_blocks_the_opponents_winning_threat(game, ismcts):
    s = position(game, *MUST_BLOCK, ap=1)
    r = _search.MCTS(game.capsule, seed=2, ismcts=ismcts, rollout_depth=20).search(s.raw(), simulations=3000)
    assert notation(s, r) in ("M5", "Y5")


def test_solver_proves_a_win_in_one(game):
    s = position(game, *WIN_IN_ONE)
    r = _search.MCTS(game.capsule, seed=0, ismcts=False).search(s.raw(), simulations=100000)
    assert r["proven"] == 1 and r["value"] == 1.0
    assert r["simulations"] < 100000  # a proven root ends the search early
    assert dict(zip(r["actions"], r["proven_values"]))[r["best"]] == 1


def test_solver_proves_a_multi_action_win_and_it_is_real(game):
    s = position(game, *WIN_IN_TWO)
    mcts = _search.MCTS(game.capsule, seed=0, ismcts=False)
    r = mcts.search(s.raw(), simulations=50000)
    assert r["proven"] == 1
    # Follow the proof: the Allies keep moving (the same player twice) and win this turn.
    while not s.is_terminal():
        assert s.current_player() == 0
        r = mcts.search(s.raw(), simulations=50000)
        assert r["proven"] == 1
        s.apply_action(r["best"])
    assert s.returns() == [1.0, -1.0]


def test_solver_is_off_in_ismcts(game):
    m = _search.MCTS(game.capsule, ismcts=True, solver=True)
    assert m.ismcts and not m.solver
    assert _search.MCTS(game.capsule).ismcts  # chosen automatically: ardennes hides objective cards


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("ismcts", [False, True])
def test_same_seed_same_search(game, threads, ismcts):
    s = game.new_initial_state(seed=5)
    while s.is_chance_node():
        s.apply_random_chance()
    runs = [_search.MCTS(game.capsule, seed=9, threads=threads, ismcts=ismcts, rollout_depth=30)
            .search(s.raw(), simulations=600) for _ in range(2)]
    for key in ("best", "actions", "visits", "values", "pv", "nodes"):
        assert runs[0][key] == runs[1][key]
    assert sum(runs[0]["visits"]) == 600
    assert runs[0]["threads"] == threads


def test_tree_reuse_keeps_the_subtree(game):
    s = position(game, *MUST_BLOCK)
    mcts = _search.MCTS(game.capsule, seed=3, ismcts=False, rollout_depth=20)
    first = mcts.search(s.raw(), simulations=3000)
    move = first["best"]
    kept = dict(zip(first["actions"], first["visits"]))[move]
    s.apply_action(move)
    again = mcts.search(s.raw(), simulations=100, played=[move])
    assert again["reused"]
    assert sum(again["visits"]) >= kept - 1 + 100 - 1  # the old child's visits, now the root's
    # played=[] continues the same tree; played=None starts afresh.
    more = mcts.search(s.raw(), simulations=100, played=[])
    assert more["reused"] and sum(more["visits"]) == sum(again["visits"]) + 100
    fresh = mcts.search(s.raw(), simulations=100)
    assert not fresh["reused"] and sum(fresh["visits"]) == 100


def test_tree_reuse_rejects_a_wrong_path(game):
    s = position(game, *MUST_BLOCK)
    mcts = _search.MCTS(game.capsule, seed=3, ismcts=False, rollout_depth=20)
    mcts.search(s.raw(), simulations=200)
    other = position(game, *MUST_BLOCK, ap=1)
    r = mcts.search(other.raw(), simulations=50, played=[s.legal_actions()[0]])
    assert not r["reused"] and sum(r["visits"]) == 50


def test_ismcts_reuse_through_a_hidden_draw(game):
    # From the very start: the opponent's objective draw is '?' in the searcher's view.
    s = game.new_initial_state(seed=11)
    while s.is_chance_node():
        s.apply_random_chance()
    me = s.current_player()
    mcts = _search.MCTS(game.capsule, seed=1, rollout_depth=20)
    r = mcts.search(s.view(me).raw(), simulations=300)
    before = s.view(me).history()
    s.apply_action(r["best"])
    after = s.view(me).history()
    again = mcts.search(s.view(me).raw(), simulations=50, played=after[len(before):])
    assert again["reused"]


def test_hidden_information_is_never_read(game):
    """Two full states that differ only in the Germans' objective card look the
    same to the Allies: the search must not tell them apart."""
    a = position(game, *MUST_BLOCK, objectives=(4, 8))
    b = position(game, *MUST_BLOCK, objectives=(4, 2))
    assert a.raw() != b.raw() and a.view(0).raw() == b.view(0).raw()
    results = []
    for s in (a, b, a.view(0)):
        r = _search.MCTS(game.capsule, seed=4, rollout_depth=20).search(s.raw(), simulations=800)
        results.append((r["best"], r["visits"], r["values"]))
    assert results[0] == results[1] == results[2]


def test_memory_cap_stops_growth_but_not_the_search(game):
    s = game.new_initial_state(seed=2)
    while s.is_chance_node():
        s.apply_random_chance()
    mcts = _search.MCTS(game.capsule, seed=0, max_memory_mb=1, rollout_depth=10)
    r = mcts.search(s.raw(), simulations=3000)
    assert r["memory_full"]
    assert r["simulations"] == 3000 and sum(r["visits"]) == 3000
    assert r["nodes"] * _search.NODE_SIZE <= 3 * 2**20  # one pool chunk of slack at most


def test_time_limit_and_stop(game):
    s = game.new_initial_state(seed=2)
    while s.is_chance_node():
        s.apply_random_chance()
    mcts = _search.MCTS(game.capsule, seed=0)
    r = mcts.search(s.raw(), time_limit=0.05)
    assert r["simulations"] >= 1 and r["time"] < 5
    out = {}
    worker = threading.Thread(target=lambda: out.update(mcts.search(s.raw(), time_limit=60)))
    worker.start()
    deadline = time.time() + 10
    while not mcts.progress()["running"] and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)
    live = mcts.progress()
    assert live["running"] and live["simulations"] > 0
    mcts.stop()
    worker.join(10)
    assert not worker.is_alive() and out["time"] < 30


def test_result_fields(game):
    s = position(game, *MUST_BLOCK)
    r = _search.MCTS(game.capsule, seed=0, rollout_depth=5).search(s.raw(), simulations=500)
    for key in ("best", "best_notation", "actions", "visits", "values", "proven_values", "pv",
                "pv_notation", "value", "wp", "proven", "nodes", "memory_bytes", "simulations",
                "time", "nps", "rollout_plies", "mean_rollout_length", "reused"):
        assert key in r
    assert sorted(r["actions"]) == sorted(s.legal_actions())
    assert len(r["pv"]) == len(r["pv_notation"]) >= 1
    assert 0.0 <= r["wp"] <= 1.0 and r["mean_rollout_length"] <= 5


def test_bad_input_is_refused(game):
    s = game.new_initial_state(seed=0)
    mcts = _search.MCTS(game.capsule)
    with pytest.raises(ValueError, match="chance node"):
        mcts.search(s.raw(), simulations=10)
    while s.is_chance_node():
        s.apply_random_chance()
    with pytest.raises(ValueError, match="simulations and/or time_limit"):
        mcts.search(s.raw())
    with pytest.raises(ValueError, match="bytes"):
        mcts.search(b"xx", simulations=10)
    with pytest.raises(ValueError, match="capsule"):
        _search.MCTS(object())
    with pytest.raises(ValueError, match="threads"):
        _search.MCTS(game.capsule, threads=0)


# --- Undaunted: the opponent's secret initiative bid is a hidden decision ---

@pytest.fixture(scope="module")
def undaunted():
    return ardsearch.load_game("undaunted")


def random_game_until(game, seed, wanted):
    """Plays random moves from a seeded start until wanted(state) holds."""
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_random_chance()
        elif wanted(s):
            return s
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    raise AssertionError(f"seed {seed}: the random game ended before the wanted position")


def phase(state):
    return state.to_dict()["phase"]


def before_the_opponents_secret_bid(s):
    """Player 1 plays the last turn of a round; player 0 holds the initiative
    and so bids first (unseen by player 1) in the next round."""
    d = s.to_dict()
    return d["phase"] == "turn" and s.current_player() == 1 and d["initiative"] == 0 and d["round"] >= 2


def test_own_bid_ignores_the_opponents_secret_bid(undaunted):
    s = random_game_until(undaunted, 3, lambda s: phase(s) == "bid1" and len(s.legal_actions()) >= 2)
    me = 1 - s.current_player()
    a, b = s.clone(), s.clone()
    a.apply_action(s.legal_actions()[0])
    b.apply_action(s.legal_actions()[1])
    assert a.current_player() == me and phase(a) == "bid2"
    assert a.raw() != b.raw() and a.view(me).raw() == b.view(me).raw()
    results = []
    for state in (a, b, a.view(me)):
        r = _search.MCTS(undaunted.capsule, seed=4, rollout_depth=10).search(state.raw(), simulations=1500)
        results.append((r["best"], r["visits"], r["values"]))
    assert results[0] == results[1] == results[2]


def walk(mcts, view, path=(), depth=12):
    """(path, view state, edges) for every node of thread 0's tree down to `depth`."""
    edges = mcts.edges(list(path))
    yield list(path), view, edges
    if depth == 0 or view.is_terminal():
        return
    for e in edges:
        if not e["shadow"] and e["children"]:
            child = view.clone()
            child.apply_action(e["action"])
            yield from walk(mcts, child, (*path, e["action"]), depth - 1)


def test_the_tree_has_one_edge_for_the_opponents_secret_bid(undaunted):
    s = random_game_until(undaunted, 3, before_the_opponents_secret_bid)
    mcts = _search.MCTS(undaunted.capsule, seed=1, rollout_depth=10)
    mcts.search(s.view(1).raw(), simulations=6000)
    secret_bids = 0
    for path, view, edges in walk(mcts, s.view(1)):
        for e in edges:
            assert not e["shadow"] or e["children"] == 0  # statistics only, never a subtree
        if view.current_player() == 0 and phase(view) == "bid1" and edges:
            secret_bids += 1
            tree = [e for e in edges if not e["shadow"]]
            assert [e["action"] for e in tree] == [ardsearch.HIDDEN]
            shadows = [e for e in edges if e["shadow"]]
            assert shadows and all(e["chooser"] == 0 for e in shadows)
            assert sum(e["visits"] for e in shadows) == tree[0]["visits"]
        else:
            assert all(not e["shadow"] for e in edges)
    assert secret_bids > 0


def test_tree_reuse_through_the_opponents_secret_bid(undaunted):
    # Our last move of the round is "end": the tree is narrow enough to reach our next bid.
    s = random_game_until(undaunted, 3,
                          lambda s: before_the_opponents_secret_bid(s) and len(s.legal_actions()) == 1)
    mcts = _search.MCTS(undaunted.capsule, seed=1, rollout_depth=10)
    mcts.search(s.view(1).raw(), simulations=20000)
    before = s.view(1).history()
    path = []
    while not (s.current_player() == 1 and phase(s) == "bid2"):  # follow the tree to our next bid
        edges = [e for e in mcts.edges(path) if not e["shadow"]]
        assert edges, f"the tree ends before our bid (path {path})"
        e = max(edges, key=lambda e: e["visits"])
        if e["action"] != ardsearch.HIDDEN:
            s.apply_action(e["action"])
        elif s.is_chance_node():
            s.apply_random_chance()
        else:
            s.apply_action(s.legal_actions()[-1])  # the opponent's secret bid, any of them
        path.append(e["action"])
    played = s.view(1).history()[len(before):]
    assert played == path and ardsearch.HIDDEN in played
    r = mcts.search(s.view(1).raw(), simulations=200, played=played)
    assert r["reused"] and sum(r["visits"]) > 200


@pytest.mark.parametrize("ismcts", [False, True])
def test_normalized_ucb_keeps_the_tactics(game, ismcts):
    s = position(game, *WIN_IN_ONE)
    r = _search.MCTS(game.capsule, seed=1, ismcts=ismcts, normalize=True).search(s.raw(), simulations=2000)
    assert notation(s, r) == "M3"
    s = position(game, *MUST_BLOCK, ap=1)
    r = _search.MCTS(game.capsule, seed=2, ismcts=ismcts, rollout_depth=20, normalize=True,
                     exploration=0.5).search(s.raw(), simulations=3000)
    assert notation(s, r) in ("M5", "Y5")


@pytest.mark.parametrize("ismcts", [False, True])
def test_implicit_minimax_keeps_the_tactics(game, ismcts):
    s = position(game, *MUST_BLOCK, ap=1)
    r = _search.MCTS(game.capsule, seed=2, ismcts=ismcts, rollout_depth=0, exploration=0.5,
                     minimax_weight=0.5).search(s.raw(), simulations=3000)
    assert notation(s, r) in ("M5", "Y5")
    with pytest.raises(ValueError, match="minimax_weight"):
        _search.MCTS(game.capsule, minimax_weight=1.5)


@pytest.mark.parametrize("ismcts", [False, True])
def test_child_evaluation_at_expansion(game, ismcts):
    """eval_children scores every new child with evaluate() at once: the
    tactics survive, unvisited children carry their score, and the search
    differs from the plain one (move ordering, not a no-op)."""
    s = position(game, *MUST_BLOCK, ap=1)
    args = dict(seed=2, ismcts=ismcts, rollout_depth=0, exploration=0.5, minimax_weight=0.5)
    mcts = _search.MCTS(game.capsule, eval_children=True, **args)
    r = mcts.search(s.raw(), simulations=3000)
    assert notation(s, r) in ("M5", "Y5")
    s = position(game, *WIN_IN_ONE)
    mcts = _search.MCTS(game.capsule, eval_children=True, **args)
    r = mcts.search(s.raw(), simulations=50)
    assert notation(s, r) == "M3"
    edges = mcts.edges([])
    assert len(edges) == len(s.legal_actions())
    win = next(e for e in edges if s.action_to_string(e["action"]) == "M3")
    assert win["eval"] == 1.0  # the terminal child is scored by its result before any visit
    plain = _search.MCTS(game.capsule, **args).search(s.raw(), simulations=50)
    assert plain["visits"] != r["visits"]


@pytest.mark.parametrize("ismcts", [False, True])
def test_final_lcb_picks_the_secure_child(game, ismcts):
    """final_lcb=k plays the root move with the highest mean - k / sqrt(visits)."""
    s = position(game, *MUST_BLOCK, ap=2)
    for k in (0.0, 0.5, 2.0):
        r = _search.MCTS(game.capsule, seed=3, ismcts=ismcts, rollout_depth=0, exploration=1.4,
                         final_lcb=k).search(s.raw(), simulations=2000)
        stats = list(zip(r["actions"], r["visits"], r["values"]))
        if k == 0.0:
            expected = max(stats, key=lambda a: a[1])[0]
        else:
            expected = max(stats, key=lambda a: a[2] - k / a[1] ** 0.5 if a[1] else -1e300)[0]
        assert r["best"] == expected
    with pytest.raises(ValueError, match="final_lcb"):
        _search.MCTS(game.capsule, final_lcb=-1.0)


def test_rollout_policy_plays_the_evaluation_best_reply(game):
    """rollout_sample=k: each rollout decision plays the best by evaluate() of
    k sampled legal moves (-1: all of them), a decided game above any
    evaluation. Germans to move with 1 AP while the Allies threaten M3 (WIN_IN_ONE):
    only M3 and Y3 (the spy) stop it. One simulation a root move (plain MCTS
    tries every unvisited child first), so each root value is one rollout:
    with the greedy rollout every other move scores exactly -1 (the Allies
    reply M3 and win), with random rollouts most do not."""
    s = position(game, *WIN_IN_ONE, ap=1, to_move="germans")
    moves = s.legal_actions()
    blocks = {"M3", "Y3"}

    def root_values(**kw):
        r = _search.MCTS(game.capsule, seed=2, ismcts=False, solver=False, rollout_depth=4,
                         **kw).search(s.raw(), simulations=len(moves))
        assert r["visits"] == [1] * len(moves)
        return {s.action_to_string(a): v for a, v in zip(r["actions"], r["values"])}

    greedy = root_values(rollout_sample=-1)
    assert {m for m, v in greedy.items() if v > -1.0} == blocks
    random_ = root_values()
    assert root_values(rollout_sample=0, rollout_epsilon=0.5) == random_  # k = 0: the random policy, exactly
    assert sum(v > -1.0 for m, v in random_.items() if m not in blocks) > len(moves) // 2
    always_random = root_values(rollout_sample=-1, rollout_epsilon=1.0)
    assert sum(v > -1.0 for m, v in always_random.items() if m not in blocks) > len(moves) // 2
    sampled = root_values(rollout_sample=3)
    assert sampled == root_values(rollout_sample=3)  # reproducible for a seed
    assert sum(v == -1.0 for v in sampled.values()) > sum(v == -1.0 for v in random_.values())
    with pytest.raises(ValueError, match="rollout_sample"):
        _search.MCTS(game.capsule, rollout_sample=-2)
    with pytest.raises(ValueError, match="rollout_epsilon"):
        _search.MCTS(game.capsule, rollout_epsilon=1.5)


def test_bots_take_the_rollout_policy(game):
    """MCTSBot and ISMCTSBot pass rollout_sample / rollout_epsilon to the
    search; a bare bot takes them from its preset (0: random rollouts)."""
    assert ardsearch.MCTSBot(game).shape["rollout_sample"] == 0
    bot = ardsearch.MCTSBot(game, rollout_sample=8, rollout_epsilon=0.1, simulations=50)
    assert (bot.shape["rollout_sample"], bot.shape["rollout_epsilon"]) == (8, 0.1)
    assert ardsearch.ISMCTSBot(game, rollout_sample=-1, simulations=50).shape["rollout_sample"] == -1
    with pytest.raises(ValueError, match="rollout_sample"):
        ardsearch.MCTSBot(game, rollout_sample=-3)
    with pytest.raises(ValueError, match="rollout_epsilon"):
        ardsearch.MCTSBot(game, rollout_epsilon=2)


# ---------------------------------------------------------------- root_actions (go searchactions)

@pytest.mark.parametrize("ismcts", [False, True])
def test_root_actions_restrict_the_search(game, ismcts):
    """The winning M3 is left out: only the allowed actions are searched at
    the root, and the answer and its pv start with one of them."""
    s = position(game, *WIN_IN_ONE)
    allowed = [s.string_to_action(m) for m in ("f1", "pass")]
    r = _search.MCTS(game.capsule, seed=1, ismcts=ismcts).search(s.raw(), simulations=500, root_actions=allowed)
    assert r["best"] in allowed and r["pv"][0] in allowed
    assert sorted(r["actions"]) == sorted(allowed)
    assert sum(r["visits"]) == r["simulations"]  # every simulation went through an allowed action


def test_root_actions_on_a_view_apply_in_every_determinization(game):
    view = position(game, *MUST_BLOCK, ap=1).view(0)
    allowed = view.legal_actions()[-1:]
    r = _search.MCTS(game.capsule, seed=2, ismcts=True, rollout_depth=20).search(
        view.raw(), simulations=300, root_actions=allowed)
    assert r["actions"] == allowed and r["best"] == allowed[0] and r["visits"] == [300]


def test_root_actions_start_a_fresh_tree_and_leave_none_behind(game):
    s = position(game, *WIN_IN_ONE)
    win = s.string_to_action("M3")
    others = [a for a in s.legal_actions() if a != win]
    mcts = _search.MCTS(game.capsule, seed=3, ismcts=False)
    mcts.search(s.raw(), simulations=300)
    restricted = mcts.search(s.raw(), simulations=200, played=[], root_actions=others)
    assert not restricted["reused"] and win not in restricted["actions"]
    # The restricted root lacks M3: continuing it (played=[]) would never find the win.
    after = mcts.search(s.raw(), simulations=2000, played=[])
    assert not after["reused"] and after["best"] == win


def test_bad_root_actions_are_refused(game):
    s = position(game, *WIN_IN_ONE)
    mcts = _search.MCTS(game.capsule, seed=0, ismcts=False)
    illegal = next(a for a in range(game.num_actions) if a not in s.legal_actions())
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        mcts.search(s.raw(), simulations=10, root_actions=[s.legal_actions()[0], illegal])
    with pytest.raises(ValueError, match="empty"):
        mcts.search(s.raw(), simulations=10, root_actions=[])
    r = mcts.search(s.raw(), simulations=50, root_actions=[s.legal_actions()[0]] * 3)  # duplicates: one action
    assert r["actions"] == [s.legal_actions()[0]]
