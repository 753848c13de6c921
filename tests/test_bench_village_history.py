"""bench/village_history.py: reads who held each Micro Armour village square
in the meeting scenario's records (bench/README.md, Micro Armour meeting)."""
from __future__ import annotations

import ardsearch
from bench.village_history import home_sides, square_history


class _Rec:
    """A record stand-in: the positions of a game in turn."""

    def __init__(self, dicts):
        self._dicts = dicts

    def states(self):
        for d in self._dicts:
            yield type("S", (), {"to_dict": lambda self, d=d: d})()


def _stand(side, at, alive=True):
    return {"side": side, "at": at, "alive": alive}


def test_home_side_is_the_bank_each_side_enters_from():
    """The meeting scenario's start: Germans on the west edge, Soviets on the
    east edge and a river boat at (12,11) on the stream; a median keeps the
    boat from moving the Soviet home: the west squares of the village are
    German, the east ones Soviet."""
    d = ardsearch.load_game("microarmour(scenario=meeting)").new_initial_state(seed=1).to_dict()
    home = home_sides(d, [(11, 7), (11, 8), (13, 7), (13, 8)])
    assert home == {(11, 7): "G", (11, 8): "G", (13, 7): "S", (13, 8): "S"}


def test_square_history_lists_holders_in_turn():
    """A square's holders in order, '.' while empty; a change only when the
    occupant's side changes (the Soviet stand steps from (2,1) onto (1,1))."""
    table = {"rows": ["....", ".bb.", "...."]}
    start = [_stand("german", [0, 1]), _stand("soviet", [3, 1])]
    moved = [_stand("german", [1, 1]), _stand("soviet", [2, 1])]
    lost = [_stand("german", [1, 1], alive=False), _stand("soviet", [2, 1])]
    taken = [_stand("german", [1, 1], alive=False), _stand("soviet", [1, 1])]
    rec = _Rec([{"table": table, "stands": s} for s in (start, moved, moved, lost, taken)])
    hist, home = square_history(rec)
    assert hist == {(1, 1): ".G.S", (2, 1): ".S."}
    assert home == {(1, 1): "G", (2, 1): "S"}
