"""bench/queue.sh: one worker of a run queue, so that a session's long runs
go one a core from a queue.txt written beside their PLAN.md, each job kept
by bench/logged.sh and none started after the plan's deadline."""
import os
import pathlib
import subprocess
import threading


SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "bench" / "queue.sh"


def run(*args):
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=60)


def test_it_runs_each_line_through_logged_sh_until_stop(tmp_path):
    (tmp_path / "queue.txt").write_text('a echo "f(x=1)" two\n'
                                        'b sh -c "exit 3"\n'
                                        'stop\n'
                                        'c echo never\n')
    assert run(tmp_path).returncode == 0
    assert (tmp_path / "a.out").read_text() == "f(x=1) two\n"     # quoted words stay one argument
    assert (tmp_path / "a.cmd").read_text() == "echo f(x=1) two\n"
    assert len((tmp_path / "a.load").read_text().splitlines()) == 4
    log = (tmp_path / "workers.log").read_text()
    assert "ends a (status 0)" in log and "ends b (status 3)" in log   # a failed job does not stop the queue
    assert not (tmp_path / "c.cmd").exists()
    assert (tmp_path / "queue.txt").read_text() == "stop\nc echo never\n"


def test_two_workers_share_the_queue_and_run_each_job_once(tmp_path):
    jobs = [f"j{i} sh -c 'sleep 0.05; echo {i}'" for i in range(12)]
    (tmp_path / "queue.txt").write_text("\n".join(jobs) + "\n")
    workers = [threading.Thread(target=run, args=(tmp_path,)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for i in range(12):
        assert (tmp_path / f"j{i}.out").read_text() == f"{i}\n"
    starts = [line for line in (tmp_path / "workers.log").read_text().splitlines() if " starts " in line]
    assert sorted(line.split()[-1] for line in starts) == sorted(f"j{i}" for i in range(12))
    assert (tmp_path / "queue.txt").read_text() == ""


NOON = 20_000 * 86400 + 12 * 3600      # a day's 12:00 UTC, in seconds since the epoch


def run_at(now, *args):
    env = {**os.environ, "QUEUE_NOW": str(now)}
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, timeout=60, env=env)


def test_a_passed_deadline_starts_nothing(tmp_path):
    (tmp_path / "queue.txt").write_text("a echo late\n")
    assert run_at(NOON, tmp_path, "1159").returncode == 0     # a minute ago
    assert run_at(NOON, tmp_path, "0100").returncode == 0     # eleven hours ago
    assert not (tmp_path / "a.cmd").exists()
    assert (tmp_path / "queue.txt").read_text() == "a echo late\n"


def test_a_deadline_after_midnight_is_the_coming_one(tmp_path):
    """Session 38 gave 0005 at 23:01 and the worker started nothing: HHMM is
    its nearest occurrence, here five past the coming midnight."""
    (tmp_path / "queue.txt").write_text("a echo night\n")
    assert run_at(NOON + 11 * 3600, tmp_path, "0005").returncode == 0
    assert (tmp_path / "a.out").read_text() == "night\n"


def test_bad_calls_say_how_to_call_it(tmp_path):
    done = run(tmp_path / "missing")
    assert done.returncode == 2 and "usage: bench/queue.sh DIR [HHMM]" in done.stderr
    done = run(tmp_path, "17h")
    assert done.returncode == 2 and "'17h' is not HHMM" in done.stderr
    done = run(tmp_path, "2500")
    assert done.returncode == 2 and "'2500' is not HHMM" in done.stderr


def test_a_line_that_is_not_shell_words_is_reported_and_skipped(tmp_path):
    """An unquoted '(' made eval fail, and the worker then ran its own
    arguments (the queue's directory) as the command: 'nice: DIR: Permission
    denied', status 126. The line is now reported and the queue goes on."""
    (tmp_path / "queue.txt").write_text("a echo game(scenario=x) --seed 3\n"
                                        "b echo fine\n")
    assert run(tmp_path).returncode == 0
    log = (tmp_path / "workers.log").read_text()
    assert "ends a (status 2: the line is not shell words" in log
    assert "syntax error" in (tmp_path / "a.out").read_text()
    assert not (tmp_path / "a.cmd").exists()
    assert (tmp_path / "b.out").read_text() == "fine\n"
