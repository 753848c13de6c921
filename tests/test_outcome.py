"""state.outcome(): how a finished game ended, for every way each game can end.

One hand-built position per end condition of each game's RULES.md ("How the
game ends"), played to its end through the public API; the positions come from
each game's rules tests. Then many seeded random games: every terminal state
has an outcome whose winner agrees with returns(), and no state in play has one.
"""
from __future__ import annotations

import copy
import dataclasses
import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games import GAMES, spec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_ardennes_rules as ard  # noqa: E402
import test_microarmour_rules as ma  # noqa: E402
import test_mortain_rules as mor  # noqa: E402
import test_stosstruppen_rules as sto  # noqa: E402
import test_undaunted_rules as und  # noqa: E402


def check(state, winner, reason, *facts):
    """The outcome at a terminal state: winner, reason, and the facts in its sentence."""
    assert state.is_terminal()
    o = state.outcome()
    assert isinstance(o, ardsearch.Outcome)
    assert (o.winner, o.reason) == (winner, reason), o
    names = state.game.player_names
    assert o.winner_name == ("draw" if winner is None else names[winner])
    assert reason in state.game.spec.outcome_reasons
    for fact in facts:
        assert fact in o.sentence, (fact, o.sentence)
    assert str(o) == o.sentence
    r = state.returns()
    assert r == ([0.0, 0.0] if winner is None else [1.0, -1.0] if winner == 0 else [-1.0, 1.0])
    return o


def test_outcome_is_a_frozen_dataclass_and_none_in_play():
    """python-chess's Board.outcome(): None while the game is on."""
    for name in GAMES:
        s = ardsearch.load_game(name).new_initial_state(seed=1)
        assert s.outcome() is None
    o = ardsearch.Outcome(0, "allies", "objective", "text")
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.winner = 1


# ---------------------------------------------------------------- ardennes


def _ard(d, *moves):
    # the position's own road length, variant and round limit are the game's parameters
    game = ardsearch.load_game("ardennes", variant=d["variant"], road_length=d["road_length"],
                               max_rounds=d["max_rounds"])
    s = game.state_from_dict(d)
    for m in moves:
        s.apply(m)
    return s


def test_ardennes_objective():
    """RULES.md, Conquest and the end: "A player wins at once when they hold both
    roads of their Objective card" (rulebook, Objective)."""
    d = ard.position({1: ("TTTTP", ""), 7: ("TTTCC", "")}, L=14, objectives=(1, 2))
    s = _ard(d, "M7")
    check(s, 0, "objective", "Allies", "objective card 1", "roads 1 and 7")
    # in the loser's view the winner's card is hidden; only card 1 fits roads 1 and 7
    check(s.view(1), 0, "objective", "roads 1 and 7")
    # the winner's own view sees its card
    check(s.view(0), 0, "objective", "objective card 1")


def test_ardennes_three_roads():
    """RULES.md: "... or when they are first to conquer any three roads" (Objective)."""
    d = ard.position({2: ("TTTTP", ""), 3: ("PPPPPCC", ""), 5: ("TTTSMM", "")}, L=14, objectives=(1, 2))
    s = _ard(d, "M5")
    check(s, 0, "three-roads", "three roads", "2, 3 and 5")
    check(s.view(1), 0, "three-roads")
    # the third road also completes the objective (card 1: roads 1 and 7): the
    # public reason, three roads (design choice, RULES.md How the game ends)
    d = ard.position({1: ("TTTTP", ""), 2: ("PPPPPCC", ""), 7: ("TTSG", "")}, L=14, objectives=(1, 2))
    s = _ard(d, "M7")
    check(s, 0, "three-roads", "roads 1, 2 and 7")
    check(s.view(1), 0, "three-roads")


def test_ardennes_turn_limit_win_and_draw():
    """RULES.md: "Design choice: after max_rounds rounds ... the game ends; more
    conquered roads wins, else a draw"."""
    d = ard.position({1: ("TTTTP", "")}, L=14, objectives=(3, 2), to_move="germans",
                     round=5, max_rounds=5)
    d["first"] = "allies"
    s = _ard(d, "pass")
    check(s, 0, "turn-limit", "round 5", "1 to 0")
    # the Germans' view: the Allied card is hidden and 3 (roads 3, 5) cannot be the reason
    check(s.view(1), 0, "turn-limit")
    d = ard.position({}, L=14, objectives=(3, 2), to_move="germans", round=5, max_rounds=5)
    d["first"] = "allies"
    check(_ard(d, "pass"), None, "turn-limit", "draw")


