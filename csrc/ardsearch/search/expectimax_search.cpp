/* Expectiminimax with alpha-beta, Star1/Star2, a transposition table,
 * iterative deepening and PIMC: the algorithm described in
 * expectimax_search.h. */
#include "expectimax_search.h"

namespace ard {

namespace {

constexpr int32_t kScoreTTMove = 1 << 30;
constexpr int32_t kScorePVMove = 1 << 29;
constexpr int32_t kScoreKiller1 = 1 << 28;  // the move that last cut at this ply
constexpr int32_t kScoreKiller2 = 1 << 27;  // the one before it
constexpr int32_t kHistoryCap = 1 << 26;    // halve the table before scores reach the killers
constexpr int kMinProbeDepth = 2;           // see chance_node: shallower probes do not pay
constexpr uint64_t kCheckEvery = 255;       // nodes between clock / stop-flag checks

inline double clamp_value(double v) {
    if (!(v == v)) return 0.0;  // NaN from a broken evaluate: treat as even
    return v < ExpectimaxSearch::kLow ? ExpectimaxSearch::kLow
                                      : (v > ExpectimaxSearch::kHigh ? ExpectimaxSearch::kHigh : v);
}

inline int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

ExpectimaxSearch::ExpectimaxSearch(const ard_game *game, const ExpectimaxOptions &opt)
    : game_(game),
      opt_(opt),
      state_size_(game->state_size),
      max_legal_(std::max(1, (int)game->max_legal)),
      tt_(opt.use_tt ? opt.tt_mb : 0) {
    const size_t plies = kMaxPly + 1;
    states_.assign(plies * state_size_, 0);
    moves_.assign(plies * max_legal_, 0);
    probs_.assign(plies * max_legal_, 0.0);
    lower_.assign(plies * max_legal_, 0.0);
    upper_.assign(plies * max_legal_, 0.0);
    scores_.assign(plies * max_legal_, 0);
    probes_.assign(plies * max_legal_, ProbeRecord{-1, 0.0});
    pv_.assign(plies * kMaxPly, -1);
    pv_len_.assign(plies, 0);
    on_prev_pv_.assign(plies, 0);
    history_.assign(2 * (size_t)std::max(1, (int)game->num_actions), 0);
    killers_.assign(2 * plies, -1);
}

/* ---------------------------------------------------------------- driver */

namespace {

/* Drops from `actions` (order kept) those not in `allowed`; empty `allowed`
 * keeps all. Once per root per search: a linear scan is cheap enough. */
void keep_root_actions(std::vector<ard_action> &actions, const std::vector<ard_action> &allowed) {
    if (allowed.empty()) return;
    actions.erase(std::remove_if(actions.begin(), actions.end(),
                                 [&](ard_action a) {
                                     return std::find(allowed.begin(), allowed.end(), a) == allowed.end();
                                 }),
                  actions.end());
}

}  // namespace

ExpectimaxResult ExpectimaxSearch::run(const uint8_t *root_state, const ExpectimaxLimits &limits) {
    start_ = std::chrono::steady_clock::now();
    clock_.start(limits.cpu_clock, start_);
    progress.start_ns.store(now_ns());
    progress.depth.store(0);
    progress.nodes.store(0);
    progress.best.store(-1);
    progress.value.store(0.0);
    progress.running.store(true);
    stop_.store(false);
    nodes_ = tt_hits_ = 0;
    node_limit_ = limits.nodes;
    time_limit_ = limits.time_limit;
    aborted_ = false;
    std::fill(history_.begin(), history_.end(), 0);
    std::fill(killers_.begin(), killers_.end(), -1);
    if (opt_.use_tt) tt_.new_search();
    root_player_ = game_->current_player(root_state);

    // PIMC: a view state of a hidden-information game is replaced by
    // `determinizations` full states sampled from the searcher's
    // information set, each searched as if everything were visible.
    const bool pimc = (game_->flags & ARD_FLAG_HIDDEN) && game_->viewer(root_state) >= 0;
    std::vector<Root> roots(pimc ? (size_t)opt_.determinizations : 1);
    ard_rng rng;
    ard_rng_seed(&rng, opt_.seed);
    for (Root &r : roots) {
        r.state.assign(root_state, root_state + state_size_);
        if (pimc) game_->determinize(r.state.data(), root_player_, &rng);
        r.order.resize(max_legal_);
        int n = game_->legal_actions(r.state.data(), r.order.data());
        r.order.resize(std::max(0, n));
        keep_root_actions(r.order, limits.root_actions);  // each determinization's root too
        r.values.assign(r.order.size(), 0.0);
    }

    // The reported root actions are those of the searcher's own state (a
    // view's legal actions are what its owner may play).
    ExpectimaxResult res;
    res.determinizations = pimc ? (int)roots.size() : 0;
    res.exact_values = pimc;
    res.actions.resize(max_legal_);
    res.actions.resize(std::max(0, game_->legal_actions(root_state, res.actions.data())));
    keep_root_actions(res.actions, limits.root_actions);
    res.values.assign(res.actions.size(), 0.0);
    if (pimc) res.votes.assign(res.actions.size(), 0);
    if (!res.actions.empty()) res.best = res.actions[0];

    const int max_depth = limits.depth > 0 ? std::min(limits.depth, (int)kMaxDepth) : kMaxDepth;
    std::vector<double> sum(res.actions.size());
    std::vector<int> count(res.actions.size()), votes(res.actions.size());
    for (int depth = 1; depth <= max_depth; depth++) {
        interruptible_ = depth > 1;  // depth 1 always completes: there is always a searched move
        hit_horizon_ = false;
        for (Root &r : roots) {
            search_root(r, depth, pimc);
            if (aborted_) break;
        }
        if (aborted_) break;

        // Aggregate the completed iteration.
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(count.begin(), count.end(), 0);
        std::fill(votes.begin(), votes.end(), 0);
        for (Root &r : roots) {
            for (size_t i = 0; i < r.order.size(); i++) {
                auto it = std::find(res.actions.begin(), res.actions.end(), r.order[i]);
                if (it == res.actions.end()) continue;  // not legal for the searcher: ignore
                size_t k = (size_t)(it - res.actions.begin());
                sum[k] += r.values[i];
                count[k] += 1;
                if (i == 0) votes[k] += 1;  // order[0] is this root's best
            }
        }
        int best_k = -1;
        for (size_t k = 0; k < res.actions.size(); k++) {
            res.values[k] = count[k] ? sum[k] / count[k] : kLow;
            if (best_k < 0 || res.values[k] > res.values[best_k] ||
                (res.values[k] == res.values[best_k] && votes[k] > votes[best_k]))
                best_k = (int)k;
        }
        if (best_k >= 0) {
            res.best = res.actions[best_k];
            res.value = res.values[best_k];
        }
        if (pimc) res.votes = votes;
        res.pv.clear();
        for (Root &r : roots)  // the continuation of a root that agrees with the choice
            if (!r.pv.empty() && r.pv[0] == res.best) { res.pv = r.pv; break; }
        if (res.pv.empty()) res.pv.push_back(res.best);
        res.depth = depth;
        progress.depth.store(depth);
        progress.best.store(res.best);
        progress.value.store(res.value);

        if (!hit_horizon_) break;  // every line reached its end: deeper searches change nothing
        if (time_limit_ > 0.0 && clock_.elapsed() > 0.5 * time_limit_)
            break;  // the next iteration would not finish in the time left
    }
    res.nodes = nodes_;
    res.tt_hits = tt_hits_;
    res.time = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    res.cpu_clock = clock_.cpu;
    res.cpu_time = clock_.cpu_used();
    progress.nodes.store(nodes_);
    progress.running.store(false);
    return res;
}

/* The root of one tree at one depth. In PIMC mode every root action gets a
 * full window, because the per-action values are averaged across
 * determinizations and must be exact; otherwise the root is an ordinary
 * alpha-beta max node and the values of refuted actions are upper bounds. */
void ExpectimaxSearch::search_root(Root &root, int depth, bool exact_values) {
    const size_t n = root.order.size();
    if (n == 0) return;
    uint8_t *s0 = state_at(0);
    std::memcpy(s0, root.state.data(), state_size_);
    prev_pv_ = root.pv;
    on_prev_pv_[0] = 1;

    std::vector<double> values(n);
    double alpha = kLow, best = -2.0;
    size_t best_i = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *child = state_at(1);
        std::memcpy(child, s0, state_size_);
        game_->apply(child, root.order[i]);
        on_prev_pv_[1] = !prev_pv_.empty() && prev_pv_[0] == root.order[i];
        double v = search(1, depth - 1, exact_values ? kLow : alpha, kHigh);
        if (aborted_) return;
        values[i] = v;
        if (v > best) {
            best = v;
            best_i = i;
            set_pv(0, root.order[i]);
        }
        if (v > alpha) alpha = v;
    }
    // Best first, then the others by value (stable: ties keep their order).
    std::vector<size_t> idx(n);
    for (size_t i = 0; i < n; i++) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
        if (a == best_i || b == best_i) return a == best_i && b != best_i;
        return values[a] > values[b];
    });
    std::vector<ard_action> order(n);
    for (size_t i = 0; i < n; i++) {
        order[i] = root.order[idx[i]];
        root.values[i] = values[idx[i]];
    }
    root.order = order;
    root.value = best;
    root.pv.assign(pv_row(0), pv_row(0) + pv_len_[0]);
}

