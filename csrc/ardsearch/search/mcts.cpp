/* ardsearch._search.MCTS: root-parallel MCTS / information-set MCTS over any
 * game behind the ABI. The trees live in mcts_worker.h; this file owns the
 * threads, budgets, tree reuse between moves, the merge of the root
 * statistics and the Python binding. */
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "common.h"
#include "mcts_worker.h"

namespace ard {

namespace {

/* Applies `a` to s if it is a legal move or chance outcome there (HIDDEN
 * only on a view: an unseen chance outcome, or a move of the view's
 * opponent that its owner did not see). */
bool apply_if_legal(const ard_game *g, uint8_t *s, ard_action a, std::vector<ard_action> &acts,
                    std::vector<double> &probs) {
    int p = g->current_player(s);
    if (p == ARD_TERMINAL) return false;
    bool ok = false;
    if (p == ARD_CHANCE) {
        if (a == ARD_HIDDEN_OUTCOME) {
            ok = g->viewer(s) >= 0;
        } else {
            int n = g->chance_outcomes(s, acts.data(), probs.data());
            ok = std::find(acts.begin(), acts.begin() + n, a) != acts.begin() + n;
        }
    } else if (a == ARD_HIDDEN_OUTCOME) {
        int owner = g->viewer(s);
        ok = owner >= 0 && owner != p;
    } else {
        int n = g->legal_actions(s, acts.data());
        ok = std::find(acts.begin(), acts.begin() + n, a) != acts.begin() + n;
    }
    if (ok) g->apply(s, a);
    return ok;
}

struct RootStat {
    uint64_t visits = 0;
    double value_sum = 0.0;
    int8_t proven = kUnproven;
    double eval = -1e300;  // evaluate() after the move, if the search scored it (root_margin, prior_visits)
};

}  // namespace

class Mcts {
   public:
    Mcts(py::object capsule, uint64_t seed, int threads, double exploration, int rollout_depth, bool solver,
         double max_memory_mb, py::object ismcts, bool normalize, double minimax_weight, bool eval_children,
         double final_lcb, py::object weights, int rollout_sample, double rollout_epsilon, double widening,
         double widening_exponent, double root_margin, bool rollout_turn_end, int rollout_extra_runs,
         bool chance_expectation, std::string rollout_stop_prefix, py::object stop_weights,
         bool common_random, double prior_visits, bool prior_drift, int tree_depth, double belief,
         int belief_samples, double opponent_widening)
        : capsule_(std::move(capsule)), g_(game_from_capsule(capsule_)), seed_(seed) {
        cfg_.eval = make_evaluator(g_, weights);
        if (threads < 1 || threads > 256) throw py::value_error("threads must be between 1 and 256");
        if (!(exploration >= 0.0)) throw py::value_error("exploration must be >= 0");
        if (rollout_depth < -1) throw py::value_error("rollout_depth must be -1 (play to the end) or >= 0");
        if (!(max_memory_mb >= 1.0)) throw py::value_error("max_memory_mb must be at least 1");
        if (g_->max_legal > 0xffff) throw py::value_error("game has more than 65535 legal actions: MCTS nodes cannot hold them");
        cfg_.exploration = exploration;
        cfg_.rollout_depth = rollout_depth;
        cfg_.normalize = normalize;
        if (!(minimax_weight >= 0.0 && minimax_weight <= 1.0)) throw py::value_error("minimax_weight must be in [0, 1]");
        cfg_.minimax_weight = minimax_weight;
        cfg_.eval_children = eval_children;
        if (!(final_lcb >= 0.0)) throw py::value_error("final_lcb must be >= 0");
        final_lcb_ = final_lcb;
        if (rollout_sample < -1)
            throw py::value_error("rollout_sample must be 0 (random rollouts), -1 (all legal moves) or k > 0 moves scored");
        if (!(rollout_epsilon >= 0.0 && rollout_epsilon <= 1.0)) throw py::value_error("rollout_epsilon must be in [0, 1]");
        cfg_.rollout_sample = rollout_sample;
        cfg_.rollout_epsilon = rollout_epsilon;
        cfg_.ismcts = ismcts.is_none() ? (g_->flags & ARD_FLAG_HIDDEN) != 0 : ismcts.cast<bool>();
        cfg_.solver = solver && !cfg_.ismcts;
        if (!(widening >= 0.0)) throw py::value_error("widening must be >= 0 (0: off)");
        if (!(widening_exponent > 0.0 && widening_exponent <= 1.0))
            throw py::value_error("widening_exponent must be in (0, 1]");
        if (widening > 0.0 && cfg_.ismcts)
            throw py::value_error("widening is for plain MCTS only: pass widening=0 with ismcts");
        cfg_.widening = widening;
        cfg_.widening_exponent = widening_exponent;
        if (std::isnan(opponent_widening)) throw py::value_error("opponent_widening must be a number (< 0: off)");
        if (opponent_widening >= 0.0 && widening <= 0.0)
            throw py::value_error("opponent_widening narrows progressive widening at the opponent's nodes: "
                                  "give widening > 0 with it (or opponent_widening=-1: off)");
        cfg_.opponent_widening = opponent_widening < 0.0 ? -1.0 : opponent_widening;
        if (!(root_margin >= 0.0)) throw py::value_error("root_margin must be >= 0 (0: off)");
        if (root_margin > 0.0 && widening <= 0.0 && !eval_children)
            throw py::value_error("root_margin needs the root moves evaluated: give widening > 0 or eval_children=True");
        if (root_margin > 0.0 && cfg_.ismcts)
            throw py::value_error("root_margin is for plain MCTS only: pass root_margin=0 with ismcts");
        cfg_.root_margin = root_margin;
        cfg_.rollout_turn_end = rollout_turn_end;
        if (rollout_extra_runs < 0) throw py::value_error("rollout_extra_runs must be >= 0 (0: score when the mover's run ends)");
        if (rollout_extra_runs > 0 && !rollout_turn_end)
            throw py::value_error("rollout_extra_runs counts runs after the mover's: give rollout_turn_end=True with it");
        cfg_.rollout_extra_runs = rollout_extra_runs;
        if (chance_expectation && cfg_.ismcts)
            throw py::value_error("chance_expectation is for plain MCTS only: pass chance_expectation=False with ismcts");
        cfg_.chance_expectation = chance_expectation;
        if (rollout_stop_prefix.size() >= sizeof cfg_.rollout_stop_prefix)
            throw py::value_error("rollout_stop_prefix must be at most 15 characters (the start of a chance outcome's notation)");
        std::memcpy(cfg_.rollout_stop_prefix, rollout_stop_prefix.data(), rollout_stop_prefix.size());
        cfg_.rollout_stop_len = (int)rollout_stop_prefix.size();
        if (!stop_weights.is_none()) {
            if (rollout_stop_prefix.empty())
                throw py::value_error("stop_weights score the rollouts that end at rollout_stop_prefix: give a prefix with them");
            cfg_.stop_eval = make_evaluator(g_, stop_weights);
            cfg_.stop_own = true;
        }
        if (common_random && cfg_.ismcts)
            throw py::value_error("common_random is for plain MCTS only: pass common_random=False with ismcts");
        cfg_.common_random = common_random;
        if (!(prior_visits >= 0.0)) throw py::value_error("prior_visits must be >= 0 (0: off)");
        if (prior_visits > 0.0) {
            if (widening <= 0.0 && !eval_children)
                throw py::value_error("prior_visits needs the moves evaluated: give widening > 0 or eval_children=True");
            if (cfg_.ismcts) throw py::value_error("prior_visits is for plain MCTS only: pass prior_visits=0 with ismcts");
            // implicit minimax overwrites Node::eval with the subtree's minimax: no one-ply prior left
            if (minimax_weight > 0.0)
                throw py::value_error("prior_visits needs the one-ply evaluations that minimax_weight overwrites: "
                                      "pass minimax_weight=0 with it");
            if (final_lcb > 0.0)
                throw py::value_error("prior_visits chooses the root move by its blended value: pass final_lcb=0 with it");
        }
        if (prior_drift && prior_visits <= 0.0)
            throw py::value_error("prior_drift shifts the prior of prior_visits: give prior_visits > 0 with it");
        cfg_.prior_visits = prior_visits;
        cfg_.prior_drift = prior_drift;
        if (tree_depth < 0) throw py::value_error("tree_depth must be >= 0 (0: no limit; 1: flat Monte Carlo over the root moves)");
        cfg_.tree_depth = tree_depth;
        if (!(belief >= 0.0)) throw py::value_error("belief must be >= 0 (0: off)");
        if (belief > 0.0 && !cfg_.ismcts)
            throw py::value_error("belief weighs determinizations of hidden information: it needs ismcts "
                                  "(a game with hidden information); pass belief=0 here");
        if (belief_samples < 1 || belief_samples > 4096)
            throw py::value_error("belief_samples must be between 1 and 4096");
        cfg_.belief = belief;
        cfg_.belief_samples = belief_samples;
        threads_ = threads;
        max_memory_mb_ = max_memory_mb;
        uint64_t per_thread = (uint64_t)(max_memory_mb * 1048576.0 / sizeof(Node)) / (uint64_t)threads;
        for (int i = 0; i < threads; i++)
            workers_.emplace_back(new Worker(g_, &cfg_, thread_seed(i), per_thread));
        sims_.reset(new std::atomic<uint64_t>[(size_t)threads]);
        for (int i = 0; i < threads; i++) sims_[i].store(0);
        acts_.resize((size_t)g_->max_legal + 1);
        probs_.resize((size_t)g_->max_legal + 1);
    }

