"""bench.transpositions: runs of one side's moves counted against the
distinct positions they reach. A toy state whose moves commute or not
gives exact counts; one real game checks the tool runs end to end."""
import pytest

from bench import transpositions


class Switches:
    """Player 0 flips any of n switches, each once; with `ordered` the order
    of the flips is part of the position (nothing transposes)."""

    def __init__(self, n, ordered=False, flipped=()):
        self.n, self.ordered, self.flipped = n, ordered, tuple(flipped)

    def legal_actions(self):
        return [i for i in range(self.n) if i not in self.flipped]

    def clone(self):
        return Switches(self.n, self.ordered, self.flipped)

    def apply_action(self, a):
        self.flipped += (a,)

    def is_terminal(self):
        return len(self.flipped) == self.n

    def is_chance_node(self):
        return False

    def current_player(self):
        return 0

    def hash(self):
        return hash(self.flipped if self.ordered else frozenset(self.flipped))


def test_commuting_moves_reach_each_position_by_every_order():
    """Four switches, two flips: 4 * 3 = 12 sequences, C(4, 2) = 6 sets."""
    r = transpositions.count([Switches(4)], depth=2, width=30)
    assert (r["positions"], r["sequences"], r["distinct"], r["ratio"]) == (1, 12, 6, 2.0)
    r = transpositions.count([Switches(5)], depth=3, width=30)
    assert (r["sequences"], r["distinct"], r["ratio"]) == (60, 10, 6.0)


def test_an_ordered_position_has_no_transpositions_and_width_caps_the_moves():
    r = transpositions.count([Switches(4, ordered=True)], depth=2, width=30)
    assert (r["sequences"], r["distinct"], r["ratio"]) == (12, 12, 1.0)
    # width 2: the first two legal moves at each step, {0, 1} then {1, 2} or {0, 2}
    r = transpositions.count([Switches(4)], depth=2, width=2)
    assert (r["sequences"], r["distinct"]) == (4, 3)


def test_a_run_stops_at_the_end_of_the_game():
    """A game that ends after one flip has no two-move run: not counted."""
    r = transpositions.count([Switches(1)], depth=2, width=30)
    assert r["positions"] == 0 and r["sequences"] == 0


def test_runs_on_a_real_game(capsys):
    transpositions.main(["mortain", "--positions", "3", "--depth", "2", "--width", "5"])
    out = capsys.readouterr().out
    assert out.startswith("mortain: ") and "orders a position" in out


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        transpositions.main(["mortain", "--depth", "0"])