/* --------------------------------------------------------------- recursion */

bool ExpectimaxSearch::out_of_budget() {
    if (!interruptible_) return false;
    if (node_limit_ && nodes_ >= node_limit_) return true;
    if ((nodes_ & kCheckEvery) == 0) {
        progress.nodes.store(nodes_, std::memory_order_relaxed);
        if (stop_.load(std::memory_order_relaxed)) return true;
        if (time_limit_ > 0.0 && clock_.elapsed() >= time_limit_) return true;
    }
    return false;
}

double ExpectimaxSearch::terminal_value(const void *state) {
    double r[2] = {0.0, 0.0};
    game_->returns(state, r);
    return clamp_value(r[root_player_]);
}

double ExpectimaxSearch::leaf_value(const void *state) {
    hit_horizon_ = true;
    return clamp_value(opt_.eval(state, root_player_));
}

void ExpectimaxSearch::set_pv(int ply, ard_action move) {
    ard_action *row = pv_row(ply);
    row[0] = move;
    int child_len = ply + 1 < kMaxPly ? pv_len_[ply + 1] : 0;
    child_len = std::min(child_len, kMaxPly - 1);
    std::memcpy(row + 1, pv_row(ply + 1), sizeof(ard_action) * (size_t)child_len);
    pv_len_[ply] = child_len + 1;
}

