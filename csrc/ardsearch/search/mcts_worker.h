/* One MCTS tree and the thread that grows it.
 *
 * Root parallelism: every search thread owns a Worker (its own tree, RNG and
 * scratch buffers) and never touches another's, so the inner loop takes no
 * lock. The orchestrator (mcts.cpp) merges the root statistics afterwards.
 *
 * Two modes share the tree code:
 *  - plain MCTS (UCT) over full states, with explicit chance nodes whose
 *    children are all outcomes with their probabilities, and the MCTS-Solver;
 *  - single-observer information-set MCTS: the root is the searcher's view,
 *    every simulation plays in a fresh determinization of it, edges are keyed
 *    by action (a chance outcome the searcher cannot see is the single edge
 *    ARD_HIDDEN_OUTCOME), children blocks grow when a determinization shows a
 *    new legal action, and selection uses availability counts.
 *    An opponent's move the searcher cannot see (a secret initiative bid) is
 *    merged into the same single '?' edge, so the searcher's later nodes are
 *    the same whatever the opponent chose. Which move the opponent actually
 *    plays in the determinization is chosen by UCB over "shadow" entries:
 *    per-move statistics of the opponent kept beside the '?' edge (as the
 *    opponent's tree would in multiple-observer ISMCTS, but keyed by the
 *    searcher's information set: the opponent does not exploit its own
 *    hand there, a known limit of single-observer ISMCTS).
 *
 * Values: a node's value_sum is from the perspective of its chooser (the
 * player who picked the edge into it), so multi-action turns need no
 * alternation assumption. Leaf results are a pair (one value per player). */
#ifndef ARDSEARCH_SEARCH_MCTS_WORKER_H
#define ARDSEARCH_SEARCH_MCTS_WORKER_H

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "ardsearch/game.h"
#include "common.h"
#include "mcts_pool.h"

