# Included by _engine.pyx: the vtable UND_GAME that the search calls, and capsule().

# ----------------------------------------------------------------- the vtable
cdef ard_game UND_GAME
UND_GAME.name = "undaunted"
UND_GAME.abi_version = ARD_ABI_VERSION
UND_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
UND_GAME.state_size = sizeof(UState)
UND_GAME.params_size = sizeof(UState)
UND_GAME.num_actions = NUM_ACTIONS
UND_GAME.max_legal = MAX_LEGAL
UND_GAME.max_game_length = MAX_GAME_LENGTH
UND_GAME.init = und_init
UND_GAME.validate = und_validate
UND_GAME.current_player = und_current_player
UND_GAME.legal_actions = und_legal_actions
UND_GAME.apply = und_apply
UND_GAME.chance_outcomes = und_chance_outcomes
UND_GAME.sample_chance = und_sample_chance
UND_GAME.returns = und_returns
UND_GAME.evaluate = und_evaluate
UND_GAME.num_features = NFEAT
UND_GAME.feature_names = UND_FEATURE_NAMES
UND_GAME.features = und_features
UND_GAME.weights = UND_WEIGHTS
UND_GAME.hash = und_hash
UND_GAME.observe = und_observe
UND_GAME.determinize = und_determinize
UND_GAME.viewer = und_viewer
UND_GAME.action_visible = und_action_visible
UND_GAME.action_to_string = und_action_to_string
UND_GAME.string_to_action = und_string_to_action

STATE_SIZE = sizeof(UState)
NUM_ACTIONS_PY = NUM_ACTIONS
MAX_LEGAL_PY = MAX_LEGAL

cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&UND_GAME, CAPSULE_NAME, NULL)