double ExpectimaxSearch::search(int ply, int depth, double alpha, double beta, Visit visit,
                                ProbeRecord *probe) {
    nodes_++;
    pv_len_[ply] = 0;
    if (out_of_budget()) {
        aborted_ = true;
        return 0.0;
    }
    const uint8_t *s = state_at(ply);
    const int player = game_->current_player(s);
    if (player == ARD_TERMINAL) return terminal_value(s);
    if (ply >= kMaxPly - 1) return leaf_value(s);
    if (depth <= 0) return leaf_value(s);  // chance nodes too: see "Depth" in the header

    uint64_t key = 0;
    ard_action tt_move = -1;
    if (opt_.use_tt) {
        key = game_->hash(s);
        if (const TTEntry *e = tt_.probe(key)) {
            tt_hits_++;
            tt_move = e->move;
            // Any exact-depth entry is also a valid bound for a Star2 probe.
            if (e->depth == depth) {
                if (e->bound == BOUND_EXACT) return e->value;
                if (e->bound == BOUND_LOWER && e->value >= beta) return e->value;
                if (e->bound == BOUND_UPPER && e->value <= alpha) return e->value;
            }
        }
    }
    if (player == ARD_CHANCE) return chance_node(ply, depth, alpha, beta, key);
    return decision_node(ply, depth, alpha, beta, visit, probe, player, key, tt_move);
}

void ExpectimaxSearch::order_moves(int ply, ard_action *moves, int n, int player, ard_action tt_move) {
    int32_t *score = scores_at(ply);
    const ard_action pv_move =
        on_prev_pv_[ply] && ply < (int)prev_pv_.size() ? prev_pv_[(size_t)ply] : -1;
    const int32_t *hist = history_.data() + (size_t)(player & 1) * (history_.size() / 2);
    const int num_actions = (int)(history_.size() / 2);
    const ard_action killer1 = killers_[2 * (size_t)ply], killer2 = killers_[2 * (size_t)ply + 1];
    for (int i = 0; i < n; i++) {
        ard_action a = moves[i];
        score[i] = (a >= 0 && a < num_actions) ? hist[a] : 0;
        if (a == pv_move) score[i] += kScorePVMove;
        if (a == killer1) score[i] += kScoreKiller1;
        else if (a == killer2) score[i] += kScoreKiller2;
        if (a == tt_move) score[i] += kScoreTTMove;
    }
    // insertion sort, stable, descending: lists are short and nearly sorted
    for (int i = 1; i < n; i++) {
        ard_action a = moves[i];
        int32_t sc = score[i];
        int j = i - 1;
        while (j >= 0 && score[j] < sc) {
            moves[j + 1] = moves[j];
            score[j + 1] = score[j];
            j--;
        }
        moves[j + 1] = a;
        score[j + 1] = sc;
    }
}

