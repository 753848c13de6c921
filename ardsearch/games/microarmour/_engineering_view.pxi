# Micro Armour engine: the engineering tasks' squares in the structured state
# (to_dict / from_dict key `terrain_changes`, RULES.md "Structured state"). Public:
# a view shows them as the full state does.
# Included by _engine.pyx after _obstacles_view.pxi (the slow, friendly Python side).
TASK_NAMES = ("", "ditch", "bridge")


cdef list _engineering_list(const MaState *s):
    """Every square worked on in play, in the order work began."""
    out = []
    for i in range(min(s.tc_n, MAXTC)):
        out.append({"at": [s.tc_x[i], s.tc_y[i]],
                    "task": TASK_NAMES[task_kind(s, s.tc_x[i], s.tc_y[i])] if on_map(s, s.tc_x[i], s.tc_y[i]) else "",
                    "successes": s.tc_succ[i], "done": bool(((s.tc_bridge | s.tc_filled) >> i) & 1)})
    return out


cdef int _engineering_from(d, MaState *s) except -1:
    """terrain_changes back into s (absent: none)."""
    tc = d.get("terrain_changes", [])
    if not isinstance(tc, list) or len(tc) > MAXTC:
        raise ValueError(f"terrain_changes: expected a list of at most {MAXTC} squares worked on, got {tc!r}")
    s.tc_n = s.tc_bridge = s.tc_filled = 0
    for i in range(MAXTC):
        s.tc_x[i] = s.tc_y[i] = s.tc_succ[i] = 0
    for i, c in enumerate(tc):
        at = _get(c, "at", f"terrain_changes[{i}]")
        if (not isinstance(at, list) or len(at) != 2 or not all(isinstance(v, int) for v in at)
                or not on_map(s, at[0], at[1]) or task_kind(s, at[0], at[1]) == TK_NONE):
            raise ValueError(f"terrain_changes[{i}].at={at!r}: expected an AT ditch or stream square of the table")
        task = TASK_NAMES[task_kind(s, at[0], at[1])]
        if c.get("task", task) != task:
            raise ValueError(f"terrain_changes[{i}].task={c.get('task')!r}: the square {at} takes a {task}")
        s.tc_x[i], s.tc_y[i] = at[0], at[1]
        s.tc_succ[i] = _int_in(_get(c, "successes", f"terrain_changes[{i}]"), 1, 9, f"terrain_changes[{i}].successes")
        if c.get("done", False):
            if task == "bridge":
                s.tc_bridge |= 1 << i
            else:
                s.tc_filled |= 1 << i
        s.tc_n = i + 1
    return 0