namespace ard {

struct MctsConfig {
    double exploration = 1.4;
    int rollout_depth = -1;  // plies of random rollout before evaluate(); -1: to the end
    bool solver = true;      // plain MCTS only; ISMCTS cannot prove (determinizations differ)
    bool ismcts = false;
    // UCB on each node's children's mean values rescaled to [0, 1] by their
    // spread at that node: the exploration constant then means the same in
    // every game, however narrow the range of its evaluate() is.
    bool normalize = false;
    // Implicit minimax backups (Lanctot et al. 2014): each node also keeps
    // the minimax of evaluate() over its searched subtree, and selection
    // uses (1 - w) * mean + w * that; 0 turns it off.
    double minimax_weight = 0.0;
    // Child evaluation at expansion (a heuristic prior): every new child of a
    // decision node is scored with evaluate() of the position after its move.
    // An unvisited child then competes in UCB as if visited once with that
    // score (first-play urgency from the heuristic: good moves first, poor
    // ones perhaps never), and the implicit minimax value of a node takes the
    // best over all its evaluated children, visited or not.
    bool eval_children = false;
    // Rollout policy. 0: uniform random moves. k > 0: each rollout decision
    // draws k distinct legal moves and plays the one whose resulting position
    // evaluate() scores best for the mover (-1: all legal moves), so a rollout
    // plays plausible replies instead of noise; rollout_epsilon is the chance
    // of a uniform random move instead (keeps rollouts varied). Costs k
    // apply + evaluate a rollout ply.
    int rollout_sample = 0;
    double rollout_epsilon = 0.0;
    // Progressive widening ordered by the evaluation (plain MCTS only; 0: off).
    // A new decision node scores every child with evaluate() (as
    // eval_children does), orders them best first for the mover, and
    // selection may visit only the first k = max(1, ceil(widening *
    // visits^widening_exponent)) of them; each newly admitted child is
    // visited once before UCB compares it. The search starts as the
    // one-ply greedy line at every node and widens with visits, so a
    // move's value is not the mean over random continuations of a long
    // multi-action turn (bench/README.md, "Stosstruppen: progressive
    // widening").
    double widening = 0.0;
    double widening_exponent = 0.5;
    // Widening at the other player's nodes (< 0: off, the same as
    // widening; needs widening > 0): there selection may visit only the
    // first max(1, ceil(opponent_widening * visits^widening_exponent))
    // children, so 0 admits only the opponent's best move by evaluate():
    // the tree answers a one-ply greedy opponent, whose choices are then
    // never noise the search must average over (an opponent model; Elo
    // figures: bench/README.md, "Stosstruppen: a greedy opponent model").
    double opponent_widening = -1.0;
    // A one-ply guard at the root (0: off; needs widening or eval_children):
    // the root moves whose evaluate() after the move is more than
    // root_margin below the best one's are never searched nor played, so
    // the search chooses among the moves a one-ply greedy player rates
    // (nearly) best, by their deeper values. Why: sibling lines searched to
    // different depths carry the evaluation's drift between phases, which
    // can outweigh the one-ply difference (bench/README.md, "Stosstruppen:
    // progressive widening").
    double root_margin = 0.0;
    // Rollouts that end when the turn passes (false: off): a rollout goes on
    // (rollout_sample's policy; chance sampled) until a decision of a player
    // other than the one who moved into the leaf (or the end, or
    // rollout_depth plies when that is > 0), then evaluate(). Every leaf is
    // then scored at the same point of the turn, the end of its mover's
    // run of decisions, so a sibling searched deeper into a long
    // multi-action turn does not gain the evaluation's drift over the
    // mover's own remaining actions (bench/README.md, "Stosstruppen:
    // progressive widening").
    bool rollout_turn_end = false;
    // With rollout_turn_end: how many further runs of decisions the rollout
    // plays after the leaf's mover's run before it scores (0: score when the
    // mover's run ends; 1: also the opponent's answer, scoring when the
    // decision passes back). A run is a maximal sequence of decisions by one
    // player; one ply sees none of the opponent's answer, and a leaf scored
    // after it does (bench/README.md, "Stosstruppen: the opponent's answer
    // in the rollout").
    int rollout_extra_runs = 0;
    // Chance nodes by expectation (plain MCTS only; false: off). A node whose
    // children are chance outcomes is valued, where its parent's UCB reads
    // it, as the probability-weighted mean of its visited outcomes' means
    // (renormalised over the visited probability), not as the raw mean of
    // its visits, and the outcome a simulation follows is the one furthest
    // below its share of the visits (p * (N + 1) - n largest; stratified,
    // not sampled). A move that leaves dice to roll is then compared with
    // its siblings without the noise of which outcomes the tree happened to
    // draw (bench/README.md, "Stosstruppen: chance by expectation").
    // Assumes zero-sum values (an outcome's mean is player 0's).
    bool chance_expectation = false;
    // A rollout ends (evaluate() of the position as it stands) at a chance
    // node whose sampled outcome's notation starts with this prefix (empty:
    // off). Stosstruppen's "card:" ends the rollout where the next sequence
    // card would be drawn, so a leaf is scored at the end of its mover's
    // phase and not after a further phase the card may hand the same side,
    // the bulk of the rollout's noise (bench/README.md, "Stosstruppen:
    // chance by expectation and the noise the search fights").
    char rollout_stop_prefix[16] = {0};
    int rollout_stop_len = 0;
    // The leaf evaluation: the game's evaluate() or the search's own weights.
    Evaluator eval;
    // The value of a rollout that ends at rollout_stop_prefix (stop_weights;
    // off: `eval` there too). The position there is the end of the mover's
    // phase, before the opponent can answer; weights fitted on such positions
    // against the value after the opponent's next phase price the answer one
    // ply cannot see (bench/README.md, "Stosstruppen: MCTS against greedy,
    // session 12").
    Evaluator stop_eval;
    bool stop_own = false;
    // Common random numbers at the root (plain MCTS only; false: off): the
    // chance outcomes of a simulation below the root (the tree's sampled
    // outcomes and the rollout's) are drawn from a stream seeded by the
    // number of earlier visits of the root move it follows, so the n-th
    // simulations of two root moves roll the same dice and draw the same
    // cards where their games line up. Their values' difference then has
    // less variance than each value (bench/README.md, "Stosstruppen: MCTS
    // against greedy, session 12").
    bool common_random = false;
    // The one-ply value as a prior worth k visits (plain MCTS; 0: off; needs
    // the children evaluated: widening or eval_children). A child's
    // evaluate() after its move (Node::eval) counts as prior_visits virtual
    // visits of that value in what UCB exploits and in the final root
    // choice: q = (k * prior + visits * mean) / (k + visits). Why: at
    // Stosstruppen's values a simulation is far noisier (SD 0.09-0.14) than
    // the one-ply gaps between moves (0.001-0.02), and the search's choice
    // got worse with more simulations (bench/README.md, "Session 13: more
    // simulations, not a better move"); with a prior the search starts from
    // the one-ply order and leaves it only when the visits outweigh it.
    // UCB's exploration term still counts real visits only.
    double prior_visits = 0.0;
    // With prior_visits: the prior is shifted onto the simulations' scale,
    // prior_i = eval_i + drift, drift = sum over the node's visited,
    // unproven children j of (value_sum_j - visits_j * eval_j) / their
    // visits (false: off, the raw evaluation). Why: eval is scored right
    // after the move, a simulation (rollout_turn_end) at the end of the
    // mover's run of decisions, and evaluate() rises along a run; an
    // unshifted prior then holds a child with few visits below one with
    // many by that drift, whatever their merits. The drift is estimated from
    // every simulation through the node (visit-weighted, not per child, so a
    // child seen once adds one noisy sample, not a whole vote), and being
    // one number per node it never reorders the priors themselves.
    bool prior_drift = false;
    // How deep the tree grows (0: no limit). A simulation that reaches a
    // node at this depth below the root rolls out from there instead of
    // expanding it; 1 is flat Monte Carlo over the root moves, each value
    // the mean of rollouts from that move. Why: with a greedy rollout
    // (rollout_sample -1) that plays on through the opponent's answer
    // (rollout_extra_runs), flat Monte Carlo is the rollout algorithm over
    // the greedy policy: every root move is scored by how greedy play
    // goes on from it, which a one-ply player cannot see, and no tree
    // policy's exploratory moves inside the mover's own phase add noise
    // (bench/README.md, "Stosstruppen: flat Monte Carlo over greedy play").
    int tree_depth = 0;
    // Beliefs from the opponent's play (ISMCTS only; 0: off). Each search
    // (run) first draws belief_samples determinizations of the searcher's
    // view and weighs each by exp(belief * v), v the evaluate() of it for the
    // searcher's opponent; each simulation then plays in one of them drawn
    // by weight (importance resampling). Why: the opponent has played to
    // make its position good under the hidden facts it knows, so the hidden
    // facts under which its position scores well are the likelier ones. In
    // Ardennes the opponent's Objective card is then read from the roads it
    // has built on: on 27,117 recorded positions the true card's log-loss
    // fell from 1.92 (uniform) to 1.51 at belief 12-16 (bench/README.md,
    // "Ardennes: the opponent's Objective card read from its play"). Drawn
    // once a search, not once a simulation: a weighing per simulation cost
    // Ardennes 42% of its simulations. It does nothing in a game whose
    // evaluate() reads only what both players see (Undaunted, Micro Armour).
    double belief = 0.0;
    int belief_samples = 256;
};

/* Value slot of a node's statistics: the chooser's (chance edges: player 0's). */
inline int seat_of(int chooser) { return chooser == 1 ? 1 : 0; }

/* The affine map of a node's children's means onto [0, 1] (identity when off). */
struct ValueScale {
    double lo = 0.0, inv = 1.0;
    double operator()(double mean) const { return (mean - lo) * inv; }
};

/* std::log(k) of a count, from a table below 4096: ISMCTS selection takes
 * the log of every legal child's availability count at every step (a tenth
 * of an Ardennes search in std::log). The table holds std::log's own
 * values, so the numbers are the same. */
inline double log_count(uint32_t k) {
    static const std::vector<double> table = [] {
        std::vector<double> t(4096);
        for (size_t i = 0; i < t.size(); i++) t[i] = std::log((double)i);
        return t;
    }();
    return k < table.size() ? table[k] : std::log((double)k);
}

/* The value of proven code `v` (for player 0) to player p. */
inline int proven_for(int8_t v, int p) { return p == 1 ? -v : v; }

/* prior_visits: the prior worth k visits blended with `visits` results of
 * mean `mean`, (k * prior + visits * mean) / (k + visits). One formula for
 * what UCB exploits (Worker) and how the root move is chosen (Mcts). */
inline double prior_blend(double k, double prior, double visits, double mean) {
    return visits > 0.0 ? (k * prior + visits * mean) / (k + visits) : prior;
}

/* prior_drift: the visit-weighted mean of (result - evaluate()) over the
 * moves added, the shift that puts a one-ply prior on the scale of results
 * scored later in the turn (MctsConfig::prior_drift). Inside one tree
 * (Worker) and over the threads' summed root statistics (Mcts). */
struct PriorDrift {
    double sum = 0.0, weight = 0.0;
    void add(double visits, double value_sum, double eval) {
        sum += value_sum - visits * eval;
        weight += visits;
    }
    double shift() const { return weight > 0.0 ? sum / weight : 0.0; }
};

class Worker {
   public:
    Worker(const ard_game *g, const MctsConfig *cfg, uint64_t seed, uint64_t node_limit)
        : g_(g), cfg_(cfg), pool_(node_limit) {
        size_t ss = g->state_size;
        state_.resize(ss);
        scratch_.resize(ss);
        legal_.resize((size_t)g->max_legal + 1);
        missing_.resize((size_t)g->max_legal + 1);
        probs_.resize((size_t)g->max_legal + 1);
        marks_.assign((size_t)g->num_actions, 0);
        // a node holds at most 65535 children; left uninitialized (no page
        // touched until a selection writes it: a bot is made per game)
        candidates_.reset(new Candidate[0x10000]);
        path_.reserve((size_t)g->max_game_length + 8);
        if (cfg->belief > 0.0) {
            belief_states_.resize(ss * (size_t)cfg->belief_samples);
            belief_weights_.resize((size_t)cfg->belief_samples);
        }
        seed_rng(seed);
    }

