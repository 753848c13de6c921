"""bench.openspiel_compare: a strength match can be split over runs (--first-pair)."""
import io
import json

import pytest

import ardsearch
from ardsearch.benchmark import Figures

pyspiel = pytest.importorskip("pyspiel")
from bench import openspiel_compare  # noqa: E402


def test_strength_match_starts_at_the_given_pair():
    out, log = io.StringIO(), io.StringIO()
    openspiel_compare.bench_strength(Figures(out), pyspiel, ardsearch.load_game("ardennes"), pairs=1,
                                     movetime=0.005, log=log, first_pair=5)
    assert "pair 6/6" in log.getvalue()
    figure = json.loads(out.getvalue().splitlines()[-1])
    assert figure["first_pair"] == 5 and figure["pairs"] == 1
    assert sum(figure["penta"]) == 1 and figure["wins"] + figure["draws"] + figure["losses"] == 2


def test_negative_first_pair_is_a_clear_error(capsys):
    with pytest.raises(SystemExit):
        openspiel_compare.main(["ardennes", "--only", "strength", "--first-pair", "-1"])
    assert "--first-pair must be 0 or more" in capsys.readouterr().err