double ExpectimaxSearch::decision_node(int ply, int depth, double alpha, double beta, Visit visit,
                                       ProbeRecord *probe, int player, uint64_t key, ard_action tt_move) {
    const uint8_t *s = state_at(ply);
    ard_action *moves = moves_at(ply);
    const int n = game_->legal_actions(s, moves);
    if (n <= 0) return leaf_value(s);  // a decision node without moves: nothing to search
    order_moves(ply, moves, n, player, tt_move);

    const bool maximizing = player == root_player_;
    const double alpha0 = alpha, beta0 = beta;
    double best = maximizing ? -2.0 : 2.0;
    ard_action best_move = -1;
    int first = 0;
    if (visit == VISIT_RESUME && probe->move >= 0) {
        // The probe already searched this move: take its result and go on
        // with the others. A probe value below the window was a fail-low,
        // an upper bound, and stays one here (the window is no wider).
        for (int i = 0; i < n; i++)
            if (moves[i] == probe->move) {
                std::rotate(moves, moves + i, moves + i + 1);
                best = probe->value;
                best_move = probe->move;
                pv_row(ply)[0] = best_move;
                pv_len_[ply] = 1;
                if (maximizing) alpha = std::max(alpha, best);
                else beta = std::min(beta, best);
                first = 1;
                break;
            }
    }
    const int limit = visit == VISIT_PROBE ? 1 : n;
    uint8_t *child = state_at(ply + 1);
    if (first == 1 && alpha >= beta) first = limit;  // the probed move alone refutes the node
    for (int i = first; i < limit; i++) {
        std::memcpy(child, s, state_size_);
        game_->apply(child, moves[i]);
        on_prev_pv_[ply + 1] = on_prev_pv_[ply] && ply < (int)prev_pv_.size() && prev_pv_[ply] == moves[i];
        const double v = search(ply + 1, depth - 1, alpha, beta);
        if (aborted_) return 0.0;
        if (maximizing ? v > best : v < best) {
            best = v;
            best_move = moves[i];
            set_pv(ply, moves[i]);
        }
        if (maximizing) alpha = std::max(alpha, v);
        else beta = std::min(beta, v);
        if (alpha >= beta) {
            ard_action *killer = killers_.data() + 2 * (size_t)ply;
            if (killer[0] != moves[i]) {
                killer[1] = killer[0];
                killer[0] = moves[i];
            }
            int32_t *h = history_.data() + (size_t)(player & 1) * (history_.size() / 2);
            if (moves[i] >= 0 && (size_t)moves[i] < history_.size() / 2) {
                h[moves[i]] += depth * depth;
                if (h[moves[i]] > kHistoryCap)
                    for (size_t k = 0; k < history_.size(); k++) history_[k] /= 2;
            }
            break;
        }
    }
    if (visit == VISIT_PROBE) {
        probe->move = best_move;
        probe->value = best;
        return best;  // one move is not a result for the table
    }
    if (opt_.use_tt) {
        Bound b = best <= alpha0 ? BOUND_UPPER : (best >= beta0 ? BOUND_LOWER : BOUND_EXACT);
        tt_.store(key, depth, b, best, best_move);
    }
    return best;
}

void ExpectimaxSearch::sort_outcomes(ard_action *outcomes, double *probs, int n) {
    // Likeliest first: Star1 bounds tighten fastest when big weights come early.
    for (int i = 1; i < n; i++) {
        ard_action a = outcomes[i];
        double p = probs[i];
        int j = i - 1;
        while (j >= 0 && probs[j] < p) {
            outcomes[j + 1] = outcomes[j];
            probs[j + 1] = probs[j];
            j--;
        }
        outcomes[j + 1] = a;
        probs[j + 1] = p;
    }
}

/* A guess at a chance node's value, to direct Star2: the table's last
 * value for it (any depth, any bound), else the static evaluation. Only the
 * work done depends on it, never the value. */