    void seed_rng(uint64_t seed) {
        ard_rng_seed(&rng_, seed);
        crn_base_ = seed ^ 0x6a09e667f3bcc909ULL;
    }

    /* Only `allowed` root actions become root edges (UCI's searchmoves);
     * empty: all. Set before run(); the tree must not already hold other
     * root edges (the orchestrator starts a fresh tree for a restricted search). */
    void set_root_filter(const std::vector<ard_action> &allowed) {
        root_allowed_.clear();
        if (allowed.empty()) return;
        root_allowed_.assign((size_t)g_->num_actions, 0);
        for (ard_action a : allowed) root_allowed_[(size_t)a] = 1;
    }
    void set_node_limit(uint64_t limit) { pool_.set_limit(limit); }

    /* A fresh tree rooted at `root` (full state, or the owner's view in ISMCTS). */
    void new_tree(const uint8_t *root) {
        pool_.clear();
        root_ = pool_.alloc(1);
        init_node(pool_[root_], -1, 1.0f, (int8_t)root_player(root));
    }

    /* Moves the root down the edges `keys` (actions; ARD_HIDDEN_OUTCOME for
     * hidden chance outcomes and hidden opponent moves in ISMCTS) and keeps that subtree, copied into a
     * compact pool. False (tree untouched) if an edge is not in the tree. */
    bool advance(const std::vector<ard_action> &keys, const uint8_t *new_root) {
        if (root_ < 0) return false;
        int32_t cur = root_;
        for (ard_action k : keys) {
            const Node &n = pool_[cur];
            int32_t next = -1;
            for (uint32_t i = 0; i < n.num_children; i++) {
                const Node &ch = pool_[n.first_child + (int32_t)i];
                if (ch.action == k && !ch.shadow) next = n.first_child + (int32_t)i;
            }
            if (next < 0) return false;
            cur = next;
        }
        if (!keys.empty()) compact(cur);
        Node &r = pool_[root_];
        int p = root_player(new_root);
        if (r.chooser != p && (r.chooser == 1 || p == 1)) r.value_sum = -r.value_sum;  // zero-sum flip
        r.chooser = (int8_t)p;
        r.action = -1;
        r.prob = 1.0f;
        return true;
    }

    /* Frees the tree and its memory. */
    void release() {
        pool_.release();
        root_ = -1;
    }

    /* Runs simulations until `budget` is spent (0: no simulation budget),
     * the deadline passes (deadline_s <= 0: none), `stop` is raised, the
     * root is proven or `enough(hook_ctx)` (asked after every simulation)
     * says so. Always runs at least one simulation. The deadline counts wall
     * time since t0, or with set_cpu_clock(true) this thread's own CPU time
     * since the call (each thread checks its own). */
    void run(const uint8_t *root, uint64_t budget, double deadline_s, Clock::time_point t0,
             const std::atomic<bool> &stop, std::atomic<uint64_t> &sims_counter,
             void (*hook)(void *) = nullptr, void *hook_ctx = nullptr, bool (*enough)(void *) = nullptr) {
        root_state_ = root;
        weigh_beliefs(root);
        SearchClock clock;
        clock.start(cpu_clock_, t0);
        uint64_t done = 0;
        for (;;) {
            simulate();
            done++;
            sims_counter.store(done, std::memory_order_relaxed);
            nodes_.store(pool_.nodes(), std::memory_order_relaxed);
            if (hook && (done & 255) == 0) hook(hook_ctx);
            if (budget && done >= budget) break;
            if (enough && enough(hook_ctx)) break;
            if (stop.load(std::memory_order_relaxed)) break;
            if (pool_[root_].proven != kUnproven) break;
            if (deadline_s > 0 && (done & 15) == 0 && clock.elapsed() >= deadline_s) break;
        }
        simulations_ += done;
        last_simulations_ = done;
        last_cpu_seconds_ = clock.cpu_used();
    }

    /* Whether run()'s deadline counts this thread's CPU time (true) or wall time. */
    void set_cpu_clock(bool cpu) { cpu_clock_ = cpu; }

    /* --- results (read after run) --- */
    NodePool &pool() { return pool_; }
    const NodePool &pool() const { return pool_; }
    int32_t root() const { return root_; }
    uint64_t rollout_plies() const { return rollout_plies_; }
    uint64_t rollouts() const { return rollouts_; }
    uint64_t last_simulations() const { return last_simulations_; }
    double last_cpu_seconds() const { return last_cpu_seconds_; }  // CPU time of the last run()
    bool memory_full() const { return memory_full_; }
    const std::atomic<uint64_t> &nodes_counter() const { return nodes_; }
    /* The value UCB exploits for visited child ch (for its chooser): the
     * mean, or with chance_expectation the expectation over its outcomes,
     * blended with the implicit minimax value; edges() reports it. */
    double exploited_value(const Node &ch) const { return ch.visits ? q_value(ch) : 0.0; }
    void reset_stats() {
        rollout_plies_ = rollouts_ = 0;
        memory_full_ = false;
    }

   private:
    int root_player(const uint8_t *root) const {
        int p = g_->current_player(root);
        return p == ARD_CHANCE || p == 0 || p == 1 ? p : 0;
    }

    /* ---------- one simulation ---------- */

