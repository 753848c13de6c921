"""The settings that define a tournament: what a resume must match exactly."""
from __future__ import annotations

import json
from dataclasses import dataclass

from ardsearch.stats import SPRT
from ardsearch.tournament.entrants import Entrant
from ardsearch.tournament.schedule import GameTask, schedule


@dataclass(frozen=True)
class TournamentConfig:
    game: str                  # game name
    params: dict               # every game parameter (defaults filled in), as game.params
    entrants: tuple[Entrant, ...]
    format: str = "round-robin"
    games: int = 2             # per pairing, even
    seed: int = 0
    sprt: SPRT | None = None
    timeout: float = 10.0      # seconds an engine gets to answer any command, on top of its move time

    def tasks(self) -> list[GameTask]:
        return schedule([e.name for e in self.entrants], self.format, self.games, self.seed)

    def entrant(self, name: str) -> Entrant:
        for e in self.entrants:
            if e.name == name:
                return e
        raise KeyError(name)

    def game_text(self) -> str:
        inner = ",".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.game}({inner})" if inner else self.game

    def to_json(self) -> dict:
        return {
            "game": self.game, "params": self.params,
            "entrants": [e.to_json() for e in self.entrants],
            "format": self.format, "games": self.games, "seed": self.seed,
            "sprt": None if self.sprt is None else vars(self.sprt).copy(),
            "timeout": self.timeout,
        }

    @staticmethod
    def from_json(d: dict) -> TournamentConfig:
        return TournamentConfig(
            d["game"], dict(d["params"]), tuple(Entrant.from_json(e) for e in d["entrants"]),
            d["format"], int(d["games"]), int(d["seed"]),
            None if d.get("sprt") is None else SPRT(**d["sprt"]), float(d.get("timeout", 10.0)))

    def key(self) -> str:
        """A stable text identity (for caches in workers)."""
        return json.dumps(self.to_json(), sort_keys=True)

    def differences(self, other: TournamentConfig) -> list[str]:
        """Names of the settings that differ (for a clear resume error)."""
        mine, theirs = self.to_json(), other.to_json()
        return [k for k in mine if json.dumps(mine[k], sort_keys=True) != json.dumps(theirs.get(k), sort_keys=True)]