double ExpectimaxSearch::value_guess(const void *state, uint64_t key) {
    if (opt_.use_tt)
        if (const TTEntry *e = tt_.probe(key)) return e->value;
    return clamp_value(opt_.eval(state, root_player_));
}

/* The order in which the Star1 phase searches a chance node's outcomes.
 *
 * After probing, a max child has a tight lower bound and a loose upper one
 * (+1), a min child the reverse. A node that will fail low needs the upper
 * bounds of all outcomes to add up below alpha: searching the outcomes whose
 * upper bound is still +1 first (in full) leaves the probed min children for
 * last, where their probe bounds often finish the cut without a search. A
 * node that will fail high wants the loose lower bounds searched first. Which
 * way the node goes is guessed from the probe values (the mean of what is
 * known) or, with nothing probed, from value_guess; inside the window, or
 * when there was no probing pass, the order stays likeliest first. The
 * order changes which outcomes are searched, never the value (chance_node
 * sums exact values in the canonical order). */
void ExpectimaxSearch::star1_order(int n, const double *p, const double *lo, const double *hi,
                                   const ProbeRecord *probed, double alpha, double beta,
                                   bool probed_pass, double guess, int32_t *order) {
    double known = 0.0, weight = 0.0;
    for (int i = 0; i < n; i++) {
        if (lo[i] >= hi[i]) {
            known += p[i] * lo[i];
            weight += p[i];
        } else if (probed[i].move >= 0) {
            known += p[i] * std::min(std::max(probed[i].value, kLow), kHigh);
            weight += p[i];
        }
    }
    const double expect = weight > 0.0 ? known / weight : guess;
    int k = 0;
    if (probed_pass && (expect <= alpha || expect >= beta)) {
        const bool fail_low = expect <= alpha;
        for (int i = 0; i < n; i++)  // loose on the side that decides the cut: first
            if (fail_low ? hi[i] >= kHigh : lo[i] <= kLow) order[k++] = i;
        for (int i = 0; i < n; i++)
            if (!(fail_low ? hi[i] >= kHigh : lo[i] <= kLow)) order[k++] = i;
    } else {
        for (int i = 0; i < n; i++) order[k++] = i;
    }
}

/* A chance node searched with the window (alpha, beta).
 *
 * lo[i] / hi[i] bound outcome i's value (kLow / kHigh until something better
 * is known). With S the exact weighted sum of the outcomes searched so far
 * and R_lo / R_hi the weighted bounds of those not yet searched, the node
 * value lies in [S + p_i v_i + R_lo, S + p_i v_i + R_hi], so outcome i only
 * matters inside
 *     alpha_i = (alpha - S - R_hi) / p_i,   beta_i = (beta - S - R_lo) / p_i
 * (Star1). Star2 first tightens lo/hi by probing each outcome's first move. */