    /* MctsConfig::belief, at the start of a search: belief_samples
     * determinizations of the root view, each weighed by exp(belief *
     * evaluate(d, opponent)), kept with their cumulative weights. No
     * allocation: the buffers are sized at construction. */
    void weigh_beliefs(const uint8_t *root) {
        belief_owner_ = -1;
        if (cfg_->belief <= 0.0 || !cfg_->ismcts) return;
        const int owner = g_->viewer(root);
        if (owner < 0) return;
        const size_t ss = g_->state_size;
        const int m = cfg_->belief_samples;
        double top = -1e300;
        for (int i = 0; i < m; i++) {
            uint8_t *d = belief_states_.data() + ss * (size_t)i;
            std::memcpy(d, root, ss);
            g_->determinize(d, owner, &rng_);
            double v = cfg_->eval(d, 1 - owner);
            belief_weights_[(size_t)i] = v;
            if (v > top) top = v;
        }
        double total = 0.0;
        for (int i = 0; i < m; i++) {
            total += std::exp(cfg_->belief * (belief_weights_[(size_t)i] - top));
            belief_weights_[(size_t)i] = total;
        }
        belief_owner_ = owner;
    }

    /* One of weigh_beliefs()'s determinizations, drawn by weight, into s
     * (in place of the root's copy: one copy a simulation, as without belief). */
    void draw_believed(uint8_t *s) {
        const int m = cfg_->belief_samples;
        const double u = ard_rng_double(&rng_) * belief_weights_[(size_t)m - 1];
        const double *w = belief_weights_.data();
        int pick = (int)(std::upper_bound(w, w + m, u) - w);
        if (pick >= m) pick = m - 1;
        std::memcpy(s, belief_states_.data() + g_->state_size * (size_t)pick, g_->state_size);
    }

    void simulate() {
        uint8_t *s = state_.data();
        int owner = -1;
        if (belief_owner_ >= 0) {  // the root is this player's view: one weighed determinization of it
            owner = belief_owner_;
            draw_believed(s);
        } else {
            std::memcpy(s, root_state_, g_->state_size);
            if (cfg_->ismcts) {
                owner = g_->viewer(s);
                if (owner >= 0) g_->determinize(s, owner, &rng_);
            }
        }
        path_.clear();
        path_.push_back(root_);
        chance_rng_ = &rng_;
        double r[2] = {0.0, 0.0};
        bool newly_proven = false;
        int32_t idx = root_;
        for (;;) {
            Node &n = pool_[idx];
            if (n.proven != kUnproven) {
                r[0] = n.proven;
                r[1] = -r[0];
                break;
            }
            int p = g_->current_player(s);
            if (p == ARD_TERMINAL) {
                g_->returns(s, r);
                newly_proven = prove_terminal(n, r);
                break;
            }
            at_root_ = idx == root_;
            int32_t child = cfg_->ismcts ? step_ismcts(n, s, p, owner) : step_plain(n, s, p);
            if (child < 0) {  // no room to grow: play on from this leaf
                rollout(s, r, pool_[idx].chooser);
                break;
            }
            path_.push_back(child);
            if (cfg_->common_random && idx == root_) {
                // the n-th visit of every root move gets the same chance stream
                ard_rng_seed(&crn_rng_, crn_base_ + 0x9E3779B97F4A7C15ULL * (uint64_t)pool_[child].visits);
                chance_rng_ = &crn_rng_;
            }
            g_->apply(s, pool_[child].action == ARD_HIDDEN_OUTCOME ? hidden_sampled_ : pool_[child].action);
            // a node was just expanded, or the tree may not grow below this
            // depth (tree_depth): rollout from the child
            if (leaf_ || (cfg_->tree_depth > 0 && (int)path_.size() > cfg_->tree_depth)) {
                leaf_ = false;
                Node &leaf = pool_[child];
                if (g_->current_player(s) == ARD_TERMINAL) {
                    g_->returns(s, r);
                    leaf.eval = (float)r[seat_of(leaf.chooser)];
                    newly_proven = prove_terminal(leaf, r);
                } else {
                    if (cfg_->minimax_weight > 0.0) leaf.eval = (float)cfg_->eval(s, seat_of(leaf.chooser));
                    rollout(s, r, leaf.chooser);
                }
                break;
            }
            idx = child;
        }
        backpropagate(r, newly_proven);
    }

    bool prove_terminal(Node &n, const double *r) {
        if (!cfg_->solver || cfg_->ismcts || n.proven != kUnproven) return false;
        if (r[0] != 1.0 && r[0] != 0.0 && r[0] != -1.0) return false;
        n.proven = (int8_t)r[0];
        return true;
    }

    /* Plain MCTS: the child to follow from node n (state s, player p), or -1. */
    int32_t step_plain(Node &n, uint8_t *s, int p) {
        if (!n.expanded) {
            if (!expand_plain(n, s, p)) return -1;
            if (p != ARD_CHANCE && (!cfg_->eval_children || cfg_->widening > 0.0)) {
                leaf_ = true;
                return n.first_child;  // shuffled: a random untried one (widening: sorted, the best)
            }
        }
        if (p == ARD_CHANCE) return cfg_->chance_expectation ? stratified_child(n) : sample_child(n);
        int32_t c = select_uct(n, p);
        if ((cfg_->eval_children || cfg_->widening > 0.0) && pool_[c].visits == 0) leaf_ = true;
        return c;
    }

    bool expand_plain(Node &n, uint8_t *s, int p) {
        int count;
        if (p == ARD_CHANCE) {
            count = g_->chance_outcomes(s, legal_.data(), probs_.data());
        } else {
            count = keep_allowed_at_root(g_->legal_actions(s, legal_.data()));
            shuffle(legal_.data(), count);
        }
        if (count <= 0) return false;
        int32_t block = pool_.alloc((uint32_t)count);
        if (block < 0) {
            memory_full_ = true;
            return false;
        }
        for (int i = 0; i < count; i++) {
            init_node(pool_[block + i], legal_[(size_t)i], p == ARD_CHANCE ? (float)probs_[(size_t)i] : 1.0f,
                      (int8_t)p);
            if (p != ARD_CHANCE) evaluate_child(pool_[block + i], s, p);
        }
        if (p != ARD_CHANCE && cfg_->widening > 0.0) order_by_eval(block, count);
        n.first_child = block;
        n.num_children = n.capacity = (uint16_t)count;
        n.expanded = 1;
        return true;
    }

