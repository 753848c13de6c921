/* Transposition table for the expectimax search: fixed size, two-way
 * buckets, keyed by the game's 64-bit state hash.
 *
 * Each entry remembers a search result at one remaining depth: the value
 * (from the root player's point of view, so entries are only valid within
 * one search call: see new_search), what kind of bound it is, and the best
 * move of a decision node (-1 for chance nodes). Values are doubles, not
 * floats, so that a table hit returns bit for bit what a re-search would.
 *
 * Replacement: an entry for the same key is always overwritten (the newest
 * result is the one iterative deepening wants); otherwise a slot left by an
 * earlier search goes first, then the shallower of the two. */
#ifndef ARDSEARCH_SEARCH_TT_H
#define ARDSEARCH_SEARCH_TT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ardsearch/game.h"

namespace ard {

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTEntry {
    uint64_t key;
    double value;
    ard_action move;  // best move of a decision node, -1 if none
    int16_t depth;    // remaining depth the value was searched to
    uint8_t bound;    // Bound
    uint8_t generation;
};
static_assert(sizeof(TTEntry) == 24, "TT entries should stay 24 bytes");

class TranspositionTable {
  public:
    explicit TranspositionTable(size_t megabytes) { resize(megabytes); }

    void resize(size_t megabytes) {
        size_t want = (megabytes << 20) / sizeof(Bucket);
        size_t n = 1;
        while (n * 2 <= want) n *= 2;  // a power of two, so indexing is a mask
        buckets_.assign(n, Bucket{});
        mask_ = n - 1;
        generation_ = 1;
    }

    /* Entries of earlier searches become invisible: values are relative to
     * the root player and to the search's own depth counting. On the rare
     * wrap of the 8-bit generation the table is wiped, so a 256-searches-old
     * entry can never pass for a current one. */
    void new_search() {
        if (++generation_ == 0) {
            std::memset(buckets_.data(), 0, buckets_.size() * sizeof(Bucket));
            generation_ = 1;
        }
    }

    /* The current-search entry for key, or nullptr. */
    const TTEntry *probe(uint64_t key) const {
        const Bucket &b = buckets_[key & mask_];
        for (const TTEntry &e : b.slot)
            if (e.key == key && e.generation == generation_ && e.bound != BOUND_NONE) return &e;
        return nullptr;
    }

    void store(uint64_t key, int depth, Bound bound, double value, ard_action move) {
        Bucket &b = buckets_[key & mask_];
        TTEntry *victim = nullptr;
        for (TTEntry &e : b.slot)
            if (e.key == key && e.generation == generation_) { victim = &e; break; }
        if (victim) {
            if (move < 0) move = victim->move;  // keep a known best move for ordering
        } else {
            TTEntry &a = b.slot[0], &c = b.slot[1];
            if (a.generation != generation_) victim = &a;
            else if (c.generation != generation_) victim = &c;
            else victim = (a.depth < c.depth) ? &a : &c;
        }
        victim->key = key;
        victim->value = value;
        victim->move = move;
        victim->depth = (int16_t)depth;
        victim->bound = bound;
        victim->generation = generation_;
    }

    size_t entries() const { return buckets_.size() * 2; }

  private:
    struct Bucket {
        TTEntry slot[2];
    };
    std::vector<Bucket> buckets_;
    size_t mask_ = 0;
    uint8_t generation_ = 1;
};

}  // namespace ard

#endif
