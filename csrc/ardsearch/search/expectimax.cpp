/* Python binding of the expectimax search: ardsearch._search.Expectimax.
 * Argument checking and result dicts happen here with the GIL held; the
 * search itself (expectimax_search.cpp) runs with the GIL released. */
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>

#include "common.h"
#include "expectimax_search.h"

namespace ard {

namespace {

const char *kClassDoc = R"doc(Expectiminimax search with alpha-beta, Star1/Star2 and a transposition table.

Expectimax(capsule, seed=0, tt_mb=64, star2=True, use_tt=True, determinizations=8, weights=None)

weights: None scores leaves with the game's evaluate(); a list of
len(game.feature_names) numbers scores them with tanh(w . features / 2) using
these weights instead of the game's table (this search only).

Values are from the point of view of the player to move at the root, in [-1, 1]:
decision nodes are max nodes when that player moves and min nodes otherwise
(decided node by node, so multi-action turns need no special care), chance nodes
are the probability-weighted mean of their outcomes, leaves are
game.evaluate(state, root player) and terminal states their returns.

Depth counts decision plies: chance nodes inside the horizon do not consume
depth, and a chance node at the horizon is a leaf (evaluated, like a decision
node there). Iterative deepening runs depth 1, 2, ... until a budget runs out;
depth 1 always completes, so there is always a best move.

Pruning: alpha-beta at decision nodes (TT move, previous PV, killers, history),
Ballard's Star1 at chance nodes and, with star2=True, Star2 probing (an outcome's
first move is searched first to bound it; directed to the side the node is
expected to fail on, which matters when a chance node has both max and min
children). The transposition table (tt_mb megabytes, keyed by game hash) uses a stored
value only at exactly the depth it was searched to, so neither Star2 nor the
table changes the value of a depth-d search, only the number of nodes.

Hidden information: when the game has hidden information and the root is a view
state (state.view(player)), the search is Perfect Information Monte Carlo (PIMC):
`determinizations` full states are sampled from the view with the game's
determinize() (seeded by `seed`), each is searched as if everything were
visible, with every root action given a full window so its value is exact, and
the root action values are averaged over the samples; 'votes' counts in how many
samples each action was best (used to break ties). A full state of a hidden-
information game is searched as it is (a perfect-information 'cheating' search).

The same seed, options and budget (depth or nodes) give the same result; a time
budget depends on the machine's speed.)doc";

const char *kSearchDoc = R"doc(search(state_raw, depth=None, time_limit=None, nodes=None, root_actions=None, clock="wall") -> dict

state_raw is state.raw() of a decision state (not chance, not terminal).
Budgets, any combination, the first one reached stops the search: depth
(decision plies, 1..64), time_limit (seconds), nodes. With none given the
search runs to depth 3. The GIL is released while searching.

root_actions: None searches every legal root action; a list restricts the
search (and 'best', 'actions', 'values', 'pv') to those actions, like UCI's
searchmoves. Each must be legal at state_raw (ValueError naming the first
that is not; an empty list is an error too). In PIMC mode the filter
applies at the root of every determinization.

clock: what time_limit counts. "wall" (the default): wall-clock seconds.
"cpu": the searching thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), so
other processes on a loaded machine do not shorten the search (equal-time
matches). Anything else is a ValueError.

Returns a dict: 'best' (action), 'value' (root value for the player to move),
'actions' and 'values' (each root action's value at the last completed depth:
exact for the best action; for the others an upper bound from alpha-beta, except
in PIMC mode, where all are exact averages), 'pv' (actions from the root; it
stops at the first chance node), 'depth' (last completed), 'nodes' (all nodes
visited, probes included), 'time' (wall seconds), 'nps', 'tt_hits' (table probes that
found their state), 'exact_values', 'clock' ("wall" or "cpu": what time_limit
counted), 'cpu_time' (CPU seconds the search used), and in PIMC mode
'determinizations' and 'votes'.)doc";

class PyExpectimax {
  public:
    PyExpectimax(py::object capsule, uint64_t seed, int64_t tt_mb, bool star2, bool use_tt,
                 int determinizations, py::object weights)
        : capsule_(std::move(capsule)), game_(game_from_capsule(capsule_)) {
        if (tt_mb < 1 || tt_mb > (1 << 16))
            throw py::value_error("tt_mb must be between 1 and 65536 megabytes, got " +
                                  std::to_string(tt_mb));
        if (determinizations < 1 || determinizations > 4096)
            throw py::value_error("determinizations must be between 1 and 4096, got " +
                                  std::to_string(determinizations));
        ExpectimaxOptions opt;
        opt.seed = seed;
        opt.tt_mb = (size_t)tt_mb;
        opt.star2 = star2;
        opt.use_tt = use_tt;
        opt.determinizations = determinizations;
        opt.eval = make_evaluator(game_, weights);
        search_ = std::make_unique<ExpectimaxSearch>(game_, opt);
    }