    /* At a filtered root, drops the legal_ entries outside the filter; the new count. */
    int keep_allowed_at_root(int count) {
        if (!at_root_ || root_allowed_.empty() || count <= 0) return count;
        int kept = 0;
        for (int i = 0; i < count; i++)
            if (root_allowed_[(size_t)legal_[(size_t)i]]) legal_[(size_t)kept++] = legal_[(size_t)i];
        return kept;
    }

    int32_t sample_child(const Node &n) {
        double u = ard_rng_double(chance_rng_);
        for (uint32_t i = 0; i + 1 < n.num_children; i++) {
            u -= pool_[n.first_child + (int32_t)i].prob;
            if (u < 0.0) return n.first_child + (int32_t)i;
        }
        return n.first_child + (int32_t)n.num_children - 1;
    }

    /* chance_expectation: the outcome furthest below its share p * (N + 1)
     * of the node's visits (the first on ties), so outcomes are visited in
     * proportion to their probabilities without sampling noise. */
    int32_t stratified_child(const Node &n) const {
        const double total = (double)n.visits + 1.0;
        int32_t best = n.first_child;
        double best_gap = -1e300;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            double gap = (double)ch.prob * total - (double)ch.visits;
            if (gap > best_gap) {
                best_gap = gap;
                best = n.first_child + (int32_t)i;
            }
        }
        return best;
    }

    /* chance_expectation: ch's value for its chooser as the probability-
     * weighted mean of its visited chance outcomes (nested chance nodes
     * likewise); false when ch has no visited outcome yet (then the raw mean
     * stands). No allocation, bounded by the outcomes' count and nesting. */
    bool expected_value(const Node &ch, double *out) const {
        if (!cfg_->chance_expectation || !ch.expanded || ch.num_children == 0 ||
            pool_[ch.first_child].chooser != ARD_CHANCE)
            return false;
        double sum = 0.0, mass = 0.0;
        for (uint32_t i = 0; i < ch.num_children; i++) {
            const Node &o = pool_[ch.first_child + (int32_t)i];
            if (o.visits == 0) continue;
            double v0;  // the outcome's value for player 0 (its chooser is chance: seat 0)
            if (o.proven != kUnproven) {
                v0 = o.proven;
            } else if (!expected_value(o, &v0)) {  // a nested chance node: its expectation
                v0 = o.value_sum / o.visits;
            }
            sum += (double)o.prob * v0;
            mass += (double)o.prob;
        }
        if (mass <= 0.0) return false;
        double v = sum / mass;
        *out = seat_of(ch.chooser) == 0 ? v : -v;
        return true;
    }

    /* Progressive widening: how many of n's children (ordered best first)
     * selection may consider at a node where p moves; all of them when
     * widening is off; opponent_widening's count at the other player's. */
    uint32_t widened(const Node &n, int p) const {
        if (cfg_->widening <= 0.0) return n.num_children;
        const bool theirs = cfg_->opponent_widening >= 0.0 && p != pool_[root_].chooser;
        const double coefficient = theirs ? cfg_->opponent_widening : cfg_->widening;
        double k = std::ceil(coefficient * std::pow((double)n.visits, cfg_->widening_exponent));
        if (!(k >= 1.0)) return n.num_children ? 1u : 0u;
        return k >= (double)n.num_children ? n.num_children : (uint32_t)k;
    }