def test_ardennes_hidden_card_view_last_round():
    """Design choice (RULES.md, How the game ends): in the loser's view the
    winner's card is hidden; where both an objective win and the round limit fit
    the last round, a last `pass` reads as the round limit, a last placement as
    the objective."""
    # Allies hold roads 1 and 7 (card 1 would fit) but their card is 3: the
    # game ends at the round limit after a German pass.
    d = ard.position({1: ("TTTTP", ""), 7: ("PPPPPCC", "")}, L=14, objectives=(3, 2),
                     to_move="germans", round=2, max_rounds=2)
    d["first"] = "allies"
    s = _ard(d, "pass")
    check(s, 0, "turn-limit", "2 to 0")
    check(s.view(1), 0, "turn-limit")
    # Allies (card 1) complete road 7 in the last round: an objective win
    d = ard.position({1: ("TTTTP", ""), 7: ("TTTCC", "")}, L=14, objectives=(1, 2),
                     to_move="germans", round=2, max_rounds=2)
    d["first"] = "allies"
    d["to_move"] = "allies"
    d["first"] = "germans"
    s = _ard(d, "M7")
    check(s, 0, "objective", "objective card 1")
    check(s.view(1), 0, "objective", "roads 1 and 7")


# ---------------------------------------------------------------- mortain
MOR = ardsearch.load_game("mortain")


def _mor(raw, *moves):
    s = MOR.state_from_raw(raw)
    for m in moves:
        s.apply(m)
    return s


def test_mortain_exit():
    """RULES.md, Winning: "The German player wins at the end of any turn in which
    five German units have exited (E Who Wins)"."""
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1")}
    raw = mor.acting({**exited, "panther": "0105", "2-120": "0809"}, "Ab", activated=["german", "us"])
    s = _mor(raw, "panther-exit", "joker")
    check(s, 0, "exit", "5 German units exited", "turn 1")


def test_mortain_elimination():
    """RULES.md: "... or at once when no US units are left in the game (R)"."""
    raw = mor.acting({"panther": "0503", "2-120": {"at": "0505", "reduced": True}, "cca": "eliminated",
                      "ccb": "eliminated", "ccr": "eliminated"}, "Ab", deck={"Ab": 1, "Kb": 1})
    s = _mor(raw, "pantherx2-120", "Ab")
    check(s, 0, "elimination", "No US unit")


def test_mortain_turn_limit():
    """RULES.md: "Otherwise the US player wins at the end of Turn 6 (R)"."""
    raw = mor.position({"panther": "1005", "2-120": "0203"}, turn=6, activated=["german", "us"])
    s = _mor(raw, "joker")
    check(s, 1, "turn-limit", "end of turn 6", "only 0 German units exited")


def test_mortain_germans_spent():
    """RULES.md: "Design choice: when no German unit is left to act (all exited or
    eliminated), the game ends at once with the result it would have at the end
    of the turn"."""
    german = mor.E.unit_ids()[:11]
    units = {u: "eliminated" for u in german}
    units.update({u: "exited" for u in ("iv2", "stug", "iv3")}, panther="0105")
    raw = mor.acting({**units, "2-120": "0809"}, "Ab", activated=["german", "us"])
    s = _mor(raw, "panther-exit")            # the last German unit leaves: 4 exited
    check(s, 1, "germans-spent", "4 exited, 7 eliminated", "can no longer exit 5")
    # with five out, the same end is a German exit win
    units["df1"] = "exited"
    raw = mor.acting({**units, "2-120": "0809"}, "Ab", activated=["german", "us"])
    check(_mor(raw, "panther-exit"), 0, "exit", "5 German units exited")


# ---------------------------------------------------------------- undaunted
def test_undaunted_objectives():
    """RULES.md, End of the game: "A capture goal is met when the army's controlled
    objective points reach its goal ... The army wins at once (objectives)"."""
    us = {"hand": {"rifA": 1}, "controlled": ["17B", "2B", "7A", "16B"], "scouted": [],
          "tokens": {"rifA": {"tile": "13B", "suppressed": False}}}
    s = und.position(us=us)
    s.apply("rifA:control")
    check(s, 0, "objectives", "US control 5 objective points", "goal of 5")


def test_undaunted_immobilized():
    """RULES.md: "an immobilize goal [is met] when the opponent has no Rifleman
    token on the board ... (immobilized)"."""
    d = und.U.load_scenario(und.U.scenario_path(3))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us["hand"] = {"rifA": 1}
    de["tokens"] = {"rifA": {"tile": "12B", "suppressed": False}}
    de["deck"] = {}
    s = und.GAME_3.state_from_dict(d)
    s.apply("rifA:attack:rifA")
    s.apply("hit:token")
    check(s, 0, "immobilized", "Germans have no Rifleman")


