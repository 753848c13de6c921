/* Expectiminimax over the game ABI, with no Python in sight (the bindings in
 * expectimax.cpp hold the GIL-side glue).
 *
 * Values are always from the root player's point of view, in [-1, 1]:
 *   - a decision node is a max node when the root player moves and a min node
 *     otherwise, decided node by node (several actions in a row by the same
 *     player are just several max nodes in a row);
 *   - a chance node is the probability-weighted mean of its outcomes;
 *   - a terminal node is returns()[root]; any other node reached with no
 *     depth left, a chance node too, is evaluate(state, root), clamped to
 *     [-1, 1].
 *
 * Depth counts decision plies: a chance node inside the horizon passes its
 * depth on to its outcomes unchanged (a card draw is not a move), but a
 * chance node at the horizon is a leaf, as in OpenSpiel's expectiminimax.
 * Expanding it instead (one more layer of up to 27 outcomes in Stand at
 * Mortain, where every `pass` and every fire ends in a draw) made each
 * depth about 20 times dearer there, for a horizon that iterative
 * deepening reaches one ply later anyway. Chains of chance nodes are
 * bounded by kMaxPly.
 *
 * Pruning: fail-soft alpha-beta at decision nodes (TT move, previous PV,
 * two killers per ply, then history); at chance nodes Ballard's Star1 (cut
 * as soon as the outcomes searched so far, with the rest at their bounds,
 * put the mean outside the window) and optionally Star2: a probing pass
 * that searches only the first ordered move of an outcome, which bounds
 * that outcome from one side (a lower bound for a max child, an upper bound
 * for a min child); the full search of an outcome later resumes after its
 * probed move instead of searching that move again. Where the children of
 * a chance node are of both kinds (a card's colour decides who moves), the
 * probes alone can never cut: the max children's lower bounds only help a
 * fail high, the min children's upper bounds only a fail low. So the
 * probing pass is directed (value_guess says which way the node is likely
 * to fail and only the probes that help that way are made) and the Star1
 * pass then searches the outcomes whose bound on the deciding side is
 * still loose first, leaving the probed ones for last, where their bounds
 * often finish the cut (star1_order). Probing starts at remaining depth 2:
 * a depth-1 probe reaches a leaf and saves less than the second move
 * generation it costs. None of this changes the value at a given depth:
 * exact chance values are summed in one canonical order. Measured (8
 * mid-game Stand at Mortain positions, depth 3, with the table): 47% fewer
 * nodes and about 45% less time with Star2; in the toy Pig 2-21% fewer
 * nodes at depths 5-9. The switch stays for measurement.
 *
 * Transposition table: a stored value cuts off only at exactly the remaining
 * depth it was searched to. Using deeper entries too would make the value of
 * a depth-d search depend on move order and on earlier iterations; with
 * exact-depth matching the TT changes the nodes searched, never the value.
 * Deeper entries still supply their best move for ordering.
 *
 * Nothing is allocated inside the recursion: states, action lists,
 * probabilities, outcome bounds and PV rows live in per-ply buffers sized
 * once from the game's state_size and max_legal. */
#ifndef ARDSEARCH_SEARCH_EXPECTIMAX_SEARCH_H
#define ARDSEARCH_SEARCH_EXPECTIMAX_SEARCH_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ardsearch/game.h"
#include "evaluator.h"
#include "search_clock.h"
#include "tt.h"

namespace ard {

struct ExpectimaxOptions {
    bool star2 = true;
    bool use_tt = true;
    int determinizations = 8;  // PIMC samples for a view state of a hidden-information game
    uint64_t seed = 0;
    size_t tt_mb = 64;
    Evaluator eval;           // leaves: the game's evaluate() or the search's own weights
};

struct ExpectimaxLimits {
    int depth = 0;            // 0: no depth limit (up to kMaxDepth)
    double time_limit = 0.0;  // seconds; 0: none
    uint64_t nodes = 0;       // 0: none
    // Only these root actions are searched and reported (the protocol's
    // `go searchactions`); empty: every legal action. Legality is the
    // caller's check, against the searcher's own state.
    std::vector<ard_action> root_actions;
    bool cpu_clock = false;   // time_limit counts the searching thread's CPU time, not wall time
};

struct ExpectimaxResult {
    std::vector<ard_action> actions;  // root actions, in legal order
    std::vector<double> values;       // per root action, last completed depth
    std::vector<int> votes;           // PIMC: determinizations in which the action was best
    std::vector<ard_action> pv;
    ard_action best = -1;
    double value = 0.0;
    int depth = 0;
    uint64_t nodes = 0;
    uint64_t tt_hits = 0;
    double time = 0.0;
    int determinizations = 0;  // 0: the state itself was searched
    bool exact_values = false;  // true when every entry of values is exact (PIMC)
    bool cpu_clock = false;     // time_limit counted this thread's CPU time
    double cpu_time = 0.0;      // CPU seconds the search used
};

/* Read by another thread while a search runs (info lines). */
struct ExpectimaxProgress {
    std::atomic<bool> running{false};
    std::atomic<int> depth{0};
    std::atomic<uint64_t> nodes{0};
    std::atomic<ard_action> best{-1};
    std::atomic<double> value{0.0};
    std::atomic<int64_t> start_ns{0};
};

class ExpectimaxSearch {
  public:
    static constexpr int kMaxDepth = 64;   // deepest iteration
    static constexpr int kMaxPly = 160;    // decision plies plus chance plies on one path
    static constexpr double kLow = -1.0;   // bounds of every value: evaluate and returns
    static constexpr double kHigh = 1.0;

