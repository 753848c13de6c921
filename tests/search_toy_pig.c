/* Test-only toy game for the search tests (not part of the package): Pig with
 * a loaded die. tests/test_search_expectimax.py compiles it into a shared
 * library, wraps `pig_game` in an "ardsearch.game" capsule with ctypes, and
 * checks the search against a plain Python expectimax over the same rules.
 *
 * Rules: on your turn, `hold` banks the turn total and passes the turn, or
 * `roll` throws the die (a chance node): a 1 loses the turn total and passes
 * the turn; 2..6 add to the turn total and you decide again (a multi-action
 * turn). Banking `target` or more wins. After `max_moves` actions (chance
 * included) the game is a draw. The die is loaded: P(1) = 0.25, P(2..6) =
 * 0.15 each, so outcomes have unequal probabilities.
 *
 * Hidden-information mode (hidden != 0): each player also holds a secret bonus
 * 0 or 1 drawn at the start (not part of the rules of play; it only changes
 * the final score tie-break of evaluate), so that PIMC has something to
 * sample. Views replace the opponent's bonus with -1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ardsearch/game.h"

enum { HOLD = 0, ROLL = 1, FACE1 = 2 /* FACE1 + f - 1 for face f */ };
enum { PHASE_DECIDE = 0, PHASE_ROLL = 1, PHASE_OVER = 2 };

typedef struct pig_state {
    int32_t score[2];
    int32_t turn_total;
    int32_t to_move;
    int32_t phase;
    int32_t moves;
    int32_t target;
    int32_t max_moves;
    int32_t winner; /* -1 none or draw, else 0/1 */
    int32_t hidden; /* 0 or 1: hidden-information mode */
    int32_t bonus[2]; /* secret bonus per player, -1 unknown in a view */
    int32_t viewer;   /* -1 full state, else the view's owner */
} pig_state;

static const double kFaceProb[6] = {0.25, 0.15, 0.15, 0.15, 0.15, 0.15};

static void pig_init(void *st, const void *params, uint64_t seed) {
    pig_state *s = (pig_state *)st;
    memset(s, 0, sizeof *s);
    s->target = 12;
    s->max_moves = 40;
    s->winner = -1;
    s->viewer = -1;
    (void)params;
    (void)seed;
}

static int pig_validate(const void *st, char *msg, int msglen) {
    const pig_state *s = (const pig_state *)st;
    const char *why = NULL;
    if (s->target < 1 || s->target > 100) why = "target out of range";
    else if (s->score[0] < 0 || s->score[1] < 0 || s->score[0] > 200 || s->score[1] > 200) why = "bad score";
    else if (s->turn_total < 0 || s->turn_total > 200) why = "bad turn total";
    else if (s->to_move != 0 && s->to_move != 1) why = "bad to_move";
    else if (s->phase < 0 || s->phase > 2) why = "bad phase";
    else if (s->moves < 0 || s->max_moves < 1 || s->moves > s->max_moves || s->max_moves > 1000) why = "bad moves";
    else if (s->viewer < -1 || s->viewer > 1) why = "bad viewer";
    if (why) {
        snprintf(msg, (size_t)msglen, "%s", why);
        return 1;
    }
    return 0;
}

static int pig_current_player(const void *st) {
    const pig_state *s = (const pig_state *)st;
    if (s->phase == PHASE_OVER) return ARD_TERMINAL;
    if (s->phase == PHASE_ROLL) return ARD_CHANCE;
    return s->to_move;
}

static int pig_legal_actions(const void *st, ard_action *out) {
    (void)st;
    out[0] = HOLD;
    out[1] = ROLL;
    return 2;
}

static void pig_end_move(pig_state *s) {
    s->moves++;
    if (s->phase != PHASE_OVER && s->moves >= s->max_moves) {
        s->phase = PHASE_OVER;
        s->winner = -1;
    }
}

