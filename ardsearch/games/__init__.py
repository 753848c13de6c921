"""The game packages. A game is listed here once it meets the definition of
done in DESIGN.md; each package exports SPEC (see ardsearch._spec)."""
import importlib

GAMES = ("ardennes", "microarmour", "mortain", "stosstruppen", "undaunted")


def spec(name):
    """The GameSpec of a listed game; ValueError naming the games otherwise."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (available: {', '.join(sorted(GAMES))})")
    return importlib.import_module(f"ardsearch.games.{name}").SPEC
