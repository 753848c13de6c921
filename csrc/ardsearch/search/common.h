/* Shared by every search algorithm: the game behind a capsule, raw state
 * buffers, a wall clock and the `clock` argument. No Python here except capsule unpacking, which
 * happens once per search object, with the GIL held. */
#ifndef ARDSEARCH_SEARCH_COMMON_H
#define ARDSEARCH_SEARCH_COMMON_H

#include <pybind11/pybind11.h>

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "ardsearch/game.h"
#include "evaluator.h"
#include "search_clock.h"

namespace ard {

namespace py = pybind11;

/* The vtable held by a game's PyCapsule; raises on a foreign object. The
 * capsule object is kept alive by the caller (the search object holds it). */
inline const ard_game *game_from_capsule(const py::object &capsule) {
    if (!PyCapsule_IsValid(capsule.ptr(), ARD_CAPSULE_NAME))
        throw py::value_error("expected a game capsule named 'ardsearch.game' (pass game.capsule)");
    auto *g = static_cast<const ard_game *>(PyCapsule_GetPointer(capsule.ptr(), ARD_CAPSULE_NAME));
    if (g->abi_version != ARD_ABI_VERSION)
        throw py::value_error("game ABI version mismatch: rebuild the game engine");
    return g;
}

/* Raw state bytes from Python, checked against the game's state size and
 * validate(). */
inline std::vector<uint8_t> state_from_bytes(const ard_game *g, const py::bytes &b) {
    std::string s = b;
    if (s.size() != g->state_size)
        throw py::value_error("state has " + std::to_string(s.size()) + " bytes, game '" +
                              g->name + "' expects " + std::to_string(g->state_size) +
                              " (pass state.raw())");
    std::vector<uint8_t> out(s.begin(), s.end());
    char msg[ARD_MESSAGE_MAX];
    if (g->validate(out.data(), msg, sizeof msg) != 0)
        throw py::value_error(std::string("invalid state: ") + msg);
    return out;
}

inline std::string notation(const ard_game *g, const void *state, ard_action a) {
    char buf[ARD_NOTATION_MAX];
    int n = g->action_to_string(state, a, buf, sizeof buf);
    return n < 0 ? std::string("?") : std::string(buf, (size_t)n);
}

/* The root_actions argument of a search (Python list of ints): each must be
 * legal at the root; duplicates are dropped. Raises ValueError otherwise. */
inline std::vector<ard_action> checked_root_actions(const ard_game *g, const uint8_t *state,
                                                    const py::object &root_actions) {
    std::vector<ard_action> wanted = root_actions.cast<std::vector<ard_action>>();
    if (wanted.empty())
        throw py::value_error("root_actions is empty: give at least one legal action, or None for all");
    std::vector<ard_action> legal((size_t)g->max_legal + 1);
    legal.resize((size_t)std::max(0, g->legal_actions(state, legal.data())));
    std::vector<ard_action> out;
    for (ard_action a : wanted) {
        if (std::find(legal.begin(), legal.end(), a) == legal.end())
            throw py::value_error("root_actions: action " + std::to_string(a) +
                                  " is not legal at the root (see state.legal_actions())");
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    }
    return out;
}

/* An Evaluator from a search's `weights` argument: None for the game's own
 * evaluate(), else a sequence of num_features finite numbers (ValueError
 * otherwise, saying what the game takes). */
inline Evaluator make_evaluator(const ard_game *g, const py::object &weights) {
    Evaluator e;
    e.g = g;
    if (weights.is_none()) return e;
    if (g->num_features <= 0)
        throw py::value_error(std::string("weights: game '") + g->name +
                              "' has no evaluation features, so a search cannot carry its own weights "
                              "(pass weights=None)");
    std::vector<double> w = weights.cast<std::vector<double>>();
    if ((int)w.size() != g->num_features)
        throw py::value_error("weights: game '" + std::string(g->name) + "' has " +
                              std::to_string(g->num_features) + " features, got " +
                              std::to_string(w.size()) + " weights (see game.feature_names)");
    for (size_t i = 0; i < w.size(); i++) {
        if (!std::isfinite(w[i]))
            throw py::value_error("weights: entry " + std::to_string(i) + " is not a finite number");
        e.w[i] = w[i];
    }
    e.n = g->num_features;
    e.own = true;
    return e;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/* The clock a search's `clock` argument names: "wall" (the default) or "cpu".
 * Refuses anything else, and "cpu" where the platform has no per-thread CPU
 * clock. */
inline bool cpu_clock_from(const std::string &clock) {
    if (clock == "wall") return false;
    if (clock != "cpu")
        throw py::value_error("clock must be 'wall' (time_limit counts wall time) or 'cpu' (the searching "
                              "thread's own CPU time), got '" + clock + "'");
#ifndef CLOCK_THREAD_CPUTIME_ID
    throw py::value_error("clock='cpu': this platform has no per-thread CPU clock; use clock='wall'");
#else
    return true;
#endif
}

}  // namespace ard

#endif
