"""Loaded at start-up by every Python process of the sanitizer run
(tools/sanitize.py puts this folder on PYTHONPATH): points gcc's UBSan
runtime at the log_path of UBSAN_OPTIONS.

libubsan.so reads log_path only when it initializes as a stand-alone runtime,
from the .preinit_array of an executable linked with it. Loaded with an
extension module, it never does, and every report would go to stderr, which
pytest captures and the protocol tests' engine processes send to /dev/null: a
process that halts on a report would take it along. Setting the path here
sends the reports to <log_path>.<pid> files instead, as ASan's are."""
import ctypes
import os


def _ubsan_log_path():
    for item in os.environ.get("UBSAN_OPTIONS", "").split(":"):
        key, _, value = item.partition("=")
        if key == "log_path" and value:
            return value
    return None


_path = _ubsan_log_path()
if _path:
    try:
        ctypes.CDLL("libubsan.so.1").__sanitizer_set_report_path(_path.encode())
    except (OSError, AttributeError):  # another runtime: it keeps its own default
        pass
