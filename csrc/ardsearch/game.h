/* The ardsearch game ABI: the one contract between games and everything that
 * uses them (the generic Python core, the C++ search, benchmarks).
 *
 * A game is a table of C function pointers over a plain-old-data state: a
 * fixed-size struct with no pointers, copied with memcpy and serialized as its
 * bytes. Actions are dense integers 0 .. num_actions-1; chance outcomes are
 * actions too, so that a record of a game is one list of integers and one list
 * of notation strings. Every function is reentrant, never allocates and never
 * touches Python, so the search can call it from many threads with the GIL
 * released.
 *
 * Games export a pointer to their `ard_game` as a PyCapsule named
 * "ardsearch.game" (see ARD_CAPSULE_NAME).
 */
#ifndef ARDSEARCH_GAME_H
#define ARDSEARCH_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARD_ABI_VERSION 2
#define ARD_CAPSULE_NAME "ardsearch.game"

/* current_player() results besides 0 and 1. */
#define ARD_CHANCE (-1)
#define ARD_TERMINAL (-4)

/* A chance outcome the observer of a view state did not see (the opponent's
 * card draw, say). Legal only on a view state, at a chance node whose outcome
 * is hidden from the view's owner; the game records "one unknown more" and
 * determinize() later fills it in. */
#define ARD_HIDDEN_OUTCOME (-2)

/* Sizes of text buffers for notation and validation messages. */
#define ARD_NOTATION_MAX 32
#define ARD_MESSAGE_MAX 160

/* flags */
#define ARD_FLAG_CHANCE 1u /* the game has chance nodes */
#define ARD_FLAG_HIDDEN 2u /* the game has hidden information: use observe/determinize */

typedef int32_t ard_action;

typedef struct ard_game {
    const char *name;          /* package name, e.g. "ardennes" */
    uint32_t abi_version;      /* ARD_ABI_VERSION */
    uint32_t flags;            /* ARD_FLAG_* */
    uint32_t state_size;       /* sizeof the state struct, bytes */
    uint32_t params_size;      /* sizeof the parameters struct given to init, bytes */
    int32_t num_actions;       /* actions are 0 .. num_actions-1 (chance outcomes included) */
    int32_t max_legal;         /* bound on legal_actions() and on chance_outcomes() counts */
    int32_t max_game_length;   /* bound on the number of actions (chance included) in a game */

    /* A fresh game at its start (usually a chance node or the first
     * decision). `params` points at the game's parameters struct; the
     * parameters live inside the state from then on, so a state is
     * self-contained. `seed` is for games whose setup is random beyond their
     * explicit chance nodes; most ignore it. */
    void (*init)(void *state, const void *params, uint64_t seed);

    /* Structural invariants of a state. 0 if it is a state this game can
     * reach or set up; otherwise non-zero with a one-line reason in msg
     * (at most msglen bytes, NUL-terminated). Used on every deserialize and
     * state_from_dict, so it must never crash on arbitrary bytes. */
    int (*validate)(const void *state, char *msg, int msglen);

    /* 0, 1, ARD_CHANCE or ARD_TERMINAL. */
    int (*current_player)(const void *state);

    /* Legal actions at a decision node in increasing order; returns n <= max_legal. */
    int (*legal_actions)(const void *state, ard_action *out);

    /* Applies a legal action or chance outcome (or ARD_HIDDEN_OUTCOME on a
     * view state). Callers check legality first; apply does not. */
    void (*apply)(void *state, ard_action action);

    /* At a chance node: distinct outcomes in increasing action order with
     * exact probabilities summing to 1; returns n <= max_legal. */
    int (*chance_outcomes)(const void *state, ard_action *out_actions, double *out_probs);

    /* At a chance node: one outcome drawn with the probabilities above. */
    ard_action (*sample_chance)(const void *state, ard_rng *rng);

    /* out[0], out[1]: +1 / -1 / 0 at a terminal state, 0 elsewhere. */
    void (*returns)(const void *state, double *out);

    /* Heuristic value in [-1, 1] for `player`, for cut-off search and the
     * greedy bot. Must accept view states (unknowns stay unknown). */
    double (*evaluate)(const void *state, int player);

    /* 64-bit hash of everything that matters to play (equal states, equal hashes). */
    uint64_t (*hash)(const void *state);

    /* The view state of `player`: a copy in which everything that player
     * has not seen is replaced by "unknown". Games without hidden
     * information copy the state. out_view may alias state. */
    void (*observe)(const void *state, int player, void *out_view);

    /* Fills every unknown of a view state of `player` with a sample
     * consistent with all that player has seen; the result is a full state. */
    void (*determinize)(void *view, int player, ard_rng *rng);

    /* -1 for a full state, else the player whose view this is. */
    int (*viewer)(const void *state);

    /* 1 if `player` sees `action` when it is applied to `state` (all
     * decisions and public chance outcomes), 0 if it is hidden from them
     * (the opponent's card draw). */
    int (*action_visible)(const void *state, ard_action action, int player);

    /* The game's stable notation of an action in this state (buf holds at
     * least ARD_NOTATION_MAX bytes). Returns the length, or -1 if the action
     * number is out of range. */
    int (*action_to_string)(const void *state, ard_action action, char *buf, int buflen);

    /* The action a notation string names, or -1 if the text is not a move
     * of this game. Says nothing about legality. */
    ard_action (*string_to_action)(const void *state, const char *text);

    /* Evaluation features (ABI 2). A game whose evaluation is learned from
     * data sets all four; a game without them leaves them 0 / NULL.
     * features(state, player, out) writes num_features numbers that describe
     * `state` from `player`'s side (view states too, like evaluate), and
     * evaluate() is then ard_linear_value(weights, features): the weights are
     * the game's own static array of num_features doubles, filled by the core
     * from the game's data file at import (Game.weights), so that
     * (evaluate + 1) / 2 is the fitted probability that `player` wins. */
    int32_t num_features;
    const char *const *feature_names;
    void (*features)(const void *state, int player, double *out);
    double *weights;
} ard_game;

