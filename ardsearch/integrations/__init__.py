"""Bridges from ardsearch games to the ecosystems users already work in.

- ``ardsearch.integrations.openspiel``: ``register()`` makes every game a
  pyspiel game named ``ardsearch_<name>`` (extra: ``pip install ardsearch[openspiel]``).
- ``ardsearch.integrations.pettingzoo``: ``env(name, **params)`` is a PettingZoo
  AEC environment with action masks (extra: ``pip install ardsearch[pettingzoo]``).

Each module imports its framework on first import and says which extra to
install when it is missing; importing this package needs neither.
"""
