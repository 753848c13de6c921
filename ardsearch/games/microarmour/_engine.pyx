# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Micro Armour: The Game - WWII: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/microarmour/RULES.md (from shared/games/microarmour.md,
issue one). Everything the search calls is a `noexcept nogil` C function in
the static vtable MA_GAME, exported by capsule(). The charts, the weapons data
and the scenario (map, stands, their ids) never change during a game: they are
read from the TOML files by _data.py and copied into static C tables at import
(install()); the state holds only what changes, plus the game parameters.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.math cimport atan2, M_PI, log
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from ardsearch.game cimport (ard_game, ard_fail, ard_linear_value, ard_weight_alone, ard_feature_wanted,
                             ard_hash_bytes, ard_rng, ard_action, ard_rng_seed, ard_rng_below, ard_rng_double,
                             ARD_ABI_VERSION, ARD_CHANCE, ARD_TERMINAL, ARD_HIDDEN_OUTCOME,
                             ARD_FLAG_CHANCE, ARD_FLAG_HIDDEN)

import numpy as np
from ardsearch.games.microarmour import _data


include "_tables.pxi"
include "_stand_types.pxi"
include "_entry.pxi"
include "_groups.pxi"
include "_board.pxi"
include "_command.pxi"
include "_deviation.pxi"
include "_air.pxi"
include "_air_view.pxi"
include "_drop.pxi"          # paratroop drops
include "_buildings.pxi"
include "_obstacles.pxi"
include "_minefields.pxi"
include "_engineering.pxi"     # bridges and filled AT ditches: per-square terrain changes
include "_transport.pxi"
include "_spotting.pxi"
include "_weather.pxi"
include "_weapons_extra.pxi"
include "_artillery.pxi"
include "_prereg.pxi"         # pre-registered target points, recorded secretly before turn 1
include "_fire.pxi"
include "_flow.pxi"
include "_attacks.pxi"
include "_movement.pxi"
include "_legal.pxi"
include "_chance.pxi"
include "_apply.pxi"
include "_eval.pxi"
include "_features.pxi"       # evaluation features (ABI 2) and evaluate()
include "_hidden.pxi"
include "_notation.pxi"
include "_validate.pxi"

install()   # after every include: install() fills tables some of them declare

# ----------------------------------------------------------------- the vtable
cdef ard_game MA_GAME
MA_GAME.name = "microarmour"
MA_GAME.abi_version = ARD_ABI_VERSION
MA_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
MA_GAME.state_size = sizeof(MaState)
MA_GAME.params_size = sizeof(MaParams)
MA_GAME.num_actions = NUM_ACTIONS
MA_GAME.max_legal = MAX_LEGAL
# per turn: <= 32 marks + 2 passes, <= 32 attacks of <= 17 declarations + 2 rolls each,
# <= 3 movement attempts per stand (orders, independent) with <= 60 steps each and an
# opportunity exchange per step, recovery and cards: 40000 per turn is a loose bound.
MA_GAME.max_game_length = MAX_GAME_LENGTH
MA_GAME.init = ma_init
MA_GAME.validate = ma_validate
MA_GAME.current_player = ma_current_player
MA_GAME.legal_actions = ma_legal_actions
MA_GAME.apply = ma_apply
MA_GAME.chance_outcomes = ma_chance_outcomes
MA_GAME.sample_chance = ma_sample_chance
MA_GAME.returns = ma_returns
MA_GAME.evaluate = ma_evaluate
MA_GAME.hash = ma_hash
MA_GAME.observe = ma_observe
MA_GAME.determinize = ma_determinize
MA_GAME.viewer = ma_viewer
MA_GAME.action_visible = ma_action_visible
MA_GAME.action_to_string = ma_action_to_string
MA_GAME.string_to_action = ma_string_to_action
MA_GAME.num_features = MA_NFEAT
MA_GAME.feature_names = MA_FEATURE_NAMES
MA_GAME.features = ma_features
MA_GAME.weights = MA_WEIGHTS

STATE_SIZE = sizeof(MaState)
PARAMS_SIZE = sizeof(MaParams)
NUM_ACTIONS_PY = NUM_ACTIONS

cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&MA_GAME, CAPSULE_NAME, NULL)


include "_pyside.pxi"
include "_obstacles_view.pxi"
include "_engineering_view.pxi"
include "_drop_view.pxi"
include "_spotting_py.pxi"
