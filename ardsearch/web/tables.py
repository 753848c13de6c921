"""The games a browser plays, one `Table` each, and what a seat may see of them.

A table wraps a Session (ardsearch/session.py): the server keeps the true
state; `snapshot(audience)` is everything the browser gets, built only from
the audience's view (`state.view(seat)`), so hidden cards never leave the
server. A spectator of a bot-vs-bot game may choose the full view.
"""
from __future__ import annotations

import secrets
import threading
import time

import ardsearch
from ardsearch.records import Record, side_names
from ardsearch.session import HUMAN, Session, top_moves, value_texts

FULL = "full"             # the audience that sees everything (bot-vs-bot spectators only)
TOP_MOVES = 8


def side_titles(game) -> tuple[str, str]:
    titles = getattr(game, "player_titles", None)
    return tuple(titles) if titles else tuple(n.title() for n in side_names(game))


class Table:
    """One game in the browser: a session, who watches it, the bots' analyses."""

    def __init__(self, session: Session, audience):
        self.id = secrets.token_urlsafe(18)       # unguessable: 144 random bits
        self.session = session
        self.audience = audience                  # a seat (0/1) or FULL
        self.lock = threading.Lock()              # one search or move at a time
        self.thinking = False
        self.analyses: list[dict | None] = [None] * len(session.record.moves)
        self.last_analysis: dict | None = None
        self.created = time.time()

    # --- what the browser sees -------------------------------------------------
    def seat_view(self):
        s = self.session.state
        if self.audience == FULL or not self.session.game.hidden_information:
            return s
        return s.view(self.audience)

    def history(self) -> list[dict]:
        s = self.session
        if self.audience == FULL:
            masked = [m["move"] for m in s.record.moves]
        else:
            masked = s.state.masked_history(self.audience)
        out = []
        for k, m in enumerate(s.record.moves):
            entry = {"ply": k + 1, "side": m["side"], "player": m["player"], "move": masked[k]}
            if m["player"] >= 0 and masked[k] != "?":
                for key in ("wp", "eval", "nodes", "time"):
                    if key in m:
                        entry[key] = m[key]
            out.append(entry)
        return out

    def wp_curve(self) -> list[float | None]:
        """Seat 0's win probability after each bot move (None where no bot spoke)."""
        curve = []
        for m in self.session.record.moves:
            wp = m.get("wp")
            if wp is None or m["player"] < 0:
                curve.append(None)
            else:
                curve.append(round(wp if m["player"] == 0 else 1.0 - wp, 4))
        return curve

    def snapshot(self) -> dict:
        s = self.session
        view = self.seat_view()
        to_move = s.to_move()
        mine = self.audience != FULL and to_move == self.audience and s.waiting_for_human()
        legal = [view.action_to_string(a) for a in view.legal_actions()] if mine else []
        seats = [{"side": s.sides[i], "title": side_titles(s.game)[i], "kind": seat.kind,
                  "name": seat.name} for i, seat in enumerate(s.seats)]
        return {
            "type": "state", "table": self.id, "game": s.game.name, "title": s.game.title,
            "params": s.game.params, "seed": s.seed, "seats": seats,
            "audience": self.audience, "to_move": to_move,
            "to_move_side": s.sides[to_move] if to_move >= 0 else ("chance" if to_move == -1 else None),
            "your_turn": mine, "legal": legal,
            "view": view.to_dict(), "board_text": (str(view) if self.audience == FULL
                                                   else view.observation_string(self.audience)),
            "history": self.history(), "wp": self.wp_curve(),
            "outcome": s.outcome(), "result": s.record.result, "thinking": self.thinking,
            "can_undo": self.audience != FULL and any(m["player"] == self.audience for m in s.record.moves),
        }

    def position_at(self, ply: int) -> dict:
        """The audience's view after `ply` events (for the history's jump-to-ply)."""
        moves = self.session.record.moves
        if not 0 <= ply <= len(moves):
            raise ValueError(f"ply {ply} is outside this game (0..{len(moves)})")
        rec = Record(self.session.game.name, self.session.game.params, self.session.seed,
                     self.session.record.players, moves[:ply])
        state = rec.state(ply)
        if self.audience != FULL and self.session.game.hidden_information:
            view = state.view(self.audience)
            text = view.observation_string(self.audience)
        else:
            view, text = state, str(state)
        return {"type": "position", "table": self.id, "ply": ply, "view": view.to_dict(), "board_text": text}


def summarize(info: dict | None, view) -> dict | None:
    """A bot's analysis as the browser shows it: best, wp, top moves, pv."""
    if not info:
        return None
    top = top_moves(info, TOP_MOVES)
    return {"move": info.get("move"), "wp": round(float(info.get("wp", 0.5)), 4),
            "nodes": int(info.get("nodes") or 0), "time": round(float(info.get("time") or 0.0), 3),
            "pv": list(info.get("pv") or []), "book": bool(info.get("book")),
            "top": [{"move": m, "visits": visits, "value": value, "value_text": text}
                    for (m, visits, value), text in zip(top, value_texts([v for _, _, v in top]))]}


def new_table(game_name: str, params: dict, seats: list[str], seed, audience) -> Table:
    """A table from a browser's request, checked: a known game, valid
    parameters, seats that are 'human' or a preset, an audience that fits."""
    if game_name not in ardsearch.list_games():
        raise ValueError(f"unknown game {game_name!r}")
    game = ardsearch.load_game(game_name, **params)
    from ardsearch.bots import list_bots
    presets = set(list_bots())
    if len(seats) != 2 or any(s != HUMAN and s not in presets for s in seats):
        raise ValueError(f"seats must be two of: human, {', '.join(sorted(presets))}")
    humans = [i for i, s in enumerate(seats) if s == HUMAN]
    if len(humans) > 1:
        raise ValueError("one person per browser game: seat a bot on the other side")
    if humans:
        audience = humans[0]
    elif audience not in (0, 1, FULL):
        raise ValueError("a spectator watches seat 0, seat 1 or the full board")
    session = Session(game, seats, seed)
    return Table(session, audience)
