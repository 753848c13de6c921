"""tools/sanitize.py's scheduling helpers (the sanitized build itself is CI's
`python tools/sanitize.py --quick`, docs/sanitizers.md): groups run side by
side, so each group's exit code and CPU time must be its own process's."""
from __future__ import annotations

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_tool():
    path = os.path.join(HERE, "..", "tools", "sanitize.py")
    spec = importlib.util.spec_from_file_location("sanitize_tool", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_run_timed_returns_the_exit_code_and_the_child_cpu(tmp_path):
    """docs/sanitizers.md: "Each group's CPU time is its own processes'"."""
    tool = load_tool()
    busy = "import sys, time\nt = time.process_time()\nwhile time.process_time() - t < 0.2: pass\nsys.exit(3)"
    with open(tmp_path / "log", "w") as fh:
        rc, cpu = tool.run_timed([sys.executable, "-c", busy], cwd=str(tmp_path), env=dict(os.environ), stdout=fh)
    assert rc == 3
    assert cpu >= 0.2


def test_quick_groups_start_longest_first():
    """docs/sanitizers.md: "two groups side by side ..., the longest first"."""
    tool = load_tool()
    names = [g[0] for g in tool.QUICK]
    assert set(names) <= set(tool.TYPICAL_SECONDS)
    order = sorted(names, key=lambda n: -tool.TYPICAL_SECONDS[n])
    assert order[:2] == ["games", "conformance"]