    py::dict search(const py::bytes &state_raw, py::object simulations, py::object time_limit, py::object played,
                    py::object root_actions, py::object depth, const std::string &clock) {
        const bool cpu_clock = cpu_clock_from(clock);
        std::vector<uint8_t> root = state_from_bytes(g_, state_raw);
        if (cfg_.ismcts && g_->viewer(root.data()) < 0) {
            // A full state: search only what its side to move may see.
            int p = g_->current_player(root.data());
            if (p == 0 || p == 1) g_->observe(root.data(), p, root.data());
        }
        int mover = g_->current_player(root.data());
        if (mover == ARD_CHANCE)
            throw py::value_error("search needs a decision state, this is a chance node (sample an outcome first)");
        if (mover == ARD_TERMINAL) throw py::value_error("search needs a decision state, the game is over");
        uint64_t sims = 0;
        double limit = 0.0;
        if (!simulations.is_none()) {
            long long v = simulations.cast<long long>();
            if (v < 1) throw py::value_error("simulations must be at least 1");
            sims = (uint64_t)v;
        }
        if (!time_limit.is_none()) {
            limit = time_limit.cast<double>();
            if (!(limit > 0.0)) throw py::value_error("time_limit must be > 0 seconds");
        }
        if (sims == 0 && limit <= 0.0) throw py::value_error("give simulations and/or time_limit");
        int depth_target = 0;
        if (!depth.is_none()) {
            long long v = depth.cast<long long>();
            if (v < 1) throw py::value_error("depth must be at least 1 (plies of the principal variation)");
            depth_target = (int)std::min<long long>(v, 1 << 20);
        }
        std::vector<ard_action> keys;
        bool want_reuse = !played.is_none();
        if (want_reuse) keys = played.cast<std::vector<ard_action>>();
        std::vector<ard_action> allowed;
        if (!root_actions.is_none()) allowed = checked_root_actions(g_, root.data(), root_actions);

        bool expected = false;
        if (!running_.compare_exchange_strong(expected, true))
            throw py::value_error("a search is already running on this MCTS object");
        int reused = 0;
        {
            py::gil_scoped_release nogil;
            reused = prepare_trees(root, want_reuse, keys, !allowed.empty());
            for (auto &w : workers_) {
                w->set_root_filter(allowed);
                w->set_cpu_clock(cpu_clock);
            }
            depth_target_ = depth_target;
            depth_stop_ = nullptr;
            run(root, sims, limit);
        }
        running_.store(false);
        py::dict out = results(root, mover);
        out["reused"] = reused == threads_;
        out["depth_stop"] = depth_stop_ ? py::object(py::str(depth_stop_)) : py::object(py::none());
        out["clock"] = cpu_clock ? "cpu" : "wall";
        double cpu = 0.0;  // the most CPU time one thread spent: what a cpu clock held to time_limit
        for (auto &w : workers_) cpu = std::max(cpu, w->last_cpu_seconds());
        out["cpu_time"] = cpu;
        return out;
    }

