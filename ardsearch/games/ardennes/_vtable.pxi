# Included by _engine.pyx: the vtable ARD_GAME that the search calls, and capsule().

# ----------------------------------------------------------------- the vtable
cdef ard_game ARD_GAME
ARD_GAME.name = "ardennes"
ARD_GAME.abi_version = ARD_ABI_VERSION
ARD_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
ARD_GAME.state_size = sizeof(ArdState)
ARD_GAME.params_size = sizeof(ArdParams)
ARD_GAME.num_actions = NUM_ACTIONS
ARD_GAME.max_legal = MAX_LEGAL
ARD_GAME.max_game_length = MAX_GAME_LENGTH
ARD_GAME.init = ard_init
ARD_GAME.validate = ard_validate
ARD_GAME.current_player = ard_current_player
ARD_GAME.legal_actions = ard_legal_actions
ARD_GAME.apply = ard_apply
ARD_GAME.chance_outcomes = ard_chance_outcomes
ARD_GAME.sample_chance = ard_sample_chance
ARD_GAME.returns = ard_returns
ARD_GAME.evaluate = ard_evaluate
ARD_GAME.hash = ard_hash
ARD_GAME.observe = ard_observe
ARD_GAME.determinize = ard_determinize
ARD_GAME.viewer = ard_viewer
ARD_GAME.action_visible = ard_action_visible
ARD_GAME.action_to_string = ard_action_to_string
ARD_GAME.string_to_action = ard_string_to_action
ARD_GAME.num_features = NFEAT
ARD_GAME.feature_names = ARD_FEATURE_NAMES
ARD_GAME.features = ard_features
ARD_GAME.weights = ARD_WEIGHTS

STATE_SIZE = sizeof(ArdState)
PARAMS_SIZE = sizeof(ArdParams)


cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&ARD_GAME, CAPSULE_NAME, NULL)
