/* The MCTS tree's memory: fixed-size nodes in a pool of contiguous chunks.
 *
 * A node's children are one contiguous block inside a chunk, so a node finds
 * them with one index and a count, and selection walks them like an array.
 * Chunks are allocated as the tree grows (one allocation per 65,536 nodes,
 * never per simulation) and kept across searches; the pool refuses blocks
 * past its node limit, which is how the search enforces its memory cap. */
#ifndef ARDSEARCH_SEARCH_MCTS_POOL_H
#define ARDSEARCH_SEARCH_MCTS_POOL_H

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ard {

/* "No proof yet" in Node::proven; otherwise proven holds the exact game
 * value for player 0 (+1, 0 or -1); the game is zero-sum. */
constexpr int8_t kUnproven = -128;

struct Node {
    double value_sum;      // sum of simulation results, from the chooser's perspective
    uint32_t visits;       // simulations through this node
    uint32_t avail;        // ISMCTS: parent visits in which this edge was legal
    int32_t first_child;   // pool index of the children block, -1 if none yet
    int32_t action;        // the edge from the parent (ARD_HIDDEN_OUTCOME for merged hidden outcomes)
    float prob;            // chance probability of the edge (1 for decisions)
    float eval;            // implicit minimax: the searched-out evaluate() value, chooser's perspective
    uint16_t num_children; // children in use
    uint16_t capacity;     // children the block can hold (ISMCTS grows blocks)
    int8_t chooser;        // who picked the edge: 0, 1 or ARD_CHANCE; the root: its side to move
    int8_t proven;         // kUnproven or the proven game value for player 0
    uint8_t expanded;      // 1 once the node's children were generated
    // Two flags in one byte, so that the node stays 40 bytes (a 41st byte pads it to 48).
    uint8_t shadow : 1;    // ISMCTS: 1 = an opponent's statistics for a move the searcher cannot
                           // see (never a tree edge: the tree goes on through the '?' sibling)
    uint8_t has_eval : 1;  // 1 = eval holds evaluate() of the position after the edge (child
                           // evaluation at expansion), even before the first visit
};
static_assert(sizeof(Node) == 40, "an MCTS node is 40 bytes: keep new fields within the padding");
static_assert(sizeof(Node) <= 64, "an MCTS node must fit in 64 bytes");

inline void init_node(Node &n, int32_t action, float prob, int8_t chooser) {
    n.value_sum = 0.0;
    n.visits = 0;
    n.avail = 0;
    n.first_child = -1;
    n.action = action;
    n.prob = prob;
    n.eval = 0.0f;
    n.num_children = 0;
    n.capacity = 0;
    n.chooser = chooser;
    n.proven = kUnproven;
    n.expanded = 0;
    n.shadow = 0;
    n.has_eval = 0;
}

class NodePool {
   public:
    static constexpr int kChunkBits = 16;
    static constexpr uint32_t kChunkSize = 1u << kChunkBits;
    static constexpr uint32_t kChunkMask = kChunkSize - 1;

    explicit NodePool(uint64_t limit = 0) { set_limit(limit); }

    /* Node limit (the memory cap); at least one chunk. */
    void set_limit(uint64_t limit) {
        if (limit < kChunkSize) limit = kChunkSize;
        if (limit > 0x7fff0000ull) limit = 0x7fff0000ull;
        limit_ = (uint32_t)limit;
    }

    Node &operator[](int32_t i) { return chunks_[(uint32_t)i >> kChunkBits][(uint32_t)i & kChunkMask]; }
    const Node &operator[](int32_t i) const {
        return chunks_[(uint32_t)i >> kChunkBits][(uint32_t)i & kChunkMask];
    }

    /* Index of a fresh contiguous block of n nodes (uninitialized), or -1
     * when the pool has reached its limit. A block never straddles two
     * chunks; the tail of a chunk too short for it is left unused. */
    int32_t alloc(uint32_t n) {
        if (n == 0 || n > kChunkSize) return -1;
        uint32_t start = next_;
        if ((start & kChunkMask) + n > kChunkSize) start = (start | kChunkMask) + 1;
        if ((uint64_t)start + n > limit_) return -1;
        uint32_t last_chunk = (start + n - 1) >> kChunkBits;
        while (chunks_.size() <= last_chunk)
            chunks_.emplace_back(new Node[kChunkSize]);  // default-init: no zeroing, pages touched on use
        next_ = start + n;
        used_ += n;
        return (int32_t)start;
    }

    /* Forget every node but keep the chunks for the next tree. */
    void clear() { next_ = used_ = 0; }
    /* Forget every node and give the memory back. */
    void release() {
        clear();
        chunks_.clear();
        chunks_.shrink_to_fit();
    }
    void swap(NodePool &o) {
        chunks_.swap(o.chunks_);
        std::swap(next_, o.next_);
        std::swap(used_, o.used_);
        std::swap(limit_, o.limit_);
    }

    uint64_t limit() const { return limit_; }
    uint64_t nodes() const { return used_; }
    uint64_t bytes() const { return (uint64_t)chunks_.size() * kChunkSize * sizeof(Node); }
    bool full_for(uint32_t n) const {
        uint32_t start = next_;
        if ((start & kChunkMask) + n > kChunkSize) start = (start | kChunkMask) + 1;
        return (uint64_t)start + n > limit_;
    }

   private:
    std::vector<std::unique_ptr<Node[]>> chunks_;
    uint32_t next_ = 0;  // next free index
    uint32_t used_ = 0;  // nodes handed out (excludes skipped chunk tails)
    uint32_t limit_ = kChunkSize;
};

}  // namespace ard

#endif