    py::dict search(const py::bytes &raw, py::object depth, py::object time_limit, py::object nodes,
                    py::object root_actions, const std::string &clock) {
        const bool cpu_clock = cpu_clock_from(clock);
        std::vector<uint8_t> state = state_from_bytes(game_, raw);
        const int player = game_->current_player(state.data());
        if (player == ARD_CHANCE)
            throw py::value_error("the root is a chance node: search needs a decision state "
                                  "(apply a chance outcome first, e.g. state.apply_random_chance())");
        if (player == ARD_TERMINAL) throw py::value_error("the root is terminal: the game is over");
        if (player != 0 && player != 1)
            throw py::value_error("current_player() returned " + std::to_string(player) +
                                  ": not a decision state");
        const int viewer = game_->viewer(state.data());
        if (viewer >= 0 && viewer != player)
            throw py::value_error("the state is player " + std::to_string(viewer) +
                                  "'s view but player " + std::to_string(player) +
                                  " is to move: search a view of the player to move");

        ExpectimaxLimits lim;
        if (!depth.is_none()) {
            long d = depth.cast<long>();
            if (d < 1 || d > ExpectimaxSearch::kMaxDepth)
                throw py::value_error("depth must be between 1 and " +
                                      std::to_string(ExpectimaxSearch::kMaxDepth) + ", got " +
                                      std::to_string(d));
            lim.depth = (int)d;
        }
        if (!time_limit.is_none()) {
            double t = time_limit.cast<double>();
            if (!(t > 0.0)) throw py::value_error("time_limit must be a positive number of seconds");
            lim.time_limit = t;
        }
        if (!nodes.is_none()) {
            long long n = nodes.cast<long long>();
            if (n < 1) throw py::value_error("nodes must be a positive integer");
            lim.nodes = (uint64_t)n;
        }
        if (depth.is_none() && time_limit.is_none() && nodes.is_none()) lim.depth = 3;
        if (!root_actions.is_none()) lim.root_actions = checked_root_actions(game_, state.data(), root_actions);
        lim.cpu_clock = cpu_clock;

        bool expected = false;
        if (!busy_.compare_exchange_strong(expected, true))
            throw std::runtime_error("this Expectimax is already searching (one search at a time)");
        ExpectimaxResult r;
        try {
            py::gil_scoped_release nogil;
            r = search_->run(state.data(), lim);
        } catch (...) {
            busy_.store(false);
            throw;
        }
        busy_.store(false);

        py::dict d;
        d["best"] = r.best;
        d["value"] = r.value;
        d["actions"] = r.actions;
        d["values"] = r.values;
        d["pv"] = r.pv;
        d["depth"] = r.depth;
        d["nodes"] = r.nodes;
        d["time"] = r.time;
        d["nps"] = r.time > 0.0 ? (double)r.nodes / r.time : 0.0;
        d["tt_hits"] = r.tt_hits;
        d["exact_values"] = r.exact_values;
        d["clock"] = r.cpu_clock ? "cpu" : "wall";
        d["cpu_time"] = r.cpu_time;
        if (r.determinizations > 0) {
            d["determinizations"] = r.determinizations;
            d["votes"] = r.votes;
        }
        return d;
    }

    void stop() { search_->stop(); }

    py::dict progress() const {
        const ExpectimaxProgress &p = search_->progress;
        py::dict d;
        bool running = p.running.load();
        d["running"] = running;
        d["depth"] = p.depth.load();
        d["nodes"] = p.nodes.load();
        d["best"] = p.best.load();
        d["value"] = p.value.load();
        int64_t start = p.start_ns.load();
        double t = 0.0;
        if (start != 0)
            t = (double)(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             Clock::now().time_since_epoch())
                             .count() -
                         start) *
                1e-9;
        d["time"] = running ? t : 0.0;
        return d;
    }

  private:
    py::object capsule_;  // keeps the game's module (and its vtable) alive
    const ard_game *game_;
    std::unique_ptr<ExpectimaxSearch> search_;
    std::atomic<bool> busy_{false};
};

}  // namespace

void bind_expectimax(py::module_ &m) {
    py::class_<PyExpectimax>(m, "Expectimax", kClassDoc)
        .def(py::init<py::object, uint64_t, int64_t, bool, bool, int, py::object>(), py::arg("capsule"),
             py::arg("seed") = 0, py::arg("tt_mb") = 64, py::arg("star2") = true,
             py::arg("use_tt") = true, py::arg("determinizations") = 8,
             py::arg("weights") = py::none())
        .def("search", &PyExpectimax::search, kSearchDoc, py::arg("state_raw"),
             py::arg("depth") = py::none(), py::arg("time_limit") = py::none(),
             py::arg("nodes") = py::none(), py::arg("root_actions") = py::none(),
             py::arg("clock") = "wall")
        .def("stop", &PyExpectimax::stop,
             "Ask a running search (in another thread) to stop; it returns the last completed depth.",
             py::call_guard<py::gil_scoped_release>())
        .def("progress", &PyExpectimax::progress,
             "Progress of the running search, safe from another thread: dict with 'running', "
             "'depth' (last completed), 'nodes', 'best', 'value', 'time' (seconds so far).");
}

}  // namespace ard