static void pig_apply(void *st, ard_action a) {
    pig_state *s = (pig_state *)st;
    if (a == HOLD) {
        s->score[s->to_move] += s->turn_total;
        s->turn_total = 0;
        if (s->score[s->to_move] >= s->target) {
            s->phase = PHASE_OVER;
            s->winner = s->to_move;
        } else {
            s->to_move = 1 - s->to_move;
        }
    } else if (a == ROLL) {
        s->phase = PHASE_ROLL;
    } else {
        int face = a - FACE1 + 1;
        s->phase = PHASE_DECIDE;
        if (face == 1) {
            s->turn_total = 0;
            s->to_move = 1 - s->to_move;
        } else {
            s->turn_total += face;
        }
    }
    pig_end_move(s);
}

static int pig_chance_outcomes(const void *st, ard_action *acts, double *probs) {
    (void)st;
    for (int f = 0; f < 6; f++) {
        acts[f] = FACE1 + f;
        probs[f] = kFaceProb[f];
    }
    return 6;
}

static ard_action pig_sample_chance(const void *st, ard_rng *rng) {
    (void)st;
    return FACE1 + ard_rng_pick(rng, kFaceProb, 6);
}

static void pig_returns(const void *st, double *out) {
    const pig_state *s = (const pig_state *)st;
    out[0] = out[1] = 0.0;
    if (s->phase == PHASE_OVER && s->winner >= 0) {
        out[s->winner] = 1.0;
        out[1 - s->winner] = -1.0;
    }
}

static double pig_evaluate(const void *st, int p) {
    const pig_state *s = (const pig_state *)st;
    double mine = s->score[p], theirs = s->score[1 - p];
    if (s->to_move == p) mine += 0.5 * s->turn_total;
    else theirs += 0.5 * s->turn_total;
    double v = (mine - theirs) / (double)s->target;
    if (s->bonus[p] > 0) v += 0.01; /* the secret tie-break of the hidden mode */
    if (v > 0.95) v = 0.95;
    if (v < -0.95) v = -0.95;
    return v;
}

static uint64_t pig_hash(const void *st) {
    const unsigned char *b = (const unsigned char *)st;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof(pig_state); i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static void pig_observe(const void *st, int player, void *out) {
    pig_state v;
    memcpy(&v, st, sizeof v);
    if (v.hidden) {
        v.bonus[1 - player] = -1;
        v.viewer = player;
    }
    memcpy(out, &v, sizeof v);
}

static void pig_determinize(void *st, int player, ard_rng *rng) {
    pig_state *s = (pig_state *)st;
    if (s->bonus[1 - player] < 0) s->bonus[1 - player] = (int32_t)ard_rng_below(rng, 2);
    s->viewer = -1;
}

static int pig_viewer(const void *st) { return ((const pig_state *)st)->viewer; }

static int pig_action_visible(const void *st, ard_action a, int player) {
    (void)st;
    (void)a;
    (void)player;
    return 1;
}

static int pig_action_to_string(const void *st, ard_action a, char *buf, int buflen) {
    (void)st;
    if (a == HOLD) return snprintf(buf, (size_t)buflen, "hold");
    if (a == ROLL) return snprintf(buf, (size_t)buflen, "roll");
    if (a >= FACE1 && a < FACE1 + 6) return snprintf(buf, (size_t)buflen, "d%d", a - FACE1 + 1);
    return -1;
}

static ard_action pig_string_to_action(const void *st, const char *text) {
    (void)st;
    if (!strcmp(text, "hold")) return HOLD;
    if (!strcmp(text, "roll")) return ROLL;
    if (text[0] == 'd' && text[1] >= '1' && text[1] <= '6' && !text[2]) return FACE1 + text[1] - '1';
    return -1;
}

ard_game pig_game = {
    "pig", ARD_ABI_VERSION, ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN, sizeof(pig_state), 0,
    8, 6, 1000,
    pig_init, pig_validate, pig_current_player, pig_legal_actions, pig_apply,
    pig_chance_outcomes, pig_sample_chance, pig_returns, pig_evaluate, pig_hash,
    pig_observe, pig_determinize, pig_viewer, pig_action_visible,
    pig_action_to_string, pig_string_to_action,
};
