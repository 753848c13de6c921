"""Why a move that is valid notation is not legal here: the one place that
words a refusal, for every game and every front end (`session.parse_move`
for the terminal and the browser, `State.apply_action` for the Python API,
the text protocol and records).

A refusal says what was refused (the caller's wording), then why: the game's
own sentence when its GameSpec has an `illegal_reason` hook that has one,
else what the core can say for every game, from the legal moves that share
the refused move's group (`group_moves`). It then says what can be played:
that group's legal moves (after a game's reason, only a short list), or,
when the core had to give the reason and the group has none, the groups of
moves legal now.
This runs only when a move is refused, never in search, and never fails:
a hook that raises or returns nonsense is passed over for the generic text.
"""
from __future__ import annotations

GROUPS_SHOWN = 8     # how many groups of legal moves "legal now" names
MOVES_SHOWN = 8      # how many moves of one group are listed


def group_moves(notes: list[str]) -> list[tuple[str, list[str]]]:
    """Moves grouped by what they move or do: the notation without its last
    part (`2-120-0802` -> `2-120`, `g3-d1` -> `g3`, `order shq` -> `order`,
    `T3` -> `T`), at most two words. Order kept."""
    groups: dict[str, list[str]] = {}
    for n in notes:
        cut = max(n.rfind(" "), n.rfind(":"), n.rfind("-"))
        if cut > 0:
            key = " ".join(n[:cut].split()[:2])
        else:
            head = n.rstrip("0123456789")
            key = head if head and head != n else n
        groups.setdefault(key, []).append(n)
    return list(groups.items())


def refusal_message(state, notation: str, wording: str) -> str:
    """`wording` (what was refused, e.g. "'setup 743 0604' is not a legal
    move here"), then why `notation` is not legal in `state`, then what is."""
    legal = _legal_notes(state)
    key = group_moves([notation])[0][0]
    same = dict(group_moves(legal)).get(key, [])
    reason = game_reason(state, notation)
    if reason is not None:
        # the game's sentence says what to do; a short list of the same group's moves
        # helps further (a long one would bury the reason: `moves` shows it)
        return f"{wording}: {reason}" + (f"; {_listed(key, same)}" if 0 < len(same) <= MOVES_SHOWN else "")
    if same:
        return f"{wording}: {_listed(key, same)}"
    what = f"{key} has no legal move now" if key != notation else "it is not among the moves open now"
    return f"{wording}: {what}; {_legal_now(legal)}"


def game_reason(state, notation: str) -> str | None:
    """The game's one-line reason from its `illegal_reason` hook, or None when
    the game has no hook, the state waits for chance (not a player's move),
    the hook has nothing to say, or the hook fails (a refusal must never
    crash on its explanation)."""
    hook = getattr(state.game.spec, "illegal_reason", None)
    if hook is None or state.current_player() < 0:
        return None     # a hook explains a player's move; at a chance node the core speaks
    try:
        reason = hook(state.to_dict(), notation)
    except Exception:  # noqa: BLE001 - any fault in a hook falls back to the generic text
        return None
    if not isinstance(reason, str):
        return None
    return " ".join(reason.split()) or None


def _legal_notes(state) -> list[str]:
    try:
        return [state.action_to_string(a) for a in state.legal_actions()]
    except ValueError:
        return []


def _listed(key: str, moves: list[str]) -> str:
    more = len(moves) - MOVES_SHOWN
    tail = f" and {more} more" if more > 0 else ""
    return f"{key}'s legal moves here: {', '.join(moves[:MOVES_SHOWN])}{tail}"


def _legal_now(legal: list[str]) -> str:
    if not legal:
        return "no move is legal now"
    groups = group_moves(legal)
    names = [moves[0] if len(moves) == 1 else f"{key} ({len(moves)} moves)"
             for key, moves in groups[:GROUPS_SHOWN]]
    more = len(groups) - GROUPS_SHOWN
    tail = f" and {more} more groups" if more > 0 else ""
    return f"legal now: {', '.join(names)}{tail}"
