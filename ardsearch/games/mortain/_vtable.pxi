# Included by _engine.pyx: the vtable that the search calls, and capsule().

# ---------------------------------------------------------------- vtable ----
cdef ard_game VTABLE
VTABLE.name = "mortain"
VTABLE.abi_version = ARD_ABI_VERSION
VTABLE.flags = ARD_FLAG_CHANCE
VTABLE.state_size = sizeof(MState)
VTABLE.params_size = sizeof(MParams)
VTABLE.num_actions = NUM_ACTIONS
VTABLE.max_legal = MAX_LEGAL
VTABLE.max_game_length = 0       # set from the scenario's turns in _install_scenario
VTABLE.init = m_init
VTABLE.validate = m_validate
VTABLE.current_player = m_current_player
VTABLE.legal_actions = m_legal_actions
VTABLE.apply = m_apply
VTABLE.chance_outcomes = m_chance_outcomes
VTABLE.sample_chance = m_sample_chance
VTABLE.returns = m_returns
VTABLE.evaluate = m_evaluate
VTABLE.hash = m_hash
VTABLE.observe = m_observe
VTABLE.determinize = m_determinize
VTABLE.viewer = m_viewer
VTABLE.action_visible = m_action_visible
VTABLE.action_to_string = m_action_to_string
VTABLE.string_to_action = m_string_to_action
VTABLE.num_features = MFEAT
VTABLE.feature_names = M_FEATURE_NAMES
VTABLE.features = m_features
VTABLE.weights = M_WEIGHTS


def capsule():
    """The ard_game vtable as a PyCapsule named 'ardsearch.game'."""
    return PyCapsule_New(<void *>&VTABLE, ARD_CAPSULE_NAME, NULL)