def test_undaunted_both_immobilized():
    """RULES.md: "Both immobilized: the game ends; most objective points wins, a
    tie goes to the Initiative holder (both_immobilized)"."""
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False},
                                             "rifA": {"tile": "11B", "suppressed": False}},
          "target": "11B", "controlled": ["17B"], "scouted": []}
    de = {"tokens": {"rifA": {"tile": "11B", "suppressed": False}}}
    s = und.position(us=copy.deepcopy(us), de=copy.deepcopy(de), initiative=1, to_move=0, turn_index=1)
    for m in ("mortar:explode", "hit:token", "hit:token"):
        s.apply(m)
    check(s, 1, "both-immobilized", "Both armies are immobilized", "3 to 0")
    de["controlled"], de["scouted"] = [], []
    s = und.position(us=us, de=de, initiative=0)
    for m in ("mortar:explode", "hit:token", "hit:token"):
        s.apply(m)
    check(s, 0, "both-immobilized", "tie", "Initiative")


def test_undaunted_irremediable():
    """RULES.md: "Irremediable: a capture-goal army ... that has no Rifleman card
    left outside the removed pile ... If ... the opponent has more points, the
    opponent wins (irremediable)"."""
    us = {"hand": {"scoutA": 1}, "supply": {"fog": 2}, "deck": {}, "controlled": ["17B"],
          "tokens": {"rifA": {"tile": "17B", "suppressed": False},
                     "scoutA": {"tile": "17B", "suppressed": False}}}
    s = und.position(us=us, de={"hand": {"rifA": 1}}, to_move=1, initiative=1)
    s.apply("rifA:attack:scoutA")
    s.apply("miss")
    check(s, 1, "irremediable", "US can no longer reach their goal")


def test_undaunted_turn_limit():
    """RULES.md: "max_rounds (default 40): after the last round the game ends on
    points, a tie to the Initiative holder (max_rounds)"."""
    g = und.load(max_rounds=1)
    d = copy.deepcopy(und.SETUP)
    d.update(phase="turn", round=1, to_move=1, initiative=0, turn_index=1, max_rounds=1)
    s = g.state_from_dict(d)
    s.apply("end")
    check(s, 1, "turn-limit", "after round 1", "Germans win on objective points")


# ---------------------------------------------------------------- stosstruppen
FULL = ["Gm", "Gf", "Ga", "Gr", "Bm", "Bf", "Ba"]


def test_stosstruppen_objectives():
    """RULES.md, Armies and winning: "at the end of the last turn the attacker wins
    with at least objectives_needed objectives held"."""
    s = sto.build({0: "a1", 1: "d8", 2: "f8", 3: "h8", 16: "a12", 17: "p12"}, phase="rally", card="Br",
                  drawn=FULL, turn=8)
    s.apply("done")
    check(s, 0, "objectives", "hold 3 objectives", "d8, f8, h8", "turn 8")


def test_stosstruppen_turn_limit():
    """RULES.md: "... else the defender wins"."""
    s = sto.build({0: "a1", 1: "d8", 2: "f8", 16: "a12", 17: "p12", 18: "o12", 19: "n12", 20: "m12"},
                  phase="rally", card="Br", drawn=FULL, turn=8)
    s.apply("done")
    check(s, 1, "turn-limit", "British held out", "2 objectives", "3 needed")


def test_stosstruppen_morale():
    """RULES.md: "the attacker wins if the defender is demoralised and the attacker
    holds at least 1 objective" (checked at the end of every turn)."""
    s = sto.build({0: "a1", 1: "d8", 16: "a12", 17: "p12", 18: "o12", 19: "n12"},
                  phase="rally", card="Br", drawn=FULL, turn=2)
    s.apply("done")
    check(s, 0, "morale", "British are demoralised", "4 of 8", "turn 2")


def test_stosstruppen_elimination():
    """RULES.md: "An attacker with no units left loses at once"."""
    s = sto.build({0: "h4", 16: "a12", 17: "h6"}, phase="fire", card="Bf", units={0: {"status": "pinned"}})
    s.apply("h6xh4")
    s.apply("hit")
    check(s, 1, "elimination", "Germans have no units left")