    void stop() { stop_.store(true); }

    /* Live figures of the running search (or the last one), safe from another thread. */
    py::dict progress() {
        py::dict d;
        uint64_t sims = 0, nodes = 0;
        for (int i = 0; i < threads_; i++) {
            sims += sims_[i].load(std::memory_order_relaxed);
            nodes += workers_[(size_t)i]->nodes_counter().load(std::memory_order_relaxed);
        }
        double t = running_.load() ? seconds_since(t0_) : last_time_;
        d["running"] = running_.load();
        d["simulations"] = sims;
        d["nodes"] = nodes;
        d["time"] = t;
        d["nps"] = t > 0 ? (double)sims / t : 0.0;
        std::lock_guard<std::mutex> lock(snap_mutex_);
        d["best"] = snap_best_;
        d["value"] = snap_value_;
        d["wp"] = (snap_value_ + 1.0) / 2.0;
        d["pv"] = snap_pv_;
        return d;
    }

    /* Forgets the trees (frees their memory) and reseeds: a new game. */
    void reset() {
        if (running_.load()) throw py::value_error("cannot reset while a search is running");
        for (int i = 0; i < threads_; i++) {
            workers_[(size_t)i]->release();
            workers_[(size_t)i]->seed_rng(thread_seed(i));
        }
        prev_root_.clear();
        prev_restricted_ = false;
    }

    /* The edges below the node that `path` (tree edge keys from the root)
     * leads to in thread 0's tree: for tests and debugging. */
    py::list edges(const std::vector<ard_action> &path) {
        if (running_.load()) throw py::value_error("cannot inspect the tree while a search is running");
        Worker &w = *workers_[0];
        const NodePool &pool = w.pool();
        if (w.root() < 0) throw py::value_error("no tree yet: search first");
        int32_t cur = w.root();
        for (ard_action k : path) {
            const Node &n = pool[cur];
            int32_t next = -1;
            for (uint32_t i = 0; i < n.num_children && next < 0; i++) {
                const Node &ch = pool[n.first_child + (int32_t)i];
                if (ch.action == k && !ch.shadow) next = n.first_child + (int32_t)i;
            }
            if (next < 0) throw py::value_error("path leaves the tree at action " + std::to_string(k));
            cur = next;
        }
        py::list out;
        const Node &n = pool[cur];
        for (uint32_t i = 0; i < n.num_children; i++) {
            const Node &ch = pool[n.first_child + (int32_t)i];
            py::dict d;
            d["action"] = ch.action;
            d["chooser"] = (int)ch.chooser;
            d["visits"] = ch.visits;
            d["value"] = ch.visits ? ch.value_sum / ch.visits : 0.0;
            d["q"] = w.exploited_value(ch);  // what UCB compares (chance_expectation: the expectation)
            d["eval"] = (double)ch.eval;
            d["shadow"] = ch.shadow != 0;
            d["children"] = (int)ch.num_children;
            out.append(d);
        }
        return out;
    }

    uint64_t nodes() const {
        uint64_t n = 0;
        for (auto &w : workers_) n += w->pool().nodes();
        return n;
    }
    uint64_t memory_bytes() const {
        uint64_t n = 0;
        for (auto &w : workers_) n += w->pool().bytes();
        return n;
    }
    bool ismcts() const { return cfg_.ismcts; }
    bool solver() const { return cfg_.solver; }
    int threads() const { return threads_; }

   private:
    uint64_t thread_seed(int i) const {
        uint64_t x = seed_ ^ (0x632BE59BD9B4E019ULL * (uint64_t)(i + 1));
        return ard_splitmix64(&x);
    }

    /* Keeps each thread's subtree below the played edges when the new root
     * is exactly the old root with those edges applied; else a fresh tree.
     * A restricted search (root_actions) always starts afresh: an old root
     * may hold edges outside the filter. Its own root holds only the
     * filtered edges (expanded, so never completed later), so the next
     * search may keep its subtrees but not the root itself (played=[]).
     * Returns how many threads kept their tree. */
    int prepare_trees(const std::vector<uint8_t> &root, bool want_reuse, const std::vector<ard_action> &keys,
                      bool restricted) {
        if (restricted || (prev_restricted_ && keys.empty())) want_reuse = false;
        prev_restricted_ = restricted;
        bool same = false;
        if (want_reuse && prev_root_.size() == root.size()) {
            std::vector<uint8_t> s = prev_root_;
            same = true;
            for (ard_action k : keys)
                if (!apply_if_legal(g_, s.data(), k, acts_, probs_)) {
                    same = false;
                    break;
                }
            same = same && std::memcmp(s.data(), root.data(), root.size()) == 0;
        }
        int reused = 0;
        for (auto &w : workers_) {
            if (same && w->advance(keys, root.data()))
                reused++;
            else
                w->new_tree(root.data());
        }
        prev_root_ = root;
        return reused;
    }

