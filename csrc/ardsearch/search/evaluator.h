/* How a search scores a position it does not search further. No Python here
 * (the expectimax core includes it too). */
#ifndef ARDSEARCH_SEARCH_EVALUATOR_H
#define ARDSEARCH_SEARCH_EVALUATOR_H

#include "ardsearch/game.h"

namespace ard {

/* The leaf evaluation of a search: the game's evaluate(), or, when the search
 * carries its own weights (a bot's `weights` setting), tanh(w . f / 2) over
 * the game's features with those weights: the game's evaluate() with another
 * weights table, without touching the game's own (other searches in the
 * process keep theirs). Terminal states keep the game's evaluate(). Nothing
 * is allocated: the weights live in the object, the features on the stack. */
struct Evaluator {
    const ard_game *g = nullptr;
    bool own = false;
    int n = 0;
    double w[ARD_MAX_FEATURES] = {};

    double operator()(const void *s, int player) const {
        if (!own || g->current_player(s) == ARD_TERMINAL || games_table()) return g->evaluate(s, player);
        double f[ARD_MAX_FEATURES];
        g->features(s, player, f);
        return ard_linear_value(w, f, n);
    }

    /* Whether the search's weights are the game's own table now (mcts-v1's
     * `classic` in a game that ships classic alone): then the game's
     * evaluate() is the same number, and cheaper where the engine skips the
     * features a zero weight would multiply away. Checked at every call, as
     * the game's table can be replaced between searches. */
    bool games_table() const {
        for (int i = 0; i < n; i++)
            if (w[i] != g->weights[i]) return false;
        return true;
    }
};

}  // namespace ard

#endif