# ---------------------------------------------------------------- microarmour
def test_microarmour_break():
    """RULES.md, How the game ends: a broken side plays on; "the enemy must pass rising
    cohesion checks to keep fighting": when it fails one the battle is over and the side
    that broke the enemy wins (the scenario's "break the enemy")."""
    soviet = {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False, "broken": True,
              "broken_turn": 3, "total": 37, "deck": [4] * 6 + [3, 4, 4, 13]}
    st = ma.position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}}, phase="recovery",
                     turn=5, recovery_next=None, rising_checks=[1, 0],
                     command_due={"rising_check": [True, False]},
                     cards={"german": ma.BASE["cards"]["german"], "soviet": soviet})
    st.apply("c:fail")
    check(st, 0, "break", "Soviet formation broke in turn 3", "37", "36.75", "rising cohesion check in turn 5")
    # the Germans do not see the Soviet card total: the sentence leaves it out
    o = check(st.view(0), 0, "break", "36.75")
    assert "37" not in o.sentence
    # the last turn ends with the Soviet still broken: the Germans win too
    last = ma.position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [14, 9], "facing": "n"}}, phase="recovery",
                       turn=12, recovery_next=None, command_due={"rising_check": [True, False]},
                       cards={"german": ma.BASE["cards"]["german"], "soviet": soviet})
    last.apply("c:ok")
    check(last, 0, "break", "fought on to the end of turn 12")


def test_microarmour_both_broken():
    """RULES.md, How the game ends: both formations broken: the village decides at once."""
    german = {"drawn": 5, "checked": 4, "pending": 0, "break_check_due": True, "broken": False,
              "total": 50, "deck": [4] * 9 + [11]}
    soviet = {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False, "broken": True,
              "broken_turn": 2, "total": 37, "deck": [4] * 6 + [3, 4, 4, 13]}
    st = ma.fire_phase({"pz4a": {"at": [14, 9]}, "t34a": {"at": [5, 3], "facing": "n"}}, turn=4,
                       cards={"german": german, "soviet": soviet})
    st.apply("brk:yes")
    check(st, 0, "both_broken", "Both formations broke, the Soviet in turn 2, the German in turn 4",
          "hold it with 1 stand to 0")


def test_microarmour_village_win_and_draw():
    """RULES.md: "End of turn 12: the side with more live stands on the village
    squares wins; equal is a draw"."""
    st = ma.position({"pz4a": {"at": [14, 9], "suppressed": True}, "pz4b": {"at": [15, 9]},
                      "t34a": {"at": [13, 8], "facing": "w"}}, phase="recovery", turn=12, recovery_next="pz4a")
    st.apply("c:fail")
    check(st, 0, "village", "Germans hold the village with 2 stands to 1", "turn 12")
    st = ma.position({"pz4a": {"at": [14, 9], "suppressed": True},
                      "t34a": {"at": [13, 8], "facing": "w"}}, phase="recovery", turn=12, recovery_next="pz4a")
    st.apply("c:fail")
    check(st, None, "village", "1 stand in the village: a draw")


# ---------------------------------------------------------------- every game
SEEDS = {"ardennes": 60, "mortain": 60, "undaunted": 40, "stosstruppen": 40, "microarmour": 40}
# short Ardennes roads so random play also conquers (objective and three-roads ends)
PARAMS = {"ardennes": {"road_length": 8, "max_rounds": 30}, "microarmour": {"deployment": "close"}}


@pytest.mark.parametrize("name", GAMES)
def test_random_games_outcome_agrees_with_returns(name):
    """Every terminal state has an outcome; its winner is the player returns()
    scores +1 (None when both score 0); its reason is one the game lists."""
    game = ardsearch.load_game(name, **PARAMS.get(name, {}))
    seen = set()
    for seed in range(SEEDS[name]):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            assert s.outcome() is None
            if s.is_chance_node():
                s.apply_random_chance()
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        o = s.outcome()
        r = s.returns()
        want = None if r[0] == r[1] else (0 if r[0] > r[1] else 1)
        assert o.winner == want, (seed, o, r)
        assert o.winner_name == ("draw" if want is None else game.player_names[want])
        assert o.reason in spec(name).outcome_reasons and o.sentence
        winner = s.to_dict()["winner"]
        assert winner in (None, "draw", *game.player_names)
        assert o.winner_name == winner
        seen.add(o.reason)
        # a player's view reads the same winner and reason (hidden cards may
        # change only the wording)
        for p in (0, 1):
            v = s.view(p).outcome()
            assert (v.winner, v.reason) == (o.winner, o.reason), (seed, p, o, v)
    assert seen
    if name == "ardennes":
        assert seen == {"objective", "three-roads", "turn-limit"}