    void run(const std::vector<uint8_t> &root, uint64_t sims, double limit) {
        stop_.store(false);
        t0_ = Clock::now();
        last_publish_ = t0_;
        for (int i = 0; i < threads_; i++) {
            sims_[i].store(0);
            workers_[(size_t)i]->reset_stats();
        }
        {
            std::lock_guard<std::mutex> lock(snap_mutex_);
            snap_best_.reset();
            snap_value_ = 0.0;
            snap_pv_.clear();
        }
        auto budget = [&](int i) -> uint64_t {
            if (!sims) return 0;
            uint64_t b = sims / (uint64_t)threads_ + ((uint64_t)i < sims % (uint64_t)threads_ ? 1 : 0);
            return b ? b : 1;
        };
        std::vector<std::thread> pool;
        for (int i = 1; i < threads_; i++)
            pool.emplace_back([this, &root, i, budget, limit] {
                workers_[(size_t)i]->run(root.data(), budget(i), limit, t0_, stop_, sims_[i]);
            });
        workers_[0]->run(root.data(), budget(0), limit, t0_, stop_, sims_[0], &Mcts::publish_hook, this,
                         depth_target_ > 0 ? &Mcts::depth_enough : nullptr);
        for (auto &t : pool) t.join();
        last_time_ = seconds_since(t0_);
    }

    /* Runs on thread 0 inside its search: a snapshot of its own tree for progress(). */
    static void publish_hook(void *ctx) {
        Mcts *self = static_cast<Mcts *>(ctx);
        auto now = Clock::now();
        if (std::chrono::duration<double>(now - self->last_publish_).count() < 0.1) return;
        self->last_publish_ = now;
        Worker &w = *self->workers_[0];
        NodePool &pool = w.pool();
        const Node &r = pool[w.root()];
        if (r.num_children == 0) return;
        int32_t best = most_visited(pool, r);
        if (best < 0) return;
        std::vector<ard_action> pv = principal_variation(pool, best);
        const Node &b = pool[best];
        double value = b.visits ? b.value_sum / b.visits : 0.0;
        std::lock_guard<std::mutex> lock(self->snap_mutex_);
        self->snap_best_ = b.action;  // an int; the GIL is not needed to hold a C++ value
        self->snap_value_ = value;
        self->snap_pv_ = pv;
    }

    /* Runs on thread 0 after each of its simulations when the search has a
     * depth target: true (and every thread told to stop) once the search
     * should end for it (see depth_stop_reason). */
    static bool depth_enough(void *ctx) {
        Mcts *self = static_cast<Mcts *>(ctx);
        const char *why = self->depth_stop_reason(*self->workers_[0]);
        if (why == nullptr) return false;
        self->depth_stop_ = why;
        self->stop_.store(true);
        return true;
    }

    /* Why a search with a depth target d ends now, or nullptr. The line is
     * thread 0's principal variation as results() reports it: its best root
     * move (root_rank), then the most visited edge at each node. "depth":
     * the line is d plies long. "end": it cannot get longer, because its
     * last node is a known result (proven by MCTS-Solver, the end of the game
     * among them) or was reached twice and never expanded (only the end of
     * the game leaves a node so, memory aside). "memory": the tree is full
     * and can grow no deeper. A line still growing: nullptr. */
    const char *depth_stop_reason(const Worker &w) const {
        const NodePool &pool = w.pool();
        const Node &r = pool[w.root()];
        int32_t cur = -1;
        auto eval_of = [](const Node &c) { return c.has_eval ? (double)c.eval : -1e300; };
        const Node *kids = r.num_children ? &pool[r.first_child] : nullptr;
        const double shift = root_shift(kids, kids + r.num_children,
                                        [&](const Node &c, uint64_t &v, double &sum, double &e, int8_t &pr) {
                                            v = c.shadow ? 0 : c.visits;
                                            sum = c.value_sum;
                                            e = eval_of(c);
                                            pr = c.proven;
                                        });
        for (uint32_t i = 0; i < r.num_children; i++) {
            int32_t ci = r.first_child + (int32_t)i;
            const Node &c = pool[ci];
            if (c.shadow || c.visits == 0) continue;
            if (cur < 0) {
                cur = ci;
                continue;
            }
            auto a = root_rank(c.visits, c.value_sum, c.proven, r.chooser, eval_of(c), shift);
            auto b = root_rank(pool[cur].visits, pool[cur].value_sum, pool[cur].proven, r.chooser, eval_of(pool[cur]),
                               shift);
            if (a > b || (a == b && c.action < pool[cur].action)) cur = ci;  // ties: the smaller action, as results()
        }
        if (cur < 0) return w.memory_full() ? "memory" : nullptr;
        for (int length = 1;; length++) {
            if (length >= depth_target_) return "depth";
            const Node &n = pool[cur];
            if (n.proven != kUnproven) return "end";
            if (!n.expanded) return n.visits >= 2 && !w.memory_full() ? "end" : (w.memory_full() ? "memory" : nullptr);
            int32_t next = most_visited(pool, n);
            if (next < 0 || pool[next].visits == 0) return w.memory_full() ? "memory" : nullptr;
            cur = next;
        }
    }

    /* How results() orders root moves (larger first): a proven win for the
     * mover, then unproven or drawn moves, then proven losses; within a class
     * the visit count (final_lcb > 0: the lower bound mean - final_lcb / sqrt(visits)). */
    std::pair<int, double> root_rank(uint64_t visits, double value_sum, int8_t proven, int mover,
                                     double eval = -1e300, double shift = 0.0) const {
        int v = proven == kUnproven ? 0 : proven_for(proven, mover);
        int cls = v > 0 ? 2 : (v < 0 ? 0 : 1);
        double key = (double)visits;
        if (final_lcb_ > 0.0) key = visits ? value_sum / (double)visits - final_lcb_ / std::sqrt((double)visits) : -1e300;
        if (cfg_.prior_visits > 0.0) {
            // prior_visits: the blend UCB exploited, so that with a huge k the
            // search plays the one-ply best of the moves it searched (only
            // searched moves: an unvisited one was never admitted)
            key = visits && eval > -1e299
                      ? prior_blend(cfg_.prior_visits, eval + shift, (double)visits, value_sum / (double)visits)
                      : -1e300;
        }
        return std::make_pair(cls, key);
    }