    ExpectimaxSearch(const ard_game *game, const ExpectimaxOptions &opt);

    /* Searches `root` (state_size bytes; a decision node, checked by the
     * caller). Call without the GIL; one search at a time per object. */
    ExpectimaxResult run(const uint8_t *root, const ExpectimaxLimits &limits);

    /* Safe from any thread; the running search unwinds within a few hundred
     * nodes and returns the last completed depth. */
    void stop() { stop_.store(true, std::memory_order_relaxed); }

    ExpectimaxProgress progress;

  private:
    // One root searched by iterative deepening: the state itself, or one
    // PIMC determinization. Keeps its root move order between iterations.
    struct Root {
        std::vector<uint8_t> state;
        std::vector<ard_action> order;   // root actions, best first after each iteration
        std::vector<double> values;      // value per action of `order`, last completed depth
        std::vector<ard_action> pv;      // principal variation of the last completed depth
        double value = 0.0;
    };

    void search_root(Root &root, int depth, bool exact_values);
    // How a decision node is entered: in full; as a Star2 probe (first
    // ordered move only, which it records); or resuming after such a probe,
    // so that the probed move is not searched twice.
    enum Visit { VISIT_FULL, VISIT_PROBE, VISIT_RESUME };
    struct ProbeRecord {
        ard_action move;  // -1: nothing probed (e.g. the probe hit the table)
        double value;
    };
    double search(int ply, int depth, double alpha, double beta, Visit visit = VISIT_FULL,
                  ProbeRecord *probe = nullptr);
    double decision_node(int ply, int depth, double alpha, double beta, Visit visit, ProbeRecord *probe,
                         int player, uint64_t key, ard_action tt_move);
    double chance_node(int ply, int depth, double alpha, double beta, uint64_t key);
    void order_moves(int ply, ard_action *moves, int n, int player, ard_action tt_move);
    void sort_outcomes(ard_action *outcomes, double *probs, int n);
    void star1_order(int n, const double *p, const double *lo, const double *hi,
                     const ProbeRecord *probed, double alpha, double beta, bool probed_pass,
                     double guess, int32_t *order);
    double value_guess(const void *state, uint64_t key);
    double leaf_value(const void *state);
    double terminal_value(const void *state);
    bool out_of_budget();

    uint8_t *state_at(int ply) { return states_.data() + (size_t)ply * state_size_; }
    ard_action *moves_at(int ply) { return moves_.data() + (size_t)ply * max_legal_; }
    double *probs_at(int ply) { return probs_.data() + (size_t)ply * max_legal_; }
    double *lower_at(int ply) { return lower_.data() + (size_t)ply * max_legal_; }
    double *upper_at(int ply) { return upper_.data() + (size_t)ply * max_legal_; }
    ProbeRecord *probes_at(int ply) { return probes_.data() + (size_t)ply * max_legal_; }
    int32_t *scores_at(int ply) { return scores_.data() + (size_t)ply * max_legal_; }
    ard_action *pv_row(int ply) { return pv_.data() + (size_t)ply * kMaxPly; }
    void set_pv(int ply, ard_action move);

    const ard_game *game_;
    ExpectimaxOptions opt_;
    size_t state_size_;
    int max_legal_;

    // per-ply buffers, allocated once
    std::vector<uint8_t> states_;
    std::vector<ard_action> moves_;
    std::vector<double> probs_, lower_, upper_;
    std::vector<int32_t> scores_;
    std::vector<ProbeRecord> probes_;
    std::vector<ard_action> pv_;
    std::vector<int> pv_len_;
    std::vector<uint8_t> on_prev_pv_;  // this node lies on the previous iteration's PV
    std::vector<ard_action> prev_pv_;

    std::vector<int32_t> history_;  // [player][action] cutoff counts, cleared per search
    std::vector<ard_action> killers_;  // [ply][2] the last two moves that cut there, cleared per search
    TranspositionTable tt_;

    // per search call
    int root_player_ = 0;
    uint64_t nodes_ = 0, tt_hits_ = 0, node_limit_ = 0;
    double time_limit_ = 0.0;
    std::chrono::steady_clock::time_point start_;
    SearchClock clock_;  // what time_limit_ counts (wall or this thread's CPU time)
    bool interruptible_ = false;
    bool aborted_ = false;
    bool hit_horizon_ = false;  // some leaf was cut off by depth this iteration
    std::atomic<bool> stop_{false};
};

}  // namespace ard

#endif