double ExpectimaxSearch::chance_node(int ply, int depth, double alpha, double beta, uint64_t key) {
    const uint8_t *s = state_at(ply);
    ard_action *outcomes = moves_at(ply);
    double *p = probs_at(ply), *lo = lower_at(ply), *hi = upper_at(ply);
    ProbeRecord *probed = probes_at(ply);
    const int n = game_->chance_outcomes(s, outcomes, p);
    if (n <= 0) return leaf_value(s);
    sort_outcomes(outcomes, p, n);
    for (int i = 0; i < n; i++) {
        lo[i] = kLow;
        hi[i] = kHigh;
        probed[i].move = -1;
    }
    uint8_t *child = state_at(ply + 1);
    on_prev_pv_[ply + 1] = 0;  // the PV stops at chance nodes
    auto store = [&](Bound b, double v) {
        if (opt_.use_tt) tt_.store(key, depth, b, v, -1);
        return v;
    };

    // Star2 probing. Only the probes that can help the way the node is
    // expected to fail are made: a max child's probe gives a lower bound,
    // useful only to fail high; a min child's an upper bound, useful only to
    // fail low. At depth 1 the probed move leads to a leaf: the probe saves a
    // few evaluations but costs a second move generation (in Stand at
    // Mortain more time than it saves, in the toy Pig more nodes), so
    // probing starts at kMinProbeDepth.
    double guess = 0.0;
    const bool probing = opt_.star2 && n > 1 && depth >= kMinProbeDepth;
    if (probing) {
        guess = value_guess(s, key);
        const bool want_lower = guess > alpha, want_upper = guess < beta;
        double sum_lo = 0.0, sum_hi = 0.0;
        for (int i = 0; i < n; i++) {
            sum_lo += p[i] * lo[i];
            sum_hi += p[i] * hi[i];
        }
        for (int i = 0; i < n; i++) {
            std::memcpy(child, s, state_size_);
            game_->apply(child, outcomes[i]);
            const int cp = game_->current_player(child);
            double w;
            if (cp == ARD_TERMINAL) {
                nodes_++;
                w = terminal_value(child);
                sum_lo += p[i] * (w - lo[i]);
                sum_hi += p[i] * (w - hi[i]);
                lo[i] = hi[i] = w;
            } else if (cp == root_player_) {  // max child: one move gives a lower bound
                if (!want_lower) continue;
                const double bi = (beta - (sum_lo - p[i] * lo[i])) / p[i];
                const double ai = std::max(kLow, (alpha - (sum_hi - p[i] * hi[i])) / p[i]);
                w = search(ply + 1, depth, ai, std::min(bi, kHigh), VISIT_PROBE, &probed[i]);
                if (aborted_) return 0.0;
                w = clamp_value(w);
                if (w > lo[i] && (w > ai || ai <= kLow)) {
                    sum_lo += p[i] * (w - lo[i]);
                    lo[i] = w;
                }
            } else if (cp >= 0) {  // min child: one move gives an upper bound
                if (!want_upper) continue;
                const double ai = (alpha - (sum_hi - p[i] * hi[i])) / p[i];
                const double bi = std::min(kHigh, (beta - (sum_lo - p[i] * lo[i])) / p[i]);
                w = search(ply + 1, depth, std::max(ai, kLow), bi, VISIT_PROBE, &probed[i]);
                if (aborted_) return 0.0;
                w = clamp_value(w);
                if (w < hi[i] && (w < bi || bi >= kHigh)) {
                    sum_hi += p[i] * (w - hi[i]);
                    hi[i] = w;
                }
            } else {
                continue;  // a chance outcome followed by another chance node: no probe
            }
            if (sum_lo >= beta) return store(BOUND_LOWER, sum_lo);
            if (sum_hi <= alpha) return store(BOUND_UPPER, sum_hi);
        }
    }

    // Star1 search phase, in an order chosen to cut early: see star1_order.
    int32_t *order = scores_at(ply);  // a chance node's ply has no moves to score
    star1_order(n, p, lo, hi, probed, alpha, beta, probing, guess, order);
    double rest_lo = 0.0, rest_hi = 0.0;
    for (int i = 0; i < n; i++) {
        rest_lo += p[i] * lo[i];
        rest_hi += p[i] * hi[i];
    }
    double sum = 0.0;
    for (int k = 0; k < n; k++) {
        const int i = order[k];
        rest_lo -= p[i] * lo[i];
        rest_hi -= p[i] * hi[i];
        const double ai = (alpha - sum - rest_hi) / p[i];
        const double bi = (beta - sum - rest_lo) / p[i];
        if (lo[i] >= bi) return store(BOUND_LOWER, sum + p[i] * lo[i] + rest_lo);
        if (hi[i] <= ai) return store(BOUND_UPPER, sum + p[i] * hi[i] + rest_hi);
        double v;
        if (lo[i] >= hi[i]) {
            v = lo[i];  // known exactly (a terminal outcome seen while probing)
        } else {
            std::memcpy(child, s, state_size_);
            game_->apply(child, outcomes[i]);
            v = search(ply + 1, depth, std::max(ai, lo[i]), std::min(bi, hi[i]), VISIT_RESUME,
                       &probed[i]);
            if (aborted_) return 0.0;
            v = std::min(std::max(v, lo[i]), hi[i]);
        }
        if (v >= bi) return store(BOUND_LOWER, sum + p[i] * v + rest_lo);
        if (v <= ai) return store(BOUND_UPPER, sum + p[i] * v + rest_hi);
        sum += p[i] * v;
        lo[i] = hi[i] = v;
    }
    // Every outcome is exact: sum them in the canonical (likeliest first)
    // order, so that the value does not depend on the search order above to
    // the last bit, with or without Star2.
    sum = 0.0;
    for (int i = 0; i < n; i++) sum += p[i] * lo[i];
    return store(BOUND_EXACT, sum);
}

}  // namespace ard