    /* prior_drift at the root: PriorDrift over the visited, unproven,
     * evaluated root moves (0 when off), as Worker::prior_shift inside one tree. */
    template <class It, class Get>
    double root_shift(It first, It last, Get get) const {
        if (cfg_.prior_visits <= 0.0 || !cfg_.prior_drift) return 0.0;
        PriorDrift drift;
        for (It it = first; it != last; ++it) {
            uint64_t visits;
            double value_sum, eval;
            int8_t proven;
            get(*it, visits, value_sum, eval, proven);
            if (!visits || eval <= -1e299 || proven != kUnproven) continue;
            drift.add((double)visits, value_sum, eval);
        }
        return drift.shift();
    }

    /* The most visited tree edge (shadow entries are statistics, not edges). */
    static int32_t most_visited(const NodePool &pool, const Node &n) {
        int32_t best = -1;
        for (uint32_t i = 0; i < n.num_children; i++) {
            int32_t ci = n.first_child + (int32_t)i;
            if (!pool[ci].shadow && (best < 0 || pool[ci].visits > pool[best].visits)) best = ci;
        }
        return best;
    }

    /* The edge into `start`, then the most visited line below it. */
    static std::vector<ard_action> principal_variation(const NodePool &pool, int32_t start) {
        std::vector<ard_action> pv{pool[start].action};
        int32_t cur = start;
        while (pv.size() < 32) {
            const Node &n = pool[cur];
            if (n.num_children == 0) break;
            int32_t next = most_visited(pool, n);
            if (next < 0 || pool[next].visits == 0) break;
            pv.push_back(pool[next].action);
            cur = next;
        }
        return pv;
    }

    py::dict results(const std::vector<uint8_t> &root, int mover) {
        std::map<ard_action, RootStat> stats;
        int8_t root_proven = kUnproven;
        uint64_t sims = 0, plies = 0, rollouts = 0;
        bool memory_full = false;
        for (auto &w : workers_) {
            NodePool &pool = w->pool();
            const Node &r = pool[w->root()];
            if (r.proven != kUnproven) root_proven = r.proven;
            for (uint32_t i = 0; i < r.num_children; i++) {
                const Node &c = pool[r.first_child + (int32_t)i];
                if (c.shadow) continue;  // cannot happen at the root (the searcher moves there)
                RootStat &st = stats[c.action];
                st.visits += c.visits;
                st.value_sum += c.value_sum;
                if (c.proven != kUnproven) st.proven = c.proven;
                if (c.has_eval) st.eval = c.eval;
            }
            sims += w->last_simulations();
            plies += w->rollout_plies();
            rollouts += w->rollouts();
            memory_full = memory_full || w->memory_full();
        }
        // Best: a proven win, else the most visited move not proven lost
        // (final_lcb > 0: the highest lower bound mean - final_lcb / sqrt(visits);
        // prior_visits > 0: the highest blend of prior and mean, summed over threads).
        ard_action best = -1;
        const double shift = root_shift(stats.begin(), stats.end(),
                                        [](const std::pair<const ard_action, RootStat> &kv, uint64_t &v, double &sum,
                                           double &e, int8_t &pr) {
                                            v = kv.second.visits;
                                            sum = kv.second.value_sum;
                                            e = kv.second.eval;
                                            pr = kv.second.proven;
                                        });
        auto rank = [&](const RootStat &s) { return root_rank(s.visits, s.value_sum, s.proven, mover, s.eval, shift); };
        if (stats.empty()) throw std::runtime_error("the search tree has no root moves (out of memory?)");
        // root_margin: only moves evaluated within the margin of the best one
        double min_eval = -1e300;
        if (cfg_.root_margin > 0.0) {
            for (auto &kv : stats) min_eval = std::max(min_eval, kv.second.eval);
            min_eval -= cfg_.root_margin;
        }
        auto allowed = [&](const RootStat &s) { return s.proven != kUnproven || s.eval >= min_eval; };
        for (auto &kv : stats)
            if (allowed(kv.second) && (best < 0 || rank(kv.second) > rank(stats[best]))) best = kv.first;
        if (best < 0) best = stats.begin()->first;

        py::list actions, visits, values, proven_values;
        for (auto &kv : stats) {
            actions.append(kv.first);
            visits.append(kv.second.visits);
            values.append(kv.second.visits ? kv.second.value_sum / (double)kv.second.visits : 0.0);
            if (kv.second.proven == kUnproven)
                proven_values.append(py::none());
            else
                proven_values.append(proven_for(kv.second.proven, mover));
        }
        // The principal variation from the thread that looked deepest into the best move.
        std::vector<ard_action> pv;
        uint32_t pv_visits = 0;
        for (auto &w : workers_) {
            NodePool &pool = w->pool();
            const Node &r = pool[w->root()];
            for (uint32_t i = 0; i < r.num_children; i++) {
                int32_t ci = r.first_child + (int32_t)i;
                if (pool[ci].action == best && !pool[ci].shadow && (pv.empty() || pool[ci].visits > pv_visits)) {
                    pv = principal_variation(pool, ci);
                    pv_visits = pool[ci].visits;
                }
            }
        }
        py::list pv_notation;
        {
            std::vector<uint8_t> s = root;
            py::list legal_pv;
            for (ard_action a : pv) {
                std::string text = notation(g_, s.data(), a);
                if (!apply_if_legal(g_, s.data(), a, acts_, probs_)) break;
                pv_notation.append(text);
                legal_pv.append(a);
            }
            pv = legal_pv.cast<std::vector<ard_action>>();
        }
        const RootStat &bs = stats[best];
        double value = bs.visits ? bs.value_sum / (double)bs.visits : 0.0;
        py::object proven = py::none();
        if (root_proven != kUnproven) {
            int v = proven_for(root_proven, mover);
            proven = py::int_(v);
            value = v;
        } else if (bs.proven != kUnproven) {
            value = proven_for(bs.proven, mover);
        }
        py::dict d;
        d["best"] = best;
        d["best_notation"] = notation(g_, root.data(), best);
        d["player"] = mover;
        d["actions"] = actions;
        d["visits"] = visits;
        d["values"] = values;
        d["proven_values"] = proven_values;
        d["pv"] = pv;
        d["pv_notation"] = pv_notation;
        d["value"] = value;
        d["wp"] = std::min(1.0, std::max(0.0, (value + 1.0) / 2.0));
        d["proven"] = proven;
        d["nodes"] = nodes();
        d["memory_bytes"] = memory_bytes();
        d["memory_full"] = memory_full;
        d["simulations"] = sims;
        d["time"] = last_time_;
        d["nps"] = last_time_ > 0 ? (double)sims / last_time_ : 0.0;
        d["rollout_plies"] = plies;
        d["mean_rollout_length"] = rollouts ? (double)plies / (double)rollouts : 0.0;
        d["threads"] = threads_;
        d["ismcts"] = cfg_.ismcts;
        return d;
    }

