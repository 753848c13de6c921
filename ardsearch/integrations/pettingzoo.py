"""Every ardsearch game as a PettingZoo AEC (turn-based) environment.

    from ardsearch.integrations.pettingzoo import env
    e = env("ardennes", variant="basic")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` and ``player_1`` (the game's players 0 and 1). Each
observation is a dict: ``observation`` (the game's ``observation_tensor`` of
that agent: only what the agent may see, float32, ``game.observation_shape``)
and ``action_mask`` (int8, 1 for each legal action of the agent to move, all
zeros for the agent not to move). Actions are the game's dense action numbers.

Chance events (dice, card draws, who starts) are not agents: the environment
draws them itself, right after reset and after every step, with the state's
own RNG seeded by ``reset(seed=...)``, so a seed replays a game exactly. A
player may act several times in a row (turns of several action points):
``agent_selection`` is always the side to move. Rewards are the game's
returns (+1 / -1 / 0) when it ends; there is no truncation (every game has a
round limit of its own).
"""
from __future__ import annotations

import random

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("ardsearch.integrations.pettingzoo needs PettingZoo: "
                      "pip install 'ardsearch[pettingzoo]' (or pip install pettingzoo gymnasium)") from e
import numpy as np

import ardsearch

AGENTS = ("player_0", "player_1")


class ArdsearchAECEnv(AECEnv):
    """The raw AEC environment of one ardsearch game (see the module doc);
    ``env()`` wraps it in PettingZoo's order-enforcing checks."""

    def __init__(self, game, render_mode=None):
        super().__init__()
        self.game = ardsearch.load_game(game) if isinstance(game, str) else game
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["human", "ansi"],
                         "name": f"ardsearch_{self.game.name}_v0",
                         "is_parallelizable": False}
        self.possible_agents = list(AGENTS)
        shape = tuple(self.game.observation_shape)
        n = self.game.num_actions
        # The tensors' value range is each game's own business: leave it open.
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, shape, np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self.state = self.game.new_initial_state(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._resolve_chance()
        self._after_move()

    def observe(self, agent):
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_actions, np.int8)
        if self.state.current_player() == player:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.state.observation_tensor(player).astype(np.float32, copy=False),
                "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if action not in self.state.legal_actions():
            raise ValueError(f"{agent}: action {action} is not legal here; legal actions are the "
                             f"ones set in observation['action_mask'] ({self.state.legal_actions()})")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(action)
        self._resolve_chance()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    def _resolve_chance(self):
        while self.state.is_chance_node():
            self.state.apply_random_chance()

    def _after_move(self):
        """Points agent_selection at the side to move, or ends the episode."""
        if self.state.is_terminal():
            returns = self.state.returns()
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[p])
                self.terminations[a] = True
            # Everyone steps None once more; the last mover goes first.
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()


def raw_env(game, render_mode=None, **params) -> ArdsearchAECEnv:
    """The unwrapped environment of `game` (a name, with keyword parameters,
    or an ``ardsearch.Game``)."""
    if isinstance(game, str):
        game = ardsearch.load_game(game, **params)
    elif params:
        raise ValueError("give parameters with a game name, not with a loaded Game")
    return ArdsearchAECEnv(game, render_mode=render_mode)


def env(game, render_mode=None, **params):
    """The environment of `game` wrapped in PettingZoo's order-enforcing checks."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **params))


__all__ = ["AGENTS", "ArdsearchAECEnv", "env", "raw_env"]
