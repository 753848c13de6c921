"""bench/logged.sh: the .cmd / .load / .out beside every run that
bench/README.md cites ("Figures go in bench/README.md with their command,
time and machine load", issue 15), written once for every results script."""
import pathlib
import subprocess


SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "bench" / "logged.sh"


def test_it_keeps_the_command_the_load_and_the_output(tmp_path):
    prefix = tmp_path / "run"
    done = subprocess.run([str(SCRIPT), str(prefix), "sh", "-c", "echo out; echo err >&2; exit 3"])
    assert done.returncode == 3
    assert (tmp_path / "run.cmd").read_text() == "sh -c echo out; echo err >&2; exit 3\n"
    assert (tmp_path / "run.out").read_text() == "out\nerr\n"
    load = (tmp_path / "run.load").read_text().splitlines()
    assert len(load) == 4                       # start time, loadavg, end time, loadavg
    assert all(len(line.split(":")) == 3 for line in load[0::2])


def test_without_a_command_it_says_how_to_call_it(tmp_path):
    done = subprocess.run([str(SCRIPT), str(tmp_path / "x")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "usage: bench/logged.sh PREFIX COMMAND..." in done.stderr
    assert not list(tmp_path.iterdir())
