"""Where the contract's die-value form `d<n>=<k>` names a chance outcome in
Stosstruppen (RULES.md, Notation: read only, never written), to word the
error for one the engine does not read at the node in play. The engine reads
`d6=<k>` (k 1..6) only at an arrival test, an aircraft roll and the
anti-tank table; every other roll is compressed to named outcomes."""
from __future__ import annotations

import re

_DIE = re.compile(r"d(\d+)=(\d+)")

WHERE = ("d6=<k> (k from 1 to 6) is read only at a barrage, gas or CAS arrival test (5-6 arrive, "
         "1-4 wait), a CAS aircraft roll (1-3 fighter, 4-6 bomber) and a penetration of an undamaged "
         "tank (the anti-tank table: 1-2 hit:main, 3-4 hit:sec, 5 hit:immob, 6 hit:kill; +2 against "
         "the Schneider CA.1); other rolls go by their outcome's name: pass/fail, hit/miss, "
         "win/loss/tie (an assault is two dice), card:<G|B><m|f|a|r>")


def notation_hint(text: str) -> str | None:
    """Why `text`, a die value `d<n>=<k>`, names no outcome here and where it
    would; None for any other text."""
    m = _DIE.fullmatch(" ".join(text.split()))
    if not m:
        return None
    die, k = int(m.group(1)), int(m.group(2))
    if die != 6:
        return f"no roll is named by a d{die} value; {WHERE}"
    if not 1 <= k <= 6:
        return f"a d6 shows 1 to 6, not {k}; {WHERE}"
    return f"not at this node: {WHERE}"