    /* root_margin: the lowest evaluation a root move may have (-inf: off). */
    double root_floor(const Node &n) const {
        if (cfg_->root_margin <= 0.0) return -1e300;
        double top = -1e300;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.has_eval && ch.eval > top) top = ch.eval;
        }
        return top - cfg_->root_margin;
    }

    /* Sorts the fresh children block [block, block + count) by their
     * evaluation, best for the mover first (in place, no allocation; the
     * block was shuffled, so equal scores keep a random order). */
    void order_by_eval(int32_t block, int count) {
        Node *first = &pool_[block];
        std::sort(first, first + count, [](const Node &a, const Node &b) { return a.eval > b.eval; });
    }

    /* UCT with the solver: a proven win is taken at once, proven losses are
     * never explored, an unvisited child comes first. */
    int32_t select_uct(const Node &n, int p) {
        const double c = cfg_->exploration;
        const double log_n = std::log((double)(n.visits > 0 ? n.visits : 1));
        const double shift = prior_shift(n, p);  // 0 unless prior_drift
        const ValueScale scale = value_scale(n, p, shift);
        const uint32_t admitted = widened(n, p);
        const double min_eval = at_root_ ? root_floor(n) : -1e300;
        int32_t best = -1;
        double best_score = -1e300;
        for (uint32_t i = 0; i < admitted; i++) {
            int32_t ci = n.first_child + (int32_t)i;
            const Node &ch = pool_[ci];
            if (ch.has_eval && ch.eval < min_eval && ch.proven == kUnproven) continue;  // root_margin
            double mean;
            if (ch.proven != kUnproven) {
                int v = proven_for(ch.proven, p);
                if (v > 0) return ci;
                if (v < 0) continue;
                mean = 0.0;
                if (ch.visits == 0) return ci;
            } else {
                if (ch.visits == 0) {
                    if (!ch.has_eval || cfg_->widening > 0.0) return ci;  // (widening: newly admitted)
                }
                // unvisited: the heuristic prior as one virtual visit (prior_visits: as k)
                mean = scale(exploited(ch, shift));
            }
            double score = mean + c * std::sqrt(log_n / (ch.visits ? ch.visits : 1));
            if (score > best_score) {
                best_score = score;
                best = ci;
            }
        }
        if (best < 0 && admitted < n.num_children) return n.first_child + (int32_t)admitted;  // all admitted lose: widen
        return best >= 0 ? best : n.first_child;
    }

    /* ISMCTS: the child (edge key) to follow from node n, or -1. */
    int32_t step_ismcts(Node &n, uint8_t *s, int p, int owner) {
        if (p == ARD_CHANCE) {
            ard_action a = g_->sample_chance(s, &rng_);
            ard_action key = (owner >= 0 && !g_->action_visible(s, a, owner)) ? ARD_HIDDEN_OUTCOME : a;
            hidden_sampled_ = a;  // what to apply if the edge is the merged hidden one
            n.expanded = 1;
            int32_t c = find_child(n, key, ARD_CHANCE);
            if (c < 0) {
                legal_[0] = key;
                c = add_children(n, legal_.data(), 1, ARD_CHANCE);
            }
            return c;
        }
        // (a restricted root whose actions are all illegal in this
        // determinization just rolls out: it never gains another edge)
        int count = keep_allowed_at_root(g_->legal_actions(s, legal_.data()));
        if (count <= 0) return -1;
        // marks_: stamp = legal now, stamp + 1 = legal and already a child
        stamp_ += 2;
        if (stamp_ >= 0x7ffffff0u) {
            std::fill(marks_.begin(), marks_.end(), 0u);
            stamp_ = 2;
        }
        for (int i = 0; i < count; i++) marks_[(size_t)legal_[(size_t)i]] = stamp_;
        for (uint32_t i = 0; i < n.num_children; i++) {
            Node &ch = pool_[n.first_child + (int32_t)i];
            // A node can be a chance node or another player's decision in other
            // determinizations (when turn order depends on hidden information):
            // only edges of this mover count here. The '?' edge is no move of its own.
            if (ch.chooser != p || ch.action < 0) continue;
            uint32_t &m = marks_[(size_t)ch.action];
            if (m == stamp_) {
                m = stamp_ + 1;
                ch.avail++;
            }
        }
        int missing = 0;
        for (int i = 0; i < count; i++)
            if (marks_[(size_t)legal_[(size_t)i]] == stamp_) missing_[(size_t)missing++] = legal_[(size_t)i];
        n.expanded = 1;
        // An opponent's move the searcher will not see (a secret bid) becomes a
        // shadow entry: the opponent's own statistics for it, so that it picks
        // its secret moves by UCB as it picks its open ones.
        const bool opponent = owner >= 0 && p != owner;
        int32_t pick = -1;
        bool fresh = false;
        if (missing > 0) {
            shuffle(missing_.data(), missing);
            int32_t first_new = add_children(n, missing_.data(), missing, (int8_t)p);
            if (first_new >= 0) {
                for (int i = 0; i < missing; i++) {
                    Node &ch = pool_[first_new + i];
                    ch.avail++;
                    if (opponent && !g_->action_visible(s, ch.action, owner)) ch.shadow = 1;
                    evaluate_child(ch, s, p);
                    marks_[(size_t)ch.action] = stamp_ + 1;  // legal and now a child
                }
                if (!cfg_->eval_children) {
                    pick = first_new;
                    fresh = true;
                }
            }
        }
        if (pick < 0) {
            pick = select_available(n, p);
            if (pick >= 0 && cfg_->eval_children) fresh = pool_[pick].visits == 0;
        }
        if (pick < 0) return -1;
        if (!pool_[pick].shadow) {
            leaf_ = fresh;
            return pick;
        }
        return through_hidden_edge(n, pick, p);
    }

    /* The opponent chose shadow entry `pick` of node n: the move is played
     * in this determinization, but the tree goes on through the single '?'
     * edge, so the searcher's later nodes cannot depend on the secret move.
     * The shadow entry joins the path and learns from the result too. */
    int32_t through_hidden_edge(Node &n, int32_t pick, int p) {
        hidden_sampled_ = pool_[pick].action;
        const int32_t offset = pick - n.first_child;  // adding the '?' edge may move the block
        int32_t q = find_child(n, ARD_HIDDEN_OUTCOME, p);
        if (q < 0) {
            const ard_action key = ARD_HIDDEN_OUTCOME;
            q = add_children(n, &key, 1, (int8_t)p);
            if (q < 0) return -1;
            leaf_ = true;
        }
        path_.push_back(n.first_child + offset);
        return q;
    }

    /* UCB over the children legal in this determinization, with the
     * availability count in place of the parent's visits. One pass over the
     * block gathers them, each with its value and exploration term (and,
     * with normalize, the spread of the visited ones' means: value_scale's,
     * without a second pass); a second pass scores the gathered ones. */
    int32_t select_available(const Node &n, int p) {
        const double c = cfg_->exploration;
        const bool normalize = cfg_->normalize;
        const bool blend = cfg_->prior_visits > 0.0;  // exploited() is not q_value()
        double lo = 1e300, hi = -1e300;
        size_t k = 0;
        for (uint32_t i = 0; i < n.num_children; i++) {
            int32_t ci = n.first_child + (int32_t)i;
            const Node &ch = pool_[ci];
            if (ch.chooser != p || ch.action < 0 || marks_[(size_t)ch.action] != stamp_ + 1) continue;
            Candidate &cd = candidates_[k++];
            cd.index = ci;
            if (ch.visits == 0) {
                if (!ch.has_eval) return ci;
                // the heuristic prior, as one virtual visit
                cd.value = ch.eval;
                cd.explore = std::sqrt(log_count(ch.avail));
                continue;
            }
            cd.value = q_value(ch);
            cd.explore = std::sqrt(log_count(ch.avail) / ch.visits);
            if (normalize && ch.proven == kUnproven) {
                const double m = blend ? exploited(ch, 0.0) : cd.value;
                lo = m < lo ? m : lo;
                hi = m > hi ? m : hi;
            }
        }
        ValueScale scale;
        if (hi > lo + 1e-9) {
            scale.lo = lo;
            scale.inv = 1.0 / (hi - lo);
        }
        int32_t best = -1;
        double best_score = -1e300;
        for (size_t j = 0; j < k; j++) {
            const Candidate &cd = candidates_[j];
            double score = scale(cd.value) + c * cd.explore;
            if (score > best_score) {
                best_score = score;
                best = cd.index;
            }
        }
        return best;
    }

    /* The spread of the visited, unproven children's means that selection
     * at n compares (ISMCTS gathers its own: select_available). */
    ValueScale value_scale(const Node &n, int p, double shift) const {
        ValueScale s;
        if (!cfg_->normalize) return s;
        double lo = 1e300, hi = -1e300;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.visits == 0 || ch.proven != kUnproven || ch.chooser != p) continue;
            double m = exploited(ch, shift);
            lo = m < lo ? m : lo;
            hi = m > hi ? m : hi;
        }
        if (hi > lo + 1e-9) {
            s.lo = lo;
            s.inv = 1.0 / (hi - lo);
        }
        return s;
    }

    int32_t find_child(const Node &n, ard_action key, int chooser) const {
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.action == key && ch.chooser == chooser && !ch.shadow) return n.first_child + (int32_t)i;
        }
        return -1;
    }

    /* Appends k children to n's block, moving the block when it is full
     * (the old block is abandoned: growth is rare). Index of the first new
     * child, or -1 when the pool is full. */
    int32_t add_children(Node &n, const ard_action *keys, int k, int8_t chooser) {
        uint32_t need = (uint32_t)n.num_children + (uint32_t)k;
        if (need > 0xffffu) return -1;
        if (need > n.capacity) {
            uint32_t cap = need < 4 ? 4 : need;
            if (n.num_children > 0 && cap < 2u * n.num_children) cap = 2u * n.num_children;
            if (cap > 0xffffu) cap = 0xffffu;
            int32_t block = pool_.alloc(cap);
            if (block < 0) {
                memory_full_ = true;
                return -1;
            }
            for (uint32_t i = 0; i < n.num_children; i++) pool_[block + (int32_t)i] = pool_[n.first_child + (int32_t)i];
            n.first_child = block;
            n.capacity = (uint16_t)cap;
        }
        int32_t first_new = n.first_child + n.num_children;
        for (int i = 0; i < k; i++) init_node(pool_[first_new + i], keys[i], 1.0f, chooser);
        n.num_children = (uint16_t)need;
        return first_new;
    }

    /* Random playout from s to the end or the depth cut-off; r gets one value
     * per player. `mover`: who moved into the leaf (rollout_turn_end). */
    void rollout(uint8_t *s, double *r, int mover) {
        const bool turn_end = cfg_->rollout_turn_end;
        const int depth = turn_end && cfg_->rollout_depth == 0 ? -1 : cfg_->rollout_depth;
        const int cap = g_->max_game_length * 2 + 16;  // guard against a game that never ends
        int owner = mover == 0 || mover == 1 ? mover : -1;  // -1: the first decision's player
        int plies = 0;
        int runs_ended = 0;  // changes of the deciding player so far
        for (;;) {
            int p = g_->current_player(s);
            if (p == ARD_TERMINAL) {
                g_->returns(s, r);
                break;
            }
            bool passed = false;  // rollout_turn_end: the last run to play has ended, score here
            if (turn_end && p != ARD_CHANCE) {
                if (owner < 0) owner = p;
                if (p != owner) {
                    owner = p;
                    runs_ended++;
                }
                passed = runs_ended > cfg_->rollout_extra_runs;
            }
            if (passed || (depth >= 0 && plies >= depth) || plies >= cap) {
                r[0] = cfg_->eval(s, 0);
                r[1] = cfg_->eval(s, 1);
                break;
            }
            ard_action a;
            if (p == ARD_CHANCE) {
                a = g_->sample_chance(s, chance_rng_);
                if (cfg_->rollout_stop_len > 0 && stops_rollout(s, a)) {
                    const Evaluator &e = cfg_->stop_own ? cfg_->stop_eval : cfg_->eval;
                    r[0] = e(s, 0);
                    r[1] = e(s, 1);
                    break;
                }
            } else {
                int n = g_->legal_actions(s, legal_.data());
                a = rollout_move(s, p, n);
            }
            g_->apply(s, a);
            plies++;
        }
        rollout_plies_ += (uint64_t)plies;
        rollouts_++;
    }

    /* rollout_stop_prefix: whether chance outcome a's notation starts with it. */
    bool stops_rollout(const uint8_t *s, ard_action a) const {
        char buf[ARD_NOTATION_MAX];  // the size the ABI asks for
        int n = g_->action_to_string(s, a, buf, (int)sizeof buf);
        return n >= cfg_->rollout_stop_len && std::memcmp(buf, cfg_->rollout_stop_prefix, (size_t)cfg_->rollout_stop_len) == 0;
    }

    /* The rollout policy's move among legal_[0..n) for mover p (see MctsConfig). */
    ard_action rollout_move(const uint8_t *s, int p, int n) {
        const int k = cfg_->rollout_sample;
        if (k == 0 || n == 1 || (cfg_->rollout_epsilon > 0.0 && ard_rng_double(&rng_) < cfg_->rollout_epsilon))
            return legal_[ard_rng_below(&rng_, (uint32_t)n)];
        const int m = (k < 0 || k >= n) ? n : k;
        // a partial Fisher-Yates shuffle: the first m entries are a uniform
        // sample, in random order, so ties go to a random one of the best
        for (int i = 0; i < m; i++) {
            int j = i + (int)ard_rng_below(&rng_, (uint32_t)(n - i));
            ard_action tmp = legal_[i];
            legal_[i] = legal_[j];
            legal_[j] = tmp;
        }
        uint8_t *t = scratch_.data();
        ard_action best = legal_[0];
        double best_v = -HUGE_VAL;
        for (int i = 0; i < m; i++) {
            std::memcpy(t, s, g_->state_size);
            g_->apply(t, legal_[i]);
            double v;
            if (g_->current_player(t) == ARD_TERMINAL) {
                double r[2];
                g_->returns(t, r);
                v = 2.0 * r[seat_of(p)];  // a decided game outranks any evaluation
            } else {
                v = cfg_->eval(t, seat_of(p));
            }
            if (v > best_v) {
                best_v = v;
                best = legal_[i];
            }
        }
        return best;
    }

    void backpropagate(const double *r, bool newly_proven) {
        for (size_t i = path_.size(); i-- > 0;) {
            Node &n = pool_[path_[i]];
            n.visits++;
            n.value_sum += r[n.chooser == 1 ? 1 : 0];
        }
        if (cfg_->minimax_weight > 0.0)
            for (size_t i = path_.size(); i-- > 0;) back_up_eval(pool_[path_[i]]);
        if (!newly_proven) return;
        for (size_t i = path_.size() - 1; i-- > 0;)
            if (!try_prove(pool_[path_[i]])) break;
    }

    /* Implicit minimax: n's eval from its visited children's (the mover's
     * best; chance: the visit-weighted mean). Shadow entries are no subtree. */
    void back_up_eval(Node &n) {
        int seat = seat_of(n.chooser);
        double best = -1e300, sum = 0.0;
        uint64_t weight = 0;
        bool any = false;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if ((ch.visits == 0 && !ch.has_eval) || ch.shadow) continue;
            double v = seat_of(ch.chooser) == seat ? ch.eval : -ch.eval;
            any = true;
            if (ch.chooser == ARD_CHANCE) {
                sum += v * ch.visits;
                weight += ch.visits;
            } else {
                double own = ch.eval;  // the mover maximizes its own value
                if (own > best) {
                    best = own;
                    n.eval = (float)v;
                }
            }
        }
        if (any && weight > 0) n.eval = (float)(sum / (double)weight);
    }

    /* eval_children: ch.eval = evaluate() after ch's move from s (mover p). */
    void evaluate_child(Node &ch, const uint8_t *s, int p) {
        if ((!cfg_->eval_children && cfg_->widening <= 0.0) || ch.action < 0) return;
        uint8_t *t = scratch_.data();
        std::memcpy(t, s, g_->state_size);
        g_->apply(t, ch.action);
        if (g_->current_player(t) == ARD_TERMINAL) {
            double r[2];
            g_->returns(t, r);
            ch.eval = (float)r[seat_of(p)];
        } else {
            ch.eval = (float)cfg_->eval(t, seat_of(p));
        }
        ch.has_eval = 1;
    }

    /* The value UCB exploits: the mean, blended with the implicit minimax value. */
    double q_value(const Node &ch) const {
        double mean;
        if (!expected_value(ch, &mean)) mean = ch.value_sum / ch.visits;
        const double w = cfg_->minimax_weight;
        return w > 0.0 ? (1.0 - w) * mean + w * ch.eval : mean;
    }

    /* prior_visits: the drift added to the children's evaluations at node n
     * for mover p (see MctsConfig::prior_drift; 0 when off or unmeasured). */
    double prior_shift(const Node &n, int p) const {
        if (cfg_->prior_visits <= 0.0 || !cfg_->prior_drift) return 0.0;
        PriorDrift drift;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.visits == 0 || !ch.has_eval || ch.proven != kUnproven || ch.chooser != p || ch.shadow) continue;
            drift.add((double)ch.visits, ch.value_sum, (double)ch.eval);
        }
        return drift.shift();
    }

    /* The value UCB compares for child ch (visited, or evaluated when
     * unvisited): q_value, or with prior_visits the blend of the prior
     * (eval + shift) worth k visits with the child's visits. */
    double exploited(const Node &ch, double shift) const {
        const double k = cfg_->prior_visits;
        if (k <= 0.0 || !ch.has_eval) return ch.visits ? q_value(ch) : (double)ch.eval;
        const double prior = (double)ch.eval + shift;
        return prior_blend(k, prior, (double)ch.visits, ch.visits ? q_value(ch) : 0.0);
    }

    /* MCTS-Solver: a decision node is proven when one child is a proven win
     * for its mover or every child is proven (the mover takes the best); a
     * chance node only when every outcome is proven to the same value. */
    bool try_prove(Node &n) {
        if (n.proven != kUnproven || !n.expanded || n.num_children == 0) return false;
        int p = pool_[n.first_child].chooser;
        int best = -2;
        int8_t best_code = kUnproven;
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.proven == kUnproven) return p == ARD_CHANCE ? false : check_win(n, p);
            if (p == ARD_CHANCE) {
                if (best_code != kUnproven && ch.proven != best_code) return false;
                best_code = ch.proven;
                continue;
            }
            int v = proven_for(ch.proven, p);
            if (v > 0) {
                n.proven = ch.proven;
                return true;
            }
            if (v > best) {
                best = v;
                best_code = ch.proven;
            }
        }
        n.proven = best_code;
        return true;
    }

    /* Some child is unproven: the node is proven only by a winning child. */
    bool check_win(Node &n, int p) {
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool_[n.first_child + (int32_t)i];
            if (ch.proven != kUnproven && proven_for(ch.proven, p) > 0) {
                n.proven = ch.proven;
                return true;
            }
        }
        return false;
    }

    /* Copies the subtree at `sub` into a fresh pool, children blocks kept
     * contiguous, and makes it the root. */
    void compact(int32_t sub) {
        NodePool fresh;
        fresh.swap(pool_);  // fresh holds the old tree; pool_ starts empty
        pool_.set_limit(fresh.limit());
        int32_t nr = pool_.alloc(1);
        pool_[nr] = fresh[sub];
        std::vector<std::pair<int32_t, int32_t>> queue;  // (old, new); once per move, not per simulation
        queue.emplace_back(sub, nr);
        for (size_t qi = 0; qi < queue.size(); qi++) {
            int32_t old_i = queue[qi].first, new_i = queue[qi].second;
            const Node &on = fresh[old_i];
            uint32_t k = on.num_children;
            if (k == 0) {
                pool_[new_i].first_child = -1;
                pool_[new_i].capacity = 0;
                continue;
            }
            int32_t block = pool_.alloc(k);
            if (block < 0) {  // cannot happen: the subtree fits where the whole tree did
                pool_[new_i].first_child = -1;
                pool_[new_i].num_children = pool_[new_i].capacity = 0;
                pool_[new_i].expanded = 0;
                continue;
            }
            pool_[new_i].first_child = block;
            pool_[new_i].capacity = (uint16_t)k;
            for (uint32_t i = 0; i < k; i++) {
                pool_[block + (int32_t)i] = fresh[on.first_child + (int32_t)i];
                queue.emplace_back(on.first_child + (int32_t)i, block + (int32_t)i);
            }
        }
        root_ = nr;
    }

    void shuffle(ard_action *a, int n) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)ard_rng_below(&rng_, (uint32_t)(i + 1));
            ard_action t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    const ard_game *g_;
    const MctsConfig *cfg_;
    NodePool pool_;
    int32_t root_ = -1;
    ard_rng rng_;
    // common_random: the stream chance outcomes are drawn from in this
    // simulation (rng_, or crn_rng_ once the root move is chosen)
    ard_rng crn_rng_;
    ard_rng *chance_rng_ = &rng_;
    uint64_t crn_base_ = 0;
    const uint8_t *root_state_ = nullptr;
    std::vector<uint8_t> state_, scratch_;
    std::vector<uint8_t> belief_states_;  // belief: this search's determinizations
    std::vector<double> belief_weights_;  // and their cumulative weights
    int belief_owner_ = -1;               // whose view they fill (-1: none drawn)
    std::vector<ard_action> legal_, missing_;
    std::vector<double> probs_;
    std::vector<uint32_t> marks_;
    uint32_t stamp_ = 0;
    struct Candidate {
        int32_t index;
        double value, explore;
    };
    std::unique_ptr<Candidate[]> candidates_;  // select_available's children legal now
    std::vector<int32_t> path_;
    ard_action hidden_sampled_ = 0;
    bool leaf_ = false;
    bool at_root_ = false;               // the current step is at the root node
    std::vector<uint8_t> root_allowed_;  // per action: 1 = may be a root edge; empty: no filter
    bool memory_full_ = false;
    uint64_t rollout_plies_ = 0, rollouts_ = 0, simulations_ = 0, last_simulations_ = 0;
    std::atomic<uint64_t> nodes_{0};
    bool cpu_clock_ = false;         // run()'s deadline counts this thread's CPU time
    double last_cpu_seconds_ = 0.0;  // CPU time this thread spent in the last run()
};

}  // namespace ard

#endif