/* Upper bound on num_features, so that callers can use stack buffers. */
#define ARD_MAX_FEATURES 128

/* Helpers every engine needs, written once. */

/* validate(): copy a one-line reason into msg (may be NULL) and return 1. */
static inline int ard_fail(char *msg, int msglen, const char *text) {
    int i = 0;
    if (msg != 0 && msglen > 0) {
        while (text[i] && i < msglen - 1) {
            msg[i] = text[i];
            i++;
        }
        msg[i] = 0;
    }
    return 1;
}

/* evaluate() of a game with features: 2 * sigmoid(w . f) - 1 = tanh(w . f / 2),
 * a value in [-1, 1] whose (v + 1) / 2 is the logistic model's win probability. */
static inline double ard_linear_value(const double *weights, const double *f, int n) {
    double z = 0.0;
    for (int i = 0; i < n; i++) z += weights[i] * f[i];
    return tanh(0.5 * z);
}

/* Features an evaluate() computes: feature k is wanted when w is NULL (a
 * features() call: every feature, for tuning) or its weight is non-zero
 * (a zero weight times a finite feature adds nothing to w . f, so skipping
 * it gives the same number, cheaper). */
static inline int ard_feature_wanted(const double *w, int k) {
    return w == 0 || w[k] != 0.0;
}

/* Whether every weight but w[k] is 0 (a table of one feature alone). */
static inline int ard_weight_alone(const double *w, int n, int k) {
    for (int i = 0; i < n; i++)
        if (i != k && w[i] != 0.0) return 0;
    return 1;
}

/* returns(): +1 / -1 for winner 0 or 1, 0 / 0 for anything else (a draw). */
static inline void ard_returns_for_winner(int winner, double *out) {
    out[0] = winner == 0 ? 1.0 : winner == 1 ? -1.0 : 0.0;
    out[1] = winner == 1 ? 1.0 : winner == 0 ? -1.0 : 0.0; /* never -0.0 */
}

/* hash(): a fast 64-bit mix of a state's bytes, eight at a time (n a
 * multiple of 8 is fastest; a tail is mixed byte by byte). */
static inline uint64_t ard_hash_bytes(const void *data, size_t n) {
    const unsigned char *b = (const unsigned char *)data;
    uint64_t h = 0x9E3779B97F4A7C15ULL, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        h ^= w;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    for (; i < n; i++) {
        h ^= b[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    h ^= h >> 29;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 32);
}

#ifdef __cplusplus
}
#endif

#endif
