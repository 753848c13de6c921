/* The pybind11 module ardsearch._search: each algorithm binds its own
 * classes; this file only assembles the module. */
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace ard {
void bind_mcts(py::module_ &m);        // mcts.cpp: MCTS and ISMCTS
void bind_expectimax(py::module_ &m);  // expectimax.cpp
}  // namespace ard

PYBIND11_MODULE(_search, m) {
    m.doc() = "ardsearch search core: MCTS, information-set MCTS and expectimax over the game ABI";
    ard::bind_mcts(m);
    ard::bind_expectimax(m);
}
