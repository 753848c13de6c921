# Cython view of csrc/ardsearch/game.h and rng.h: the game ABI, declared once
# for the core and every game engine.
from libc.stddef cimport size_t
from libc.stdint cimport uint32_t, uint64_t, int32_t

cdef extern from "ardsearch/game.h" nogil:
    ctypedef struct ard_rng:
        uint64_t s[4]
    void ard_rng_seed(ard_rng *r, uint64_t seed)
    uint64_t ard_rng_next(ard_rng *r)
    uint32_t ard_rng_below(ard_rng *r, uint32_t n)
    double ard_rng_double(ard_rng *r)
    int ard_rng_pick(ard_rng *r, const double *probs, int n)
    # helpers for engines (game.h): validate() messages and state hashing
    int ard_fail(char *msg, int msglen, const char *text)
    void ard_returns_for_winner(int winner, double *out)
    uint64_t ard_hash_bytes(const void *data, size_t n)
    double ard_linear_value(const double *weights, const double *f, int n)
    bint ard_feature_wanted(const double *w, int k)
    bint ard_weight_alone(const double *w, int n, int k)

    # enum so that Cython treats them as compile-time constants (array sizes)
    enum:
        ARD_ABI_VERSION
        ARD_CHANCE
        ARD_TERMINAL
        ARD_HIDDEN_OUTCOME
        ARD_NOTATION_MAX
        ARD_MESSAGE_MAX
        ARD_FLAG_CHANCE
        ARD_FLAG_HIDDEN
        ARD_MAX_FEATURES
    const char *ARD_CAPSULE_NAME

    ctypedef int32_t ard_action

    ctypedef struct ard_game:
        const char *name
        uint32_t abi_version
        uint32_t flags
        uint32_t state_size
        uint32_t params_size
        int32_t num_actions
        int32_t max_legal
        int32_t max_game_length
        void (*init)(void *state, const void *params, uint64_t seed) noexcept nogil
        int (*validate)(const void *state, char *msg, int msglen) noexcept nogil
        int (*current_player)(const void *state) noexcept nogil
        int (*legal_actions)(const void *state, ard_action *out) noexcept nogil
        void (*apply)(void *state, ard_action action) noexcept nogil
        int (*chance_outcomes)(const void *state, ard_action *out_actions, double *out_probs) noexcept nogil
        ard_action (*sample_chance)(const void *state, ard_rng *rng) noexcept nogil
        void (*returns)(const void *state, double *out) noexcept nogil
        double (*evaluate)(const void *state, int player) noexcept nogil
        uint64_t (*hash)(const void *state) noexcept nogil
        void (*observe)(const void *state, int player, void *out_view) noexcept nogil
        void (*determinize)(void *view, int player, ard_rng *rng) noexcept nogil
        int (*viewer)(const void *state) noexcept nogil
        int (*action_visible)(const void *state, ard_action action, int player) noexcept nogil
        int (*action_to_string)(const void *state, ard_action action, char *buf, int buflen) noexcept nogil
        ard_action (*string_to_action)(const void *state, const char *text) noexcept nogil
        int32_t num_features
        const char *const *feature_names
        void (*features)(const void *state, int player, double *out) noexcept nogil
        double *weights