    py::object capsule_;
    const ard_game *g_;
    uint64_t seed_;
    MctsConfig cfg_;
    int threads_ = 1;
    double max_memory_mb_ = 512;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::unique_ptr<std::atomic<uint64_t>[]> sims_;
    std::vector<uint8_t> prev_root_;
    bool prev_restricted_ = false;  // the last search's root was filtered by root_actions
    std::vector<ard_action> acts_;
    std::vector<double> probs_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> running_{false};
    Clock::time_point t0_ = Clock::now();
    Clock::time_point last_publish_ = Clock::now();
    double last_time_ = 0.0;
    std::mutex snap_mutex_;
    std::optional<ard_action> snap_best_;
    double final_lcb_ = 0.0;
    double snap_value_ = 0.0;
    std::vector<ard_action> snap_pv_;
    int depth_target_ = 0;              // search(depth=): plies of the principal variation to reach; 0: none
    const char *depth_stop_ = nullptr;  // why the last search ended for its depth target, or nullptr
};

void bind_mcts(py::module_ &m) {
    py::class_<Mcts>(m, "MCTS", R"doc(
Monte Carlo tree search over a game capsule (UCT with chance nodes, random
rollouts, MCTS-Solver), or single-observer information-set MCTS for games
with hidden information.

MCTS(capsule, seed=0, threads=1, exploration=1.4, rollout_depth=-1,
     solver=True, max_memory_mb=512, ismcts=None, normalize=False, minimax_weight=0,
     eval_children=False, final_lcb=0, weights=None, rollout_sample=0, rollout_epsilon=0,
     widening=0, widening_exponent=0.5, root_margin=0, rollout_turn_end=False,
     rollout_extra_runs=0, chance_expectation=False, rollout_stop_prefix="",
     stop_weights=None, common_random=False, prior_visits=0, prior_drift=False,
     tree_depth=0, belief=0, belief_samples=256, opponent_widening=-1)

- capsule: game.capsule.
- threads: root parallelism; each thread grows its own tree with its own RNG
  (seeded from seed and the thread index); root statistics are summed.
  With a simulation budget, a given seed and thread count always give the
  same result.
- exploration: the UCB constant c in mean + c * sqrt(ln N / n); values are in [-1, 1].
- rollout_depth: random plies before the rollout stops and scores the
  position with the game's evaluate(); -1 plays to the end, 0 evaluates at once.
- solver: MCTS-Solver (proven wins/losses/draws); plain MCTS only.
- normalize: UCB compares each node's children's mean values rescaled to
  [0, 1] by their spread at that node, so `exploration` means the same in
  every game however narrow its evaluate() range (games whose evaluation
  moves by 0.01 between moves explore almost uniformly without it).
- minimax_weight: implicit minimax backups: every node also keeps the
  minimax of evaluate() over its searched subtree (chance: the visit-weighted
  mean) and UCB exploits (1 - w) * mean + w * that; 0 (off) to 1.
- eval_children: every new child of a decision node is scored at once with
  evaluate() of the position after its move (move ordering from the
  heuristic); an unvisited child competes in UCB as if visited once with
  that score instead of being tried before every visited sibling, and the
  implicit minimax value (minimax_weight) takes the best over all evaluated
  children. Costs one apply + evaluate per tree node created.
- final_lcb: how the move is chosen at the end. 0: the most visited root
  move; k > 0: the root move with the highest lower bound
  mean - k / sqrt(visits) (the "secure child"), for games whose values are
  so flat that UCB spreads visits almost evenly and visit counts say little.
  A proven win is still taken and proven losses avoided either way.
- rollout_sample: the rollout policy. 0: uniform random moves; k > 0:
  at each rollout decision k distinct legal moves are drawn and the one
  whose resulting position evaluate() scores best for the mover is played
  (-1: all legal moves, a greedy rollout); costs k apply + evaluate a ply.
- rollout_epsilon: with this probability a rollout decision is a uniform
  random move instead (0 to 1; only with rollout_sample != 0).
- widening: progressive widening ordered by the evaluation (plain MCTS
  only; 0: off). Every new decision node scores all its children with
  evaluate() of the position after the move, orders them best first for the
  mover, and selection considers only the first
  k = max(1, ceil(widening * N ** widening_exponent)) of them (N: the node's
  visits); a child is visited once when it is admitted. The search starts
  as the one-ply greedy line at every node and widens as visits grow, so
  a move's value is not the mean over random continuations (long
  multi-action turns). Costs one apply + evaluate per child of every node
  created.
- widening_exponent: the exponent of N in k (0 < e <= 1; 0.5 by default).
- opponent_widening: widening's coefficient at the other player's nodes
  (< 0: off, the same as widening; needs widening > 0); 0 admits only the
  opponent's best move by evaluate() there: the tree answers a one-ply
  greedy opponent (an opponent model).
- root_margin: a one-ply guard (plain MCTS only; 0: off; needs widening > 0 or
  eval_children): root moves whose evaluate() after the move is more than
  root_margin below the best one's are neither searched nor played; the
  search picks among the one-ply near-best moves by their deeper values.
- rollout_turn_end: rollouts go on (rollout_sample's policy, chance
  sampled) until a decision of a player other than the one who moved into
  the leaf, then evaluate() (rollout_depth > 0 still caps the plies; 0
  means no cap here). Every leaf is scored at the end of its mover's run of
  decisions, so long multi-action turns compare siblings at the same point.
- rollout_extra_runs: with rollout_turn_end, the runs of decisions (a run:
  one player's decisions in a row) the rollout plays after the mover's
  before scoring; 1 plays the opponent's answer too and scores when the
  decision comes back (0: off).
- chance_expectation: chance nodes by expectation (plain MCTS only; off by
  default). Where a parent's UCB reads a node whose children are chance
  outcomes (dice, card draws), its value is the probability-weighted mean
  of its visited outcomes' means (over the visited probability; nested
  chance nodes likewise) instead of the raw mean of its visits, and each
  simulation follows the outcome furthest below its share of the visits
  (p * (N + 1) - n, the first on ties) instead of a sampled one. Values
  are taken as zero-sum.
- rollout_stop_prefix: a rollout also ends, scoring the position as it
  stands, at a chance node whose sampled outcome's notation starts with
  this text ("" off; at most 15 characters). Stosstruppen's "card:" ends
  it where the next sequence card would be drawn: the leaf is scored at the
  end of its mover's phase, not after a further phase of the same side.
- stop_weights: None (off) or a list of len(game.feature_names) numbers:
  a rollout that ends at rollout_stop_prefix (which it needs) is scored
  with tanh(w . features / 2) using these weights, every other leaf as
  before (weights / evaluate()). For a value fitted on the positions where
  a side's phase ends.
- common_random: common random numbers at the root (plain MCTS only; off
  by default): the chance outcomes of a simulation below the root (in the
  tree and in the rollout) come from a stream seeded by how often its root
  move was visited before, so the n-th simulations of all root moves draw
  the same random numbers for their dice and cards; siblings are compared
  with less noise in their difference. Reproducible as before.
- prior_visits: the one-ply value as a prior worth k visits (plain MCTS
  only; 0: off; needs widening > 0 or eval_children, and minimax_weight=0
  and final_lcb=0). A child's evaluate() after its move counts as k virtual
  visits of that value: UCB exploits (k * prior + visits * mean) / (k +
  visits) (the exploration term counts real visits), and the root move
  played is the searched one with the highest such blend (threads summed),
  so a huge k plays the one-ply best of the searched moves. The search
  starts from the one-ply order and leaves it only when enough simulations
  say otherwise (for values far noisier than the gaps between moves).
- prior_drift: with prior_visits, shift each node's priors by the drift
  its simulations measured, the visit-weighted mean of (result - eval) over
  its visited children, so a prior scored right after a move compares with
  results scored later in the turn (rollout_turn_end) on their scale.
- tree_depth: how deep the tree grows (0: no limit, the default). A
  simulation reaching a node this many moves below the root rolls out from
  it instead of expanding it; 1 is flat Monte Carlo over the root moves.
  With a greedy rollout (rollout_sample=-1) through the opponent's answer
  (rollout_turn_end, rollout_extra_runs=1) that is the rollout algorithm
  over greedy play: each root move scored by how greedy play goes on.
- belief: beliefs from the opponent's play (ISMCTS only; 0: off, the
  default). Each search first draws belief_samples determinizations of
  the view and weighs each by exp(belief * v), v its evaluation for the
  searcher's opponent; every simulation then plays in one of them drawn
  by weight. Hidden facts under which the opponent's position scores well
  are taken as likelier, since it played knowing them. Does nothing where
  evaluate() reads only public information.
- belief_samples: the determinizations a search draws and weighs (1 to
  4096; 256).
- weights: None scores positions with the game's evaluate(); a list of
  len(game.feature_names) numbers scores them with tanh(w . features / 2)
  using these weights instead of the game's table (this search only).
- max_memory_mb: cap on tree memory (all threads together); past it the
  trees stop growing and simulations keep rolling out from their leaves.
- ismcts: None picks information-set MCTS for games flagged with hidden
  information; True/False forces it. In ISMCTS the state given to search is
  the searcher's view (a full state is first reduced to the view of its side
  to move), each simulation plays in a fresh determinization of it, and a
  chance outcome the searcher cannot see is the single edge HIDDEN (-2). So
  is an opponent's move the searcher cannot see (a secret bid): the opponent
  picks it in each determinization by UCB over its own per-move statistics
  kept beside that edge.
)doc")
        .def(py::init<py::object, uint64_t, int, double, int, bool, double, py::object, bool, double, bool, double, py::object, int, double,
                      double, double, double, bool, int, bool, std::string, py::object, bool, double, bool, int, double, int, double>(),
             py::arg("capsule"),
             py::arg("seed") = 0, py::arg("threads") = 1, py::arg("exploration") = 1.4,
             py::arg("rollout_depth") = -1, py::arg("solver") = true, py::arg("max_memory_mb") = 512.0,
             py::arg("ismcts") = py::none(), py::arg("normalize") = false, py::arg("minimax_weight") = 0.0,
             py::arg("eval_children") = false, py::arg("final_lcb") = 0.0, py::arg("weights") = py::none(),
             py::arg("rollout_sample") = 0, py::arg("rollout_epsilon") = 0.0, py::arg("widening") = 0.0,
             py::arg("widening_exponent") = 0.5, py::arg("root_margin") = 0.0,
             py::arg("rollout_turn_end") = false, py::arg("rollout_extra_runs") = 0,
             py::arg("chance_expectation") = false, py::arg("rollout_stop_prefix") = std::string(),
             py::arg("stop_weights") = py::none(), py::arg("common_random") = false,
             py::arg("prior_visits") = 0.0, py::arg("prior_drift") = false, py::arg("tree_depth") = 0,
             py::arg("belief") = 0.0, py::arg("belief_samples") = 256, py::arg("opponent_widening") = -1.0)
        .def("search", &Mcts::search, py::arg("state_raw"), py::arg("simulations") = py::none(),
             py::arg("time_limit") = py::none(), py::arg("played") = py::none(),
             py::arg("root_actions") = py::none(), py::arg("depth") = py::none(),
             py::arg("clock") = "wall", R"doc(
Searches from state_raw (state.raw(); a view's raw bytes for ISMCTS) until
`simulations` (total over threads) or `time_limit` seconds, whichever comes
first (give at least one), or stop(), or a proven root, or (depth=d) as soon
as the principal variation is d plies long or cannot get longer. The GIL is
released.

played: None starts a fresh tree. A list of actions (player moves and
chance outcomes, HIDDEN for outcomes and opponent moves this searcher did
not see: state.view(p).history() gives exactly that) applied to
the previous search's root to reach state_raw keeps the subtree below them;
[] continues the same tree (so a search can be run in chunks). If the list
does not lead from the old root to this state, the tree starts afresh.

root_actions: None searches every legal root action; a list restricts the
root's edges (and so best, actions, visits, values, pv) to those actions,
like UCI's searchmoves. Each must be legal at the root (for ISMCTS: the
searcher's view, and the filter applies in every determinization);
ValueError names the first that is not, and an empty list is an error. A
restricted search always starts a fresh tree (played is ignored, reused is
False), and a search right after it on the same root (played=[]) starts
afresh too, since that root lacks the other moves.

depth: None, or d >= 1: thread 0 checks after each simulation the line
that results() would report from its tree (the best root move, then the
most visited edge at each node) and ends the search when it is d plies long
(depth_stop "depth"), when it ends in a known result: a proven node or a
node reached twice and never expanded, i.e. the end of the game ("end"), or
when the tree is out of memory and the line still short ("memory"). With
threads=1 the search then stops on the same simulation every time.

clock: what time_limit counts. "wall" (the default): wall-clock seconds
since the call. "cpu": each search thread's own CPU time
(CLOCK_THREAD_CPUTIME_ID), each thread checking its own, so a loaded
machine slows the search but does not shorten it: equal-time matches stay
equal whatever else runs. Anything else is a ValueError.

Returns a dict: best, best_notation, player (the side to move), actions,
visits, values (mean result for the side to move), proven_values (+1/0/-1
or None per action), pv, pv_notation, value, wp (win probability (value+1)/2),
proven (+1/0/-1 for the side to move, or None), nodes, memory_bytes,
memory_full, simulations (this call), time, nps (simulations per second),
rollout_plies, mean_rollout_length, threads, ismcts, reused, depth_stop
("depth", "end", "memory", or None when the depth target did not end it),
clock ("wall" or "cpu": the clock time_limit counted), cpu_time (the CPU
seconds of the busiest search thread in this call; `time` is wall time).
)doc")
        .def("stop", &Mcts::stop,
             "Asks the running search to return soon with what it has (callable from any thread, "
             "the GIL is not needed). A search that starts afterwards clears the request: wait until "
             "progress()['running'] is True before stopping, or search in chunks.")
        .def("progress", &Mcts::progress,
             "Live figures of the running search, callable from another thread: running, simulations, "
             "nodes, time, nps, and from thread 0's tree (refreshed every 0.1 s) best, value, wp, pv.")
        .def("reset", &Mcts::reset, "Frees the trees and reseeds the threads (a new game).")
        .def("edges", &Mcts::edges, py::arg("path") = std::vector<ard_action>{}, R"doc(
The edges below the node reached by `path` (edge keys from the root, HIDDEN
for '?' edges) in thread 0's tree, for tests and debugging: a list of dicts
action, chooser, visits, value (mean for the chooser), eval (the implicit
minimax value for the chooser, or with eval_children the child's evaluate()
before its first visit; 0 when neither is on), shadow (True: an
opponent's statistics for a move the searcher cannot see, not a tree edge;
the tree goes on through the '?' edge beside it), children, q (the value
UCB compares for a visited edge: the mean, or with chance_expectation the
probability-weighted mean over its visited chance outcomes, blended with
the implicit minimax value when minimax_weight > 0; 0 unvisited).
)doc")
        .def_property_readonly("nodes", &Mcts::nodes, "Nodes in all trees.")
        .def_property_readonly("memory_bytes", &Mcts::memory_bytes, "Bytes held by the node pools.")
        .def_property_readonly("ismcts", &Mcts::ismcts)
        .def_property_readonly("solver", &Mcts::solver)
        .def_property_readonly("threads", &Mcts::threads);
    m.attr("NODE_SIZE") = sizeof(Node);
    m.attr("HIDDEN") = ARD_HIDDEN_OUTCOME;
}

}  // namespace ard
