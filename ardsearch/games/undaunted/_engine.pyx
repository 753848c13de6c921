# cython: language_level=3
"""Undaunted: Normandy: the C engine behind the ardsearch game ABI.

Rules: ardsearch/games/undaunted/RULES.md (from shared/games/undaunted.md).
Everything the search calls is a `noexcept nogil` C function in the static
vtable UND_GAME, exported by capsule(). The scenario (board, decks, tokens,
goals) is data: the package __init__ reads scenarios/*.toml and packs it into
the parameters struct, which is simply a state before its first round, so the
engine itself knows no scenario. The module-level Python functions (pack_setup,
to_dict, from_dict, observation_tensor and the underscored test and benchmark
helpers) are the slow, friendly side used by the package __init__ and tests.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset, strlen, strncmp
from libc.stdio cimport snprintf
from libc.math cimport atanh, tanh
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_New

from ardsearch.game cimport (ard_game, ard_fail, ard_linear_value, ard_hash_bytes, ard_returns_for_winner, ard_rng, ard_action, ard_rng_seed, ard_rng_below,
                             ard_rng_pick, ard_rng_double, ARD_ABI_VERSION, ARD_CHANCE, ARD_TERMINAL,
                             ARD_HIDDEN_OUTCOME, ARD_FLAG_CHANCE, ARD_FLAG_HIDDEN)

import time
import numpy as np

# ----------------------------------------------------------------- card table
# Cards 0..14 (both armies use the same table); units (combat tokens) 0..8 are
# cards 1..9, so unit u is card u + 1.
cdef extern from *:
    """
    static const char *UND_CARD_NAMES[15] = {"fog", "mortar", "mg", "sniper", "rifA", "rifB",
        "rifC", "scoutA", "scoutB", "scoutC", "sl_A", "sl_B", "sl_C", "guide", "psgt"};
    /* the values below are data/cards.toml's, set at import by set_card_table();
       these initial values are the contract's table, so a bare engine plays it too */
    static unsigned char UND_INITIATIVE[15] = {1, 2, 3, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 9};
    /* combat group of a card: 0 none, 1 A, 2 B, 3 C */
    static const unsigned char UND_CG[15] = {0, 0, 0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 0, 0};
    /* per unit: token defence and Attack dice (0: the unit has no Attack) */
    static unsigned char UND_DEFENCE[9] = {3, 4, 5, 4, 4, 4, 5, 5, 5};
    static unsigned char UND_DICE[9] = {0, 2, 3, 1, 1, 1, 1, 1, 1};
    /* Bolster cards in action order and their X and combat group */
    static const unsigned char UND_BOLSTER_CARD[5] = {10, 11, 12, 13, 14};
    static unsigned char UND_BOLSTER_X[5] = {2, 2, 2, 1, 3};
    static const unsigned char UND_BOLSTER_CG[5] = {1, 2, 3, 0, 0};
    /* Machine Gunner's Suppress X and Mortar's Explode X */
    static unsigned char UND_SUPPRESS_DICE = 4;
    static unsigned char UND_EXPLODE_DICE = 1;
    static const char *UND_ZONE[4] = {"hand", "discard", "deck", "token"};
    """
    const char *UND_CARD_NAMES[15]
    uint8_t UND_INITIATIVE[15]
    const uint8_t UND_CG[15]
    uint8_t UND_DEFENCE[9]
    uint8_t UND_DICE[9]
    const uint8_t UND_BOLSTER_CARD[5]
    uint8_t UND_BOLSTER_X[5]
    uint8_t UND_SUPPRESS_DICE
    uint8_t UND_EXPLODE_DICE
    const uint8_t UND_BOLSTER_CG[5]
    const char *UND_ZONE[4]

cdef enum:
    NCARD = 15
    NUNIT = 9
    MAXT = 32           # tiles per board (bit masks are uint32)
    MAXDEG = 8          # neighbours per tile (bounds legal actions)
    MAXCOUNT = 60       # copies of one card type in one army, all zones together
    OFF = 255           # token off the board / no Target marker
    NONE = 255          # no bid / no winner
    UNKNOWN = 254       # a bid its view's owner has not seen
    HILL = 4            # cover code of a hill (3, or 1 from a hill or by Explode)
    STOP = 32           # scout path: no second tile
    MAX_PLAYS = 60      # card plays per turn (design choice; bounds the game length)
    MAXB = 6            # blocks of hidden draws a hand record keeps (RULES.md, Hidden information)
    TMAX = 128          # bound on the product of (draws + 1) over the blocks: the sampler's table size

cdef enum:  # cards
    C_FOG = 0
    C_MORTAR = 1
    C_MG = 2
    C_SNIPER = 3
    C_RIF = 4           # 4..6
    C_SCOUT = 7         # 7..9
    C_SL = 10           # 10..12
    C_GUIDE = 13
    C_PSGT = 14

cdef enum:  # units
    U_MORTAR = 0
    U_MG = 1
    U_SNIPER = 2
    U_RIF = 3           # 3..5
    U_SCOUT = 6         # 6..8

cdef enum:  # dense action numbers (RULES.md, Notation)
    A_DRAW = 0          # + card
    A_REVEAL = 15       # + card
    A_MISS = 30
    A_HIT = 31          # Suppress succeeded
    A_HIT_HAND = 32     # casualty from hand, discard pile, deck, or the token leaves
    A_HIT_DISCARD = 33
    A_HIT_DECK = 34
    A_HIT_TOKEN = 35
    A_BID = 36          # + card
    A_END = 51
    A_SHELTER = 52      # + card (not fog)
    A_RALLY = 67        # + unit: a suppressed unit's card flips it ready
    A_MOVE = 76         # + unit*32 + tile: Move 1 (Sneak 1 for the sniper)
    A_ADVANCE = 364     # + unit*32 + tile
    A_ATTACK = 652      # + attacker unit*9 + target unit
    A_SUPPRESS = 733    # + target unit
    A_EXPLODE = 742
    A_AIM = 743         # + tile
    A_CONTROL = 775     # + rifleman 0..2
    A_CONCEAL = 778     # + scout 0..2
    A_RECON = 781       # + scout 0..2
    A_COMMAND = 784     # + n-1, n = 1..2
    A_INSPIRE = 786     # + squad leader*15 + card
    A_BOLSTER = 831     # + bolster card index 0..4 (sl_A sl_B sl_C guide psgt)
    A_PICK = 836        # + card: one card of a Bolster, supply -> discard pile
    A_PICK_STOP = 851
    A_SCOUT = 852       # + scout*1056 + t1*33 + t2 (t2 = 32: one tile only)
    NUM_ACTIONS = 4020
    # Decision bound (tiles have at most 8 neighbours): end 1 + shelter 14 +
    # rally 9 + moves 6*8 + advance 9*8 + attacks 8*9 + suppress 9 + explode 1 +
    # aim 32 + control 3 + conceal 3 + recon 3 + command 2 + inspire 3*2 +
    # bolster 5 + scout 3*(8+8*8) = 496; picks <= 16; chance outcomes <= 15.
    MAX_LEGAL = 640
    # max_rounds <= 100 rounds of 8 deal draws, 2 bids, a reveal and two
    # turns; a turn is at most 60 plays, each with at most 18 Explode rolls
    # (or 3 picks, or 2 draws), then `end` and at most 900 leftover reveals.
    MAX_GAME_LENGTH = 100 * (11 + 2 * (MAX_PLAYS * 19 + 901))

cdef enum:  # phases
    PH_DEAL = 0         # chance: round-start draws of to_move
    PH_BID1 = 1         # the Initiative holder chooses a card (hidden from the other)
    PH_BID2 = 2         # the other player chooses
    PH_REVEAL = 3       # chance (one public outcome): the first bid is revealed
    PH_TURN = 4         # to_move plays cards
    PH_ROLL = 5         # chance: the attack roll pending in roll_*
    PH_CMD_DRAW = 6     # chance: Command / Reconnoitre draws of to_move
    PH_BOLSTER = 7      # to_move picks Bolster cards one at a time
    PH_LEFTOVER = 8     # chance (public): the ended turn's hand goes to the discard pile
    PH_OVER = 9

cdef enum:  # roll kinds
    RK_CASUALTY = 0
    RK_SUPPRESS = 1

cdef enum:  # end reasons
    END_NONE = 0
    END_OBJECTIVES = 1
    END_IMMOBILIZE = 2
    END_BOTH_IMMOBILIZED = 3
    END_IRREMEDIABLE = 4
    END_MAX_ROUNDS = 5

cdef enum:  # goals
    G_CAPTURE = 0
    G_IMMOBILIZE = 1


# One army (player 0 the US, 1 the Germans). Card zones are counts per card
# type. In a view state the opponent's `hand` holds only the cards everyone
# knows are there (`known`), `deck` holds the pool: the deck and the unknown
# part of the hand together (unknown_hand of its cards are in hand), and an
# unseen bid is UNKNOWN with its card still counted in the hand (known or
# among the unknown_hand).
cdef packed struct Army:
    uint8_t deck[15]
    uint8_t hand[15]
    uint8_t discard[15]
    uint8_t play[15]             # play area of the current turn
    uint8_t supply[15]
    uint8_t removed[15]          # removed from the game (casualties, Reconnoitre)
    uint8_t token[9]             # tile of each unit's combat token, OFF if not on the board
    uint16_t suppressed          # bit u: unit u's token shows its suppressed side
    uint32_t scouted             # bit t: this army's marker on tile t, scouted side up
    uint32_t controlled          # bit t: ... controlled side up (disjoint from scouted)
    uint8_t spawn                # Proliferation tile
    uint8_t target               # the Mortar's Target marker tile, OFF if none
    uint8_t goal                 # G_CAPTURE or G_IMMOBILIZE
    uint8_t goal_points          # objective points that win (G_CAPTURE)
    uint8_t unknown_hand         # view only: cards in hand the viewer does not know
    uint8_t bid                  # initiative card chosen, NONE, or UNKNOWN (view)
    # The public record of this army's hand (the same in a full state and in
    # every view; it is what the opponent knows). `known`: cards everyone knows
    # are in the hand (Inspire, a hand left whole by an emptied deck). The rest
    # of the hand came from hidden draws, grouped in blocks: draws with no
    # public inference between them. After block k, at least klo[k][c] of the
    # record's hidden draws up to block k were cards c (that many left the hand
    # openly, not from `known`), exactly that many if bit c of kpin[k] is set
    # (the hand then held no card c). The record is empty (kblocks 0) whenever
    # no hidden card is in the hand.
    uint8_t known[15]
    uint8_t kblocks              # blocks in use, 0..MAXB
    uint8_t kdirty               # an inference was recorded after the last block's draws
    uint8_t kdraws[6]            # hidden draws in each block
    uint16_t kpin[6]
    uint8_t klo[90]              # klo[k * 15 + c]


# The state. Packed, pointer-free; copied with memcpy, hashed and serialized
# as its bytes. The board and limits are parameters kept inside the state.
cdef packed struct UState:
    # board (fixed for a game); unused tile slots are zero
    uint8_t ntiles               # 1..32
    uint8_t tile_name[32]        # tile number*2 + side (0 A, 1 B), e.g. 13B = 27
    uint8_t cover[32]            # 0..3, or HILL
    uint8_t objective[32]        # objective points of the tile, 0 if none
    uint32_t adj[32]             # bit u: tile u is adjacent
    uint8_t scenario             # scenario number (for display; 0 for a custom file)
    uint8_t max_rounds           # 1..100; after it the game ends on points
    # whose information this is
    int8_t viewer                # -1 full state, 0/1 the owner of this view
    # progress
    uint8_t phase                # PH_*
    uint8_t to_move              # the deciding or drawing player
    uint8_t initiative           # holder of the Initiative marker
    uint8_t turn_index           # 0 the first turn of the round, 1 the second
    uint8_t turn_plays           # cards played this turn, 0..MAX_PLAYS (then only `end`)
    uint8_t round                # 0 before the first round, then 1..max_rounds
    uint8_t draws_pending        # draws still to make (PH_DEAL, PH_CMD_DRAW)
    uint8_t bolster_left         # picks left in PH_BOLSTER
    uint8_t bolster_cg           # combat group the picks are limited to, 0 none
    uint8_t bolster_min          # picks are in non-decreasing card order
    uint8_t roll_army            # PH_ROLL: the army of the attacked unit
    uint8_t roll_unit            # ... the attacked unit
    uint8_t roll_kind            # ... RK_*
    uint8_t roll_dice            # ... dice, 1..4
    uint8_t roll_defence         # ... total defence, 1..60
    uint32_t explode_queue       # bit army*9+unit: tokens an Explode still attacks
    uint8_t winner               # 0, 1 or NONE
    uint8_t end_reason           # END_*
    Army army[2]


# ----------------------------------------------------------------- small helpers
cdef inline int popcount32(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int lowbit(uint32_t x) noexcept nogil:
    cdef int i = 0
    while not (x >> i) & 1:
        i += 1
    return i


cdef inline int zone_sum(const uint8_t *z) noexcept nogil:
    cdef int i, n = 0
    for i in range(NCARD):
        n += z[i]
    return n


cdef inline int hand_total(const UState *s, int a) noexcept nogil:
    return zone_sum(s.army[a].hand) + s.army[a].unknown_hand


cdef inline int deck_count(const UState *s, int a) noexcept nogil:
    return zone_sum(s.army[a].deck) - s.army[a].unknown_hand


cdef inline bint can_play(const UState *s, int a, int c) noexcept nogil:
    """The card may be in a's hand: known there, or possible among the unknown
    cards (not when the record says the hand holds none now)."""
    cdef const Army *ar = &s.army[a]
    if ar.hand[c] > 0:
        return True
    if ar.unknown_hand == 0 or ar.deck[c] == 0:
        return False
    return not (ar.kblocks > 0 and ar.kdirty and (ar.kpin[ar.kblocks - 1] >> c) & 1)


# ---- the public record of a hand (RULES.md, Hidden information) -----------
cdef inline int rec_unknown(const Army *ar) noexcept nogil:
    """Cards of the hand that came from hidden draws and are still there."""
    cdef int k, c, n = 0, last
    if ar.kblocks == 0:
        return 0
    last = (ar.kblocks - 1) * NCARD
    for k in range(ar.kblocks):
        n += ar.kdraws[k]
    for c in range(NCARD):
        n -= ar.klo[last + c]
    return n


cdef inline void rec_reset(Army *ar) noexcept nogil:
    ar.kblocks = 0
    ar.kdirty = 0
    memset(ar.kdraws, 0, sizeof(ar.kdraws))
    memset(ar.kpin, 0, sizeof(ar.kpin))
    memset(ar.klo, 0, sizeof(ar.klo))


cdef inline int rec_table(const Army *ar) noexcept nogil:
    cdef int k, t = 1
    for k in range(ar.kblocks):
        t *= ar.kdraws[k] + 1
    return t


cdef void rec_merge_last(Army *ar) noexcept nogil:
    """Joins the last two blocks, forgetting the inferences between them (a
    relaxation: only when the record is full, see RULES.md)."""
    cdef int k = ar.kblocks - 1, c
    if k < 1:
        return
    ar.kdraws[k - 1] += ar.kdraws[k]
    ar.kpin[k - 1] = ar.kpin[k]
    for c in range(NCARD):
        ar.klo[(k - 1) * NCARD + c] = ar.klo[k * NCARD + c]
        ar.klo[k * NCARD + c] = 0
    ar.kdraws[k] = 0
    ar.kpin[k] = 0
    ar.kblocks -= 1


cdef void rec_draw(Army *ar) noexcept nogil:
    """One hidden draw into the hand."""
    cdef int k
    if ar.kblocks == 0:
        rec_reset(ar)
        ar.kblocks = 1
        ar.kdraws[0] = 1
        return
    if ar.kdirty:
        ar.kdirty = 0
        if ar.kblocks < MAXB and rec_table(ar) * 2 <= TMAX:
            k = ar.kblocks
            memcpy(&ar.klo[k * NCARD], &ar.klo[(k - 1) * NCARD], NCARD)
            ar.kpin[k] = 0
            ar.kdraws[k] = 1
            ar.kblocks += 1
            return
        ar.kpin[ar.kblocks - 1] = 0                 # no room: the draw joins the last block
    k = ar.kblocks - 1
    while ar.kblocks > 1 and rec_table(ar) // (ar.kdraws[k] + 1) * (ar.kdraws[k] + 2) > TMAX:
        rec_merge_last(ar)
        k = ar.kblocks - 1
    if ar.kdraws[k] < 255:
        ar.kdraws[k] += 1


cdef void rec_remove(Army *ar, int c) noexcept nogil:
    """A card c left the hand openly (played, bid, revealed, a casualty)."""
    if ar.known[c] > 0:
        ar.known[c] -= 1
        return
    if ar.kblocks == 0:
        return
    ar.klo[(ar.kblocks - 1) * NCARD + c] += 1
    ar.kdirty = 1
    if rec_unknown(ar) <= 0:
        rec_reset(ar)


cdef inline void rec_exclude(Army *ar, int c) noexcept nogil:
    """The hand holds no card c now (a casualty from elsewhere, a larger reveal)."""
    if ar.kblocks == 0:
        return
    ar.kpin[ar.kblocks - 1] |= <uint16_t>(1 << c)
    ar.kdirty = 1


cdef inline void take_from_hand(UState *s, int a, int c) noexcept nogil:
    """A card of type c leaves a's hand (from the unknown part in a view)."""
    cdef Army *ar = &s.army[a]
    if ar.hand[c] > 0:
        ar.hand[c] -= 1
    elif ar.unknown_hand > 0 and ar.deck[c] > 0:
        ar.deck[c] -= 1
        ar.unknown_hand -= 1


cdef inline int position(const UState *s, int a, int u) noexcept nogil:
    """Where unit u acts from: its token, or its spawn tile if not on the board."""
    cdef int t = s.army[a].token[u]
    return s.army[a].spawn if t == OFF else t


cdef inline bint is_ready(const UState *s, int a, int u) noexcept nogil:
    return not (s.army[a].suppressed >> u) & 1


cdef inline bint has_marker(const UState *s, int a, int t) noexcept nogil:
    return ((s.army[a].scouted | s.army[a].controlled) >> t) & 1


cdef int distance(const UState *s, int a, int b) noexcept nogil:
    """Shortest path in tiles (99 if unconnected)."""
    cdef uint32_t reach, frontier, nxt, f
    cdef int d = 0
    if a == b:
        return 0
    reach = 1u << a
    frontier = reach
    while frontier:
        d += 1
        nxt = 0
        f = frontier
        while f:
            nxt |= s.adj[lowbit(f)]
            f &= f - 1
        nxt &= ~reach
        if (nxt >> b) & 1:
            return d
        reach |= nxt
        frontier = nxt
    return 99


cdef int points(const UState *s, int a) noexcept nogil:
    cdef uint32_t m = s.army[a].controlled
    cdef int n = 0
    while m:
        n += s.objective[lowbit(m)]
        m &= m - 1
    return n


cdef bint rifle_on_board(const UState *s, int a) noexcept nogil:
    cdef int u
    for u in range(U_RIF, U_RIF + 3):
        if s.army[a].token[u] != OFF:
            return True
    return False


cdef bint rifle_cards_left(const UState *s, int a) noexcept nogil:
    """A Rifleman card anywhere but removed: the army can still Control."""
    cdef const Army *ar = &s.army[a]
    cdef int c
    for c in range(C_RIF, C_RIF + 3):
        if ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + ar.supply[c] > 0 or ar.bid == c:
            return True
    return False


cdef bint irremediable(const UState *s, int a) noexcept nogil:
    """a can no longer reach its objective points (capture goals only)."""
    cdef int t, total = 0
    if s.army[a].goal != G_CAPTURE:
        return False
    for t in range(s.ntiles):
        total += s.objective[t]
    if total < s.army[a].goal_points:
        return True
    return not rifle_cards_left(s, a) and points(s, a) < s.army[a].goal_points


cdef inline bint immobilized(const UState *s, int a) noexcept nogil:
    return not rifle_on_board(s, a) or irremediable(s, a)


cdef inline void finish(UState *s, int winner, int reason) noexcept nogil:
    s.phase = PH_OVER
    s.winner = winner
    s.end_reason = reason


cdef void finish_on_points(UState *s, int reason) noexcept nogil:
    cdef int p0 = points(s, 0), p1 = points(s, 1)
    finish(s, 0 if p0 > p1 else 1 if p1 > p0 else s.initiative, reason)


cdef bint goal_met(const UState *s, int a) noexcept nogil:
    if s.army[a].goal == G_CAPTURE:
        return points(s, a) >= s.army[a].goal_points
    return not rifle_on_board(s, 1 - a)


cdef void check_end(UState *s) noexcept nogil:
    """The end conditions, checked after every event that can change them;
    the acting player's win is looked at first."""
    cdef int k, p, o
    if s.phase == PH_OVER:
        return
    for k in range(2):
        p = s.to_move if k == 0 else 1 - s.to_move
        if goal_met(s, p):
            finish(s, p, END_OBJECTIVES if s.army[p].goal == G_CAPTURE else END_IMMOBILIZE)
            return
    if immobilized(s, 0) and immobilized(s, 1):
        finish_on_points(s, END_BOTH_IMMOBILIZED)
        return
    for k in range(2):
        p = s.to_move if k == 0 else 1 - s.to_move
        if irremediable(s, p):
            o = 1 - p
            if s.army[o].goal == G_IMMOBILIZE or points(s, o) > points(s, p):
                finish(s, o, END_IRREMEDIABLE)
                return


cdef inline int cover_against(const UState *s, int tile, int from_tile, bint explode) noexcept nogil:
    cdef int c = s.cover[tile]
    if c == HILL:
        # "attacked by another hill": a hill other than the defender's own tile;
        # an attacker standing on the same hill tile meets the full 3
        return 1 if explode or (from_tile != tile and s.cover[from_tile] == HILL) else 3
    return c


cdef double hit_probability(int dice, int defence) noexcept nogil:
    """Any of `dice` d10 (faces 0..9) shows >= defence or 0."""
    cdef int succ = 1 + (10 - defence if defence < 10 else 0)
    cdef double miss = 1.0, m
    cdef int i
    if defence <= 1:
        succ = 10
    m = (10 - succ) / 10.0
    for i in range(dice):
        miss *= m
    return 1.0 - miss


# ----------------------------------------------------------------- round flow
cdef void reshuffle(UState *s, int a) noexcept nogil:
    """The deck is empty: the whole hand is known to everyone (it is the rest
    of the pool), then the discard pile becomes the deck."""
    cdef int c
    cdef Army *ar = &s.army[a]
    for c in range(NCARD):
        if s.viewer == 1 - a:                       # a view: the pool is the unknown hand
            ar.hand[c] += ar.deck[c]
            ar.deck[c] = 0
        ar.known[c] = ar.hand[c]
    ar.unknown_hand = 0
    rec_reset(ar)
    for c in range(NCARD):
        s.army[a].deck[c] += s.army[a].discard[c]
        s.army[a].discard[c] = 0


cdef void start_round(UState *s) noexcept nogil:
    s.round += 1
    s.turn_index = 0
    s.army[0].bid = NONE
    s.army[1].bid = NONE
    if s.round > s.max_rounds:
        s.round = s.max_rounds
        finish_on_points(s, END_MAX_ROUNDS)
        return
    s.phase = PH_DEAL
    s.to_move = 0
    s.draws_pending = 4
    advance_draws(s)


cdef void advance_draws(UState *s) noexcept nogil:
    """Settles the drawing phases: refills an empty deck from the discard
    pile, skips impossible draws, and moves on when the draws are done."""
    while True:
        if s.draws_pending > 0:
            if deck_count(s, s.to_move) == 0:
                reshuffle(s, s.to_move)
            if deck_count(s, s.to_move) > 0:
                return
            s.draws_pending = 0
        if s.phase == PH_DEAL and s.to_move == 0:
            s.to_move = 1
            s.draws_pending = 4
            continue
        if s.phase == PH_DEAL:
            start_bids(s)
        else:
            s.phase = PH_TURN
        return


cdef void start_bids(UState *s) noexcept nogil:
    s.phase = PH_BID1
    s.to_move = s.initiative
    if hand_total(s, s.to_move) == 0:
        s.army[s.to_move].bid = NONE
        second_bid(s)


cdef void second_bid(UState *s) noexcept nogil:
    s.phase = PH_BID2
    s.to_move = 1 - s.initiative
    if hand_total(s, s.to_move) == 0:
        s.army[s.to_move].bid = NONE
        after_bids(s)


cdef void after_bids(UState *s) noexcept nogil:
    if s.army[s.initiative].bid != NONE:
        s.phase = PH_REVEAL
        s.to_move = s.initiative
    else:
        resolve_bids(s)


cdef inline int bid_value(int b) noexcept nogil:
    return UND_INITIATIVE[b] if b < NCARD else 0


cdef void resolve_bids(UState *s) noexcept nogil:
    cdef int h = s.initiative, o = 1 - s.initiative, a
    if bid_value(s.army[o].bid) > bid_value(s.army[h].bid):
        s.initiative = o
    for a in range(2):
        if s.army[a].bid < NCARD:
            s.army[a].discard[s.army[a].bid] += 1
        s.army[a].bid = NONE
    s.turn_index = 0
    s.to_move = s.initiative
    s.phase = PH_TURN


cdef void finish_turn(UState *s) noexcept nogil:
    s.turn_plays = 0
    if s.turn_index == 0:
        s.turn_index = 1
        s.to_move = 1 - s.initiative
        s.phase = PH_TURN
    else:
        start_round(s)


cdef void start_roll(UState *s, int army, int unit, int kind, int dice, int defence) noexcept nogil:
    s.phase = PH_ROLL
    s.roll_army = army
    s.roll_unit = unit
    s.roll_kind = kind
    s.roll_dice = dice
    s.roll_defence = defence if defence < 60 else 60


cdef void next_explode(UState *s) noexcept nogil:
    """The next token the Explode attacks, or back to the turn."""
    cdef int b, a, u, t
    if s.explode_queue == 0:
        s.phase = PH_TURN
        return
    b = lowbit(s.explode_queue)
    s.explode_queue &= ~(1u << b)
    a = b // NUNIT
    u = b % NUNIT
    t = s.army[a].token[u]
    start_roll(s, a, u, RK_CASUALTY, UND_EXPLODE_DICE, UND_DEFENCE[u] + cover_against(s, t, t, True))


cdef void remove_token(UState *s, int a, int u) noexcept nogil:
    s.army[a].token[u] = OFF
    s.army[a].suppressed &= ~(1 << u)
    if u == U_MORTAR:
        s.army[a].target = OFF


cdef int casualty_zone(const UState *s, int a, int c) noexcept nogil:
    """Where a full state takes a casualty of card c from: 0 hand, 1 discard, 2 deck, 3 token."""
    if s.army[a].hand[c] > 0:
        return 0
    if s.army[a].discard[c] > 0:
        return 1
    if s.army[a].deck[c] > 0:
        return 2
    return 3


# ----------------------------------------------------------------- vtable: init, validate
cdef void und_init(void *state, const void *params, uint64_t seed) noexcept nogil:
    cdef UState *s = <UState *>state
    memcpy(s, params, sizeof(UState))
    s.viewer = -1
    s.round = 0
    start_round(s)


cdef inline int fail(char *msg, int msglen, const char *text) noexcept nogil:
    return ard_fail(msg, msglen, text)  # game.h


cdef inline bint bid_in_hand(const UState *s, int a) noexcept nogil:
    """The first bid, chosen and not yet revealed: the public still counts its
    card as one of the hand's."""
    return a == s.initiative and (s.phase == PH_BID2 or s.phase == PH_REVEAL) and s.army[a].bid < NCARD


cdef int rec_check(const UState *s, int a, char *msg, int msglen) noexcept nogil:
    """The public record of a's hand: well formed and agreeing with the hand."""
    cdef const Army *ar = &s.army[a]
    cdef int k, c, drawn = 0, lo_sum, h, hidden = 0
    if ar.kblocks > MAXB or ar.kdirty > 1 or (ar.kblocks == 0 and ar.kdirty):
        return fail(msg, msglen, "hand record: kblocks must be 0..6 and kdirty 0/1 (0 when empty)")
    for k in range(MAXB):
        if ar.kpin[k] >> NCARD:
            return fail(msg, msglen, "hand record: pin bits beyond the 15 cards")
        lo_sum = 0
        for c in range(NCARD):
            lo_sum += ar.klo[k * NCARD + c]
            if k >= ar.kblocks and ar.klo[k * NCARD + c]:
                return fail(msg, msglen, "hand record: unused blocks must be zero")
            if 0 < k < ar.kblocks and ar.klo[k * NCARD + c] < ar.klo[(k - 1) * NCARD + c]:
                return fail(msg, msglen, "hand record: lower bounds must not decrease from block to block")
        if k >= ar.kblocks:
            if ar.kdraws[k] or ar.kpin[k]:
                return fail(msg, msglen, "hand record: unused blocks must be zero")
            continue
        if ar.kdraws[k] < 1:
            return fail(msg, msglen, "hand record: every block holds at least one draw")
        drawn += ar.kdraws[k]
        if lo_sum > drawn:
            return fail(msg, msglen, "hand record: more cards gone openly than drawn")
    if rec_table(ar) > TMAX:
        return fail(msg, msglen, "hand record: blocks too large (product of draws+1 above 128)")
    if ar.kblocks and rec_unknown(ar) < 1:
        return fail(msg, msglen, "hand record: blocks kept with no hidden card in hand")
    for c in range(NCARD):
        h = ar.hand[c] + (1 if bid_in_hand(s, a) and ar.bid == c else 0)
        if s.viewer == 1 - a:
            if ar.hand[c] != ar.known[c]:
                return fail(msg, msglen, "a view shows exactly the known cards of the opponent's hand")
        elif ar.known[c] > h:
            return fail(msg, msglen, "known cards must be in the hand")
        else:
            hidden += h - ar.known[c]
    if s.viewer == 1 - a:
        hidden = ar.unknown_hand
    if hidden != rec_unknown(ar):
        return fail(msg, msglen, "hand record: its hidden draws must be the hand's cards not known")
    return 0


cdef int und_validate(const void *state, char *msg, int msglen) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const Army *ar
    cdef int t, u, a, c, n, o
    cdef uint32_t inside
    if msg != NULL and msglen > 0:
        msg[0] = 0
    if s.ntiles < 1 or s.ntiles > MAXT:
        return fail(msg, msglen, "ntiles must be 1..32")
    inside = 0xFFFFFFFFu if s.ntiles == 32 else (1u << s.ntiles) - 1
    for t in range(MAXT):
        if t >= s.ntiles:
            if s.tile_name[t] or s.cover[t] or s.objective[t] or s.adj[t]:
                return fail(msg, msglen, "unused tile slots must be zero")
            continue
        if s.tile_name[t] < 2 or s.tile_name[t] > 37:
            return fail(msg, msglen, "tile names must be 1A..18B")
        for u in range(t):
            if s.tile_name[u] == s.tile_name[t]:
                return fail(msg, msglen, "a tile appears twice")
        if s.cover[t] > HILL or s.objective[t] > 9:
            return fail(msg, msglen, "tile cover must be 0..4 (4 hill) and objectives 0..9")
        if s.adj[t] & ~inside or (s.adj[t] >> t) & 1 or popcount32(s.adj[t]) > MAXDEG:
            return fail(msg, msglen, "adjacency must name board tiles, not the tile itself, at most 8")
        for u in range(s.ntiles):
            if ((s.adj[t] >> u) & 1) != ((s.adj[u] >> t) & 1):
                return fail(msg, msglen, "adjacency must be symmetric")
    if s.max_rounds < 1 or s.max_rounds > 100:
        return fail(msg, msglen, "max_rounds must be 1..100")
    if s.viewer < -1 or s.viewer > 1:
        return fail(msg, msglen, "viewer must be -1, 0 or 1")
    if s.phase > PH_OVER or s.to_move > 1 or s.initiative > 1 or s.turn_index > 1:
        return fail(msg, msglen, "phase, to_move, initiative or turn_index out of range")
    if s.turn_plays > MAX_PLAYS:
        return fail(msg, msglen, "turn_plays must be 0..60")
    if s.round < 1 or s.round > s.max_rounds:
        return fail(msg, msglen, "round must be 1..max_rounds")
    for a in range(2):
        ar = &s.army[a]
        for c in range(NCARD):                      # cards are conserved: bound each type's total
            if (ar.deck[c] + ar.hand[c] + ar.discard[c] + ar.play[c] + ar.supply[c] + ar.removed[c]
                    + (ar.bid == c)) > MAXCOUNT:
                return fail(msg, msglen, "more than 60 cards of one type in an army")
        for u in range(NUNIT):
            if ar.token[u] != OFF and ar.token[u] >= s.ntiles:
                return fail(msg, msglen, "a token is on no board tile")
            if (ar.suppressed >> u) & 1 and ar.token[u] == OFF:
                return fail(msg, msglen, "a token off the board cannot be suppressed")
        if ar.suppressed >> NUNIT:
            return fail(msg, msglen, "suppressed bits beyond the 9 units")
        if (ar.scouted | ar.controlled) & ~inside or ar.scouted & ar.controlled:
            return fail(msg, msglen, "markers must be on board tiles, scouted or controlled")
        if ar.spawn >= s.ntiles:
            return fail(msg, msglen, "spawn tile off the board")
        if ar.target != OFF and (ar.target >= s.ntiles or ar.token[U_MORTAR] == OFF):
            return fail(msg, msglen, "a Target marker needs its Mortar on the board")
        if ar.goal > G_IMMOBILIZE or (ar.goal == G_CAPTURE and ar.goal_points < 1):
            return fail(msg, msglen, "goal must be capture (points >= 1) or immobilize")
        if ar.unknown_hand and (s.viewer != 1 - a or ar.unknown_hand > zone_sum(ar.deck)):
            return fail(msg, msglen, "unknown cards in hand only in a view, for the opponent, within the pool")
        if rec_check(s, a, msg, msglen):
            return 1
        if ar.bid != NONE:
            if ar.bid == UNKNOWN:
                if s.viewer != 1 - a:
                    return fail(msg, msglen, "an unknown bid only in a view, for the opponent")
            elif ar.bid >= NCARD:
                return fail(msg, msglen, "bid must be a card")
            if not ((s.phase == PH_BID2 and a == s.initiative) or s.phase == PH_REVEAL):
                return fail(msg, msglen, "bids exist only while choosing initiative")
    if s.viewer == -1:
        pass
    elif s.army[s.viewer].unknown_hand or s.army[s.viewer].bid == UNKNOWN:
        return fail(msg, msglen, "a view knows its own hand")
    if s.phase == PH_OVER:
        if s.winner > 1 or s.end_reason < END_OBJECTIVES or s.end_reason > END_MAX_ROUNDS:
            return fail(msg, msglen, "a finished game needs a winner and an end reason")
        return 0
    if s.winner != NONE or s.end_reason != END_NONE:
        return fail(msg, msglen, "winner set before the end")
    if s.explode_queue and s.phase != PH_ROLL:
        return fail(msg, msglen, "explode queue outside a roll")
    if s.explode_queue >> (2 * NUNIT):
        return fail(msg, msglen, "explode queue beyond the 18 tokens")
    n = s.explode_queue
    while n:
        c = lowbit(n)
        if s.army[c // NUNIT].token[c % NUNIT] == OFF:
            return fail(msg, msglen, "explode queue names a token off the board")
        n &= n - 1
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        if s.draws_pending < 1 or s.draws_pending > 4 or deck_count(s, s.to_move) < 1:
            return fail(msg, msglen, "a draw needs 1..4 pending draws and a non-empty deck")
        if s.phase == PH_DEAL and s.turn_index != 0:
            return fail(msg, msglen, "round-start draws come before the turns")
    elif s.draws_pending:
        return fail(msg, msglen, "draws pending outside a draw")
    if s.phase == PH_BID1 or s.phase == PH_BID2:
        o = s.initiative if s.phase == PH_BID1 else 1 - s.initiative
        if s.to_move != o or hand_total(s, o) < 1:
            return fail(msg, msglen, "the bidder must be on move with a card in hand")
        if s.phase == PH_BID1 and (s.army[0].bid != NONE or s.army[1].bid != NONE):
            return fail(msg, msglen, "no bids before the first")
        if s.phase == PH_BID2 and s.army[o].bid != NONE:
            return fail(msg, msglen, "the second bidder has not chosen yet")
    if s.phase == PH_REVEAL:
        o = s.initiative
        if s.to_move != o or s.army[o].bid == NONE:
            return fail(msg, msglen, "a reveal needs the first bid")
        if s.army[o].bid == UNKNOWN and hand_total(s, o) < 1:
            return fail(msg, msglen, "an unknown bid needs a card in the hand")
    if s.phase == PH_ROLL:
        if (s.roll_army > 1 or s.roll_unit >= NUNIT or s.roll_kind > RK_SUPPRESS or s.roll_dice < 1
                or s.roll_dice > 4 or s.roll_defence < 1 or s.roll_defence > 60):
            return fail(msg, msglen, "roll fields out of range")
        if s.army[s.roll_army].token[s.roll_unit] == OFF:
            return fail(msg, msglen, "the attacked token is not on the board")
    elif s.roll_army or s.roll_unit or s.roll_kind or s.roll_dice or s.roll_defence:
        return fail(msg, msglen, "roll fields set outside a roll")
    if s.phase == PH_BOLSTER:
        if s.bolster_left < 1 or s.bolster_left > 3 or s.bolster_cg > 3 or s.bolster_min >= NCARD:
            return fail(msg, msglen, "bolster fields out of range")
    elif s.bolster_left or s.bolster_cg or s.bolster_min:
        return fail(msg, msglen, "bolster fields set outside a Bolster")
    if s.phase == PH_LEFTOVER and hand_total(s, s.to_move) < 1:
        return fail(msg, msglen, "a leftover reveal needs cards in hand")
    if s.phase == PH_TURN or s.phase == PH_BOLSTER or s.phase == PH_ROLL or s.phase == PH_CMD_DRAW \
            or s.phase == PH_LEFTOVER:
        if s.to_move != (s.initiative if s.turn_index == 0 else 1 - s.initiative):
            return fail(msg, msglen, "the player on turn must follow the initiative")
    return 0


# ----------------------------------------------------------------- vtable: play
cdef int und_current_player(const void *state) noexcept nogil:
    cdef const UState *s = <const UState *>state
    if s.phase == PH_OVER:
        return ARD_TERMINAL
    if (s.phase == PH_DEAL or s.phase == PH_REVEAL or s.phase == PH_ROLL or s.phase == PH_CMD_DRAW
            or s.phase == PH_LEFTOVER):
        return ARD_CHANCE
    return s.to_move


cdef int turn_actions(const UState *s, ard_action *out) noexcept nogil:
    cdef int a = s.to_move, o = 1 - s.to_move, n = 0, u, v, c, t, t1, t2, k, pos, b
    cdef const Army *me = &s.army[a]
    cdef const Army *op = &s.army[o]
    cdef uint32_t m, m2
    cdef bint ok
    out[n] = A_END
    n += 1
    if s.turn_plays >= MAX_PLAYS:
        return n
    for c in range(1, NCARD):
        if can_play(s, a, c):
            out[n] = A_SHELTER + c
            n += 1
    for u in range(NUNIT):
        if can_play(s, a, u + 1) and not is_ready(s, a, u):
            out[n] = A_RALLY + u
            n += 1
    for u in range(U_SCOUT):                        # Move 1 (mortar, mg, riflemen), Sneak 1 (sniper)
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            m = s.adj[position(s, a, u)]
            while m:
                t = lowbit(m)
                m &= m - 1
                if u == U_SNIPER or has_marker(s, a, t):
                    out[n] = A_MOVE + u * MAXT + t
                    n += 1
    if can_play(s, a, C_GUIDE):                     # Advance 1: any ready token on the board
        for u in range(NUNIT):
            if me.token[u] != OFF and is_ready(s, a, u):
                m = s.adj[me.token[u]]
                while m:
                    t = lowbit(m)
                    m &= m - 1
                    if has_marker(s, a, t):
                        out[n] = A_ADVANCE + u * MAXT + t
                        n += 1
    for u in range(1, NUNIT):                       # Attack X
        if UND_DICE[u] and can_play(s, a, u + 1) and is_ready(s, a, u):
            for v in range(NUNIT):
                if op.token[v] != OFF:
                    out[n] = A_ATTACK + u * NUNIT + v
                    n += 1
    if can_play(s, a, C_MG) and is_ready(s, a, U_MG):
        for v in range(NUNIT):
            if op.token[v] != OFF:
                out[n] = A_SUPPRESS + v
                n += 1
    if can_play(s, a, C_MORTAR) and is_ready(s, a, U_MORTAR):
        if me.token[U_MORTAR] != OFF and me.target != OFF:
            out[n] = A_EXPLODE
            n += 1
        pos = position(s, a, U_MORTAR)
        for t in range(s.ntiles):
            if distance(s, pos, t) >= 3:
                out[n] = A_AIM + t
                n += 1
    for k in range(3):                              # Control
        u = U_RIF + k
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            pos = position(s, a, u)
            ok = not (me.controlled >> pos) & 1
            for v in range(NUNIT):
                if op.token[v] == pos:
                    ok = False
            if ok:
                out[n] = A_CONTROL + k
                n += 1
    for k in range(3):                              # Conceal
        if can_play(s, a, C_SCOUT + k) and is_ready(s, a, U_SCOUT + k) and op.supply[C_FOG] > 0:
            out[n] = A_CONCEAL + k
            n += 1
    for k in range(3):                              # Reconnoitre
        if can_play(s, a, C_SCOUT + k) and is_ready(s, a, U_SCOUT + k) and can_play(s, a, C_FOG):
            out[n] = A_RECON + k
            n += 1
    if can_play(s, a, C_PSGT):                      # Command 2: draw 1 or 2
        c = deck_count(s, a) + zone_sum(me.discard)
        for k in range(1, 3):
            if k <= c:
                out[n] = A_COMMAND + k - 1
                n += 1
    for k in range(3):                              # Inspire 1 (own combat group, not Squad Leaders)
        if can_play(s, a, C_SL + k):
            for c in range(C_SL):
                if me.play[c] > 0 and UND_CG[c] == k + 1:
                    out[n] = A_INSPIRE + k * NCARD + c
                    n += 1
    for b in range(5):                              # Bolster X
        if can_play(s, a, UND_BOLSTER_CARD[b]):
            for c in range(NCARD):
                if me.supply[c] > 0 and (UND_BOLSTER_CG[b] == 0 or UND_CG[c] == UND_BOLSTER_CG[b]):
                    out[n] = A_BOLSTER + b
                    n += 1
                    break
    for k in range(3):                              # Scout 2: a path of one or two tiles
        u = U_SCOUT + k
        if can_play(s, a, u + 1) and is_ready(s, a, u):
            m = s.adj[position(s, a, u)]
            while m:
                t1 = lowbit(m)
                m &= m - 1
                m2 = s.adj[t1]
                while m2:
                    t2 = lowbit(m2)
                    m2 &= m2 - 1
                    out[n] = A_SCOUT + k * 1056 + t1 * 33 + t2
                    n += 1
                out[n] = A_SCOUT + k * 1056 + t1 * 33 + STOP
                n += 1
    return n


cdef int und_legal_actions(const void *state, ard_action *out) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef int n = 0, c, a = s.to_move
    if s.phase == PH_BID1 or s.phase == PH_BID2:
        for c in range(NCARD):
            if can_play(s, a, c):
                out[n] = A_BID + c
                n += 1
        return n
    if s.phase == PH_TURN:
        return turn_actions(s, out)
    if s.phase == PH_BOLSTER:
        for c in range(s.bolster_min, NCARD):
            if s.army[a].supply[c] > 0 and (s.bolster_cg == 0 or UND_CG[c] == s.bolster_cg):
                out[n] = A_PICK + c
                n += 1
        out[n] = A_PICK_STOP
        return n + 1
    return 0


cdef void scout_tile(UState *s, int a, int t) noexcept nogil:
    """A Scout passes through or ends on t: a scouted marker and a Fog of War card."""
    cdef Army *ar = &s.army[a]
    if has_marker(s, a, t):
        return
    ar.scouted |= 1u << t
    if ar.supply[C_FOG] > 0:
        ar.supply[C_FOG] -= 1
        ar.discard[C_FOG] += 1


cdef void move_token(UState *s, int a, int u, int t) noexcept nogil:
    s.army[a].token[u] = t
    if u == U_MORTAR:
        s.army[a].target = OFF


cdef int card_of_action(int x) noexcept nogil:
    """The card a turn action plays (-1 for end)."""
    if x < A_SHELTER:
        return -1
    if x < A_RALLY:
        return x - A_SHELTER
    if x < A_MOVE:
        return x - A_RALLY + 1
    if x < A_ADVANCE:
        return (x - A_MOVE) // MAXT + 1
    if x < A_ATTACK:
        return C_GUIDE
    if x < A_SUPPRESS:
        return (x - A_ATTACK) // NUNIT + 1
    if x < A_EXPLODE:
        return C_MG
    if x < A_CONTROL:
        return C_MORTAR
    if x < A_CONCEAL:
        return C_RIF + x - A_CONTROL
    if x < A_RECON:
        return C_SCOUT + x - A_CONCEAL
    if x < A_COMMAND:
        return C_SCOUT + x - A_RECON
    if x < A_INSPIRE:
        return C_PSGT
    if x < A_BOLSTER:
        return C_SL + (x - A_INSPIRE) // NCARD
    if x < A_PICK:
        return UND_BOLSTER_CARD[x - A_BOLSTER]
    if x < A_SCOUT:
        return -1
    return C_SCOUT + (x - A_SCOUT) // 1056


cdef void apply_turn(UState *s, int x) noexcept nogil:
    cdef int a = s.to_move, o = 1 - s.to_move, c, u, t, v, k, t1, t2, from_t
    cdef Army *me = &s.army[a]
    if x == A_END:
        for c in range(NCARD):
            me.discard[c] += me.play[c]
            me.play[c] = 0
        if hand_total(s, a) > 0:
            s.phase = PH_LEFTOVER
        else:
            finish_turn(s)
        return
    c = card_of_action(x)
    if c < 0:
        return
    s.turn_plays += 1
    take_from_hand(s, a, c)
    rec_remove(me, c)
    if x < A_RALLY:                                 # Shelter: back to the supply, no token placed
        me.supply[c] += 1
        return
    me.play[c] += 1
    u = c - 1
    if 0 <= u < NUNIT and me.token[u] == OFF:       # a card's token enters at the spawn tile
        me.token[u] = me.spawn
    if x < A_MOVE:                                  # a suppressed unit only flips ready
        me.suppressed &= ~(1 << u)
        return
    if x < A_ADVANCE:
        move_token(s, a, u, (x - A_MOVE) % MAXT)
    elif x < A_ATTACK:
        move_token(s, a, (x - A_ADVANCE) // MAXT, (x - A_ADVANCE) % MAXT)
    elif x < A_SUPPRESS:
        v = (x - A_ATTACK) % NUNIT
        from_t = me.token[u]
        t = s.army[o].token[v]
        start_roll(s, o, v, RK_CASUALTY, UND_DICE[u],
                   UND_DEFENCE[v] + cover_against(s, t, from_t, False) + distance(s, from_t, t))
    elif x < A_EXPLODE:
        v = x - A_SUPPRESS
        from_t = me.token[U_MG]
        t = s.army[o].token[v]
        start_roll(s, o, v, RK_SUPPRESS, UND_SUPPRESS_DICE,
                   UND_DEFENCE[v] + cover_against(s, t, from_t, False) + distance(s, from_t, t))
    elif x == A_EXPLODE:
        s.explode_queue = 0
        for k in range(2):
            for v in range(NUNIT):
                if s.army[k].token[v] == me.target:
                    s.explode_queue |= 1u << (k * NUNIT + v)
        if s.explode_queue:
            next_explode(s)
    elif x < A_CONTROL:
        me.target = x - A_AIM
    elif x < A_CONCEAL:
        t = me.token[u]
        me.controlled |= 1u << t
        me.scouted &= ~(1u << t)
        if (s.army[o].controlled >> t) & 1:
            s.army[o].controlled &= ~(1u << t)
            s.army[o].scouted |= 1u << t
        check_end(s)
    elif x < A_RECON:
        if s.army[o].supply[C_FOG] > 0:
            s.army[o].supply[C_FOG] -= 1
            s.army[o].discard[C_FOG] += 1
    elif x < A_COMMAND:
        take_from_hand(s, a, C_FOG)
        rec_remove(me, C_FOG)
        me.removed[C_FOG] += 1
        s.phase = PH_CMD_DRAW
        s.draws_pending = 1
        advance_draws(s)
    elif x < A_INSPIRE:
        s.phase = PH_CMD_DRAW
        s.draws_pending = x - A_COMMAND + 1
        advance_draws(s)
    elif x < A_BOLSTER:
        k = (x - A_INSPIRE) % NCARD
        if me.play[k] > 0:                          # back to hand in sight of both
            me.play[k] -= 1
            me.hand[k] += 1
            me.known[k] += 1
    elif x < A_PICK:
        k = x - A_BOLSTER
        s.phase = PH_BOLSTER
        s.bolster_left = UND_BOLSTER_X[k]
        s.bolster_cg = UND_BOLSTER_CG[k]
        s.bolster_min = 0
    else:                                           # Scout 2
        k = (x - A_SCOUT) % 1056
        t1 = k // 33
        t2 = k % 33
        scout_tile(s, a, t1)
        me.token[u] = t1
        if t2 != STOP:
            scout_tile(s, a, t2)
            me.token[u] = t2


cdef void apply_hit(UState *s, int x) noexcept nogil:
    cdef int a = s.roll_army, u = s.roll_unit, c = s.roll_unit + 1
    cdef Army *ar = &s.army[a]
    if x == A_HIT:
        ar.suppressed |= 1 << u
    elif x == A_HIT_HAND:
        take_from_hand(s, a, c)
        rec_remove(ar, c)
        ar.removed[c] += 1
    elif x == A_HIT_DISCARD:                        # so the hand held none
        rec_exclude(ar, c)
        if ar.discard[c] > 0:
            ar.discard[c] -= 1
            ar.removed[c] += 1
    elif x == A_HIT_DECK:                           # so the hand held none
        rec_exclude(ar, c)
        if ar.deck[c] > 0:
            ar.deck[c] -= 1
            ar.removed[c] += 1
    elif x == A_HIT_TOKEN:
        remove_token(s, a, u)


cdef bint can_pick(const UState *s, int a) noexcept nogil:
    cdef int c
    for c in range(s.bolster_min, NCARD):
        if s.army[a].supply[c] > 0 and (s.bolster_cg == 0 or UND_CG[c] == s.bolster_cg):
            return True
    return False


cdef void und_apply(void *state, ard_action x) noexcept nogil:
    cdef UState *s = <UState *>state
    cdef int a = s.to_move, c, k
    cdef Army *me = &s.army[a]
    if s.phase == PH_OVER:
        return
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        if x == ARD_HIDDEN_OUTCOME:
            me.unknown_hand += 1
        elif 0 <= x < NCARD and me.deck[x] > 0:
            me.deck[x] -= 1
            me.hand[x] += 1
        rec_draw(me)                                # the opponent saw a draw, not the card
        s.draws_pending -= 1
        advance_draws(s)
    elif s.phase == PH_BID1 or s.phase == PH_BID2:
        if x == ARD_HIDDEN_OUTCOME:                 # a view: the card stays among the hand's
            me.bid = UNKNOWN
        else:
            c = x - A_BID
            take_from_hand(s, a, c)
            me.bid = c
            if s.phase == PH_BID2:                  # the second bid is seen at once
                rec_remove(me, c)
        if s.phase == PH_BID1:
            second_bid(s)
        else:
            after_bids(s)
    elif s.phase == PH_REVEAL:
        c = x - A_REVEAL
        if me.bid == UNKNOWN:
            take_from_hand(s, a, c)
        rec_remove(me, c)
        me.bid = c
        resolve_bids(s)
    elif s.phase == PH_TURN:
        apply_turn(s, x)
    elif s.phase == PH_ROLL:
        apply_hit(s, x)
        s.roll_army = 0
        s.roll_unit = 0
        s.roll_kind = 0
        s.roll_dice = 0
        s.roll_defence = 0
        next_explode(s)
        check_end(s)
    elif s.phase == PH_BOLSTER:
        if x == A_PICK_STOP:
            s.bolster_left = 0
        else:
            c = x - A_PICK
            me.supply[c] -= 1
            me.discard[c] += 1
            s.bolster_left -= 1
            s.bolster_min = c
            if not can_pick(s, a):                  # nothing left to take: the Bolster is over
                s.bolster_left = 0
        if s.bolster_left == 0:
            s.bolster_cg = 0
            s.bolster_min = 0
            s.phase = PH_TURN
    elif s.phase == PH_LEFTOVER:
        c = x - A_REVEAL
        for k in range(c):                          # the smallest card: none smaller in hand
            rec_exclude(me, k)
        take_from_hand(s, a, c)
        rec_remove(me, c)
        me.discard[c] += 1
        if hand_total(s, a) == 0:
            finish_turn(s)


# ----------------------------------------------------------------- vtable: chance
# ----------------------------------------------------------------- the posterior of a hidden hand
# RULES.md, Hidden information. On a view, the opponent's unknown hand U is
# what its hidden draws left there. Each record block k drew n_k cards from
# the deck of its time; a card type c takes g_kc of them. Every assignment
# of the pool's (distinguishable) cards to the draws that fits the record is
# equally likely, which weighs an allocation g by
#     prod_c base_c! / (base_c - S_c)! / prod_k g_kc!      (S_c = sum_k g_kc)
# where base_c = the pool's cards c plus those drawn and openly gone. The
# record asks S up to block k >= klo[k][c], == if pinned; U_c = S_c - klo[last][c].
# The sampler runs a dynamic programme over the card types whose state is
# the draws each block still has to place (at most TMAX states); types the
# record says nothing about are one aggregate (their choices among themselves
# are a uniform draw from their cards).
cdef struct Post:
    int m                       # blocks
    int n[6]                    # draws per block
    int stride[6]               # mixed-radix place of each block in a table index
    int T                       # table size: prod (n_k + 1)
    int ne                      # entries: constrained card types, then the aggregate
    int card[16]                # card type, -1 for the aggregate of the unconstrained types
    int base[16]
    int lo[96]                  # lo[e * 6 + k]
    int pin[16]                 # bit k: pinned after block k
    int last[16]                # lower bound after the last block (cards gone openly)
    int umin[16]                # query: at least this many in U
    int uzero[16]               # query: none in U


cdef int post_build(Post *p, const Army *ar, const int *umin, int uzero) noexcept nogil:
    """The problem for army ar of a view, with query constraints on U (umin per
    card, uzero a mask of cards U must not hold). 0 if a query is impossible."""
    cdef int k, c, e, t = 1, m = ar.kblocks, free_base = 0, lo, any_c, last
    p.m = m
    for k in range(m):
        p.n[k] = ar.kdraws[k]
        p.stride[k] = t
        t *= ar.kdraws[k] + 1
    p.T = t
    e = 0
    for c in range(NCARD):
        last = ar.klo[(m - 1) * NCARD + c] if m > 0 else 0
        if ar.deck[c] + last == 0:
            if umin[c] > 0:
                return 0
            continue
        any_c = umin[c] > 0 or (uzero >> c) & 1
        for k in range(m):
            if ar.klo[k * NCARD + c] > 0 or (ar.kpin[k] >> c) & 1:
                any_c = 1
        if not any_c:
            free_base += ar.deck[c]
            continue
        p.card[e] = c
        p.base[e] = ar.deck[c] + last
        p.pin[e] = 0
        for k in range(m):
            p.lo[e * 6 + k] = ar.klo[k * NCARD + c]
            if (ar.kpin[k] >> c) & 1:
                p.pin[e] |= 1 << k
        p.last[e] = last
        p.umin[e] = umin[c]
        p.uzero[e] = (uzero >> c) & 1
        e += 1
    if free_base > 0:
        p.card[e] = -1
        p.base[e] = free_base
        p.pin[e] = 0
        for k in range(m):
            p.lo[e * 6 + k] = 0
        p.last[e] = 0
        p.umin[e] = 0
        p.uzero[e] = 0
        e += 1
    p.ne = e
    return 1


cdef double post_weight(const Post *p, int e, int gi) noexcept nogil:
    """Weight of entry e taking the allocation with table index gi (0 if not allowed)."""
    cdef int k, g, i, total = 0, u
    cdef double w = 1.0
    for k in range(p.m):
        g = (gi // p.stride[k]) % (p.n[k] + 1)
        total += g
        for i in range(2, g + 1):
            w /= i
        if total < p.lo[e * 6 + k]:
            return 0.0
        if (p.pin[e] >> k) & 1 and total != p.lo[e * 6 + k]:
            return 0.0
    if total > p.base[e]:
        return 0.0
    u = total - p.last[e]
    if u < p.umin[e] or (p.uzero[e] and u != 0):
        return 0.0
    for i in range(total):
        w *= p.base[e] - i
    return w


cdef inline bint fits(const Post *p, int g, int r) noexcept nogil:
    """Allocation g fits in the remaining capacities r, digit by digit."""
    cdef int k
    for k in range(p.m):
        if (g // p.stride[k]) % (p.n[k] + 1) > (r // p.stride[k]) % (p.n[k] + 1):
            return False
    return True


cdef double post_solve(const Post *p, double *F, double *W) noexcept nogil:
    """Fills W[e*T + g] (weights) and F[e*T + r] (the partition function of
    entries e.. with capacities r left); returns Z = F[0*T + T-1]."""
    cdef int e, r, g, T = p.T
    cdef double tot
    for r in range(T):
        F[p.ne * T + r] = 0.0
    F[p.ne * T] = 1.0
    e = p.ne - 1
    while e >= 0:
        for g in range(T):
            W[e * T + g] = post_weight(p, e, g)
        for r in range(T):
            tot = 0.0
            for g in range(r + 1):
                if W[e * T + g] != 0.0 and F[(e + 1) * T + r - g] != 0.0 and fits(p, g, r):
                    tot += W[e * T + g] * F[(e + 1) * T + r - g]
            F[e * T + r] = tot
        e -= 1
    return F[T - 1]


cdef double hand_z(const Army *ar, const int *umin, int uzero) noexcept nogil:
    """Total weight of the unknown hands of army ar (a view's opponent) that fit
    the record and the query; hand_z(q) / hand_z(no query) is its probability."""
    cdef Post p
    cdef double F[17 * TMAX]
    cdef double W[16 * TMAX]
    if ar.kblocks == 0:
        return 0.0 if any_positive(umin) else 1.0
    if not post_build(&p, ar, umin, uzero):
        return 0.0
    return post_solve(&p, F, W)


cdef inline bint any_positive(const int *v) noexcept nogil:
    cdef int c
    for c in range(NCARD):
        if v[c] > 0:
            return True
    return False


cdef bint rec_plain(const Army *ar) noexcept nogil:
    """No inference recorded: the unknown hand is a uniform draw from the pool."""
    cdef int c
    if ar.kblocks > 1:
        return False
    if ar.kblocks == 1:
        if ar.kpin[0]:
            return False
        for c in range(NCARD):
            if ar.klo[c]:
                return False
    return True


cdef int draw_from_pool(Army *ar, ard_rng *rng) noexcept nogil:
    cdef int total = zone_sum(ar.deck), r, c
    if total <= 0:
        return -1
    r = ard_rng_below(rng, total)
    for c in range(NCARD):
        if r < ar.deck[c]:
            ar.deck[c] -= 1
            return c
        r -= ar.deck[c]
    return -1


cdef void hand_sample(Army *ar, const int *umin, ard_rng *rng) noexcept nogil:
    """Deals army ar's unknown hand (a view's opponent) from its posterior with
    the query lower bounds umin: moves the cards from the pool to `hand`."""
    cdef Post p
    cdef double F[17 * TMAX]
    cdef double W[16 * TMAX]
    cdef int e, g, r, k, c, total, free_n = 0, u, pick
    cdef double target, acc, w
    cdef int free_pool[15]
    u = ar.unknown_hand
    if u <= 0:
        return
    if (rec_plain(ar) and not any_positive(umin)) or not post_build(&p, ar, umin, 0) \
            or post_solve(&p, F, W) <= 0.0:
        # a uniform draw from the pool (exact without inferences; a fallback otherwise)
        for k in range(u):
            c = draw_from_pool(ar, rng)
            if c >= 0:
                ar.hand[c] += 1
        return
    for c in range(NCARD):
        free_pool[c] = 0
    r = p.T - 1
    for e in range(p.ne):
        target = ard_rng_double(rng) * F[e * p.T + r]
        acc = 0.0
        pick = -1
        for g in range(r + 1):
            w = W[e * p.T + g]
            if w != 0.0 and F[(e + 1) * p.T + r - g] != 0.0 and fits(&p, g, r):
                pick = g
                acc += w * F[(e + 1) * p.T + r - g]
                if acc > target:
                    break
        if pick < 0:
            break
        total = 0
        for k in range(p.m):
            total += (pick // p.stride[k]) % (p.n[k] + 1)
        r -= pick
        if p.card[e] >= 0:
            c = p.card[e]
            k = total - p.last[e]
            ar.hand[c] += k
            ar.deck[c] -= k
        else:
            free_n = total
    if free_n > 0:                                  # the aggregate: a uniform draw from its cards
        for c in range(NCARD):
            for e in range(p.ne):
                if p.card[e] == c:
                    break
            else:
                free_pool[c] = ar.deck[c]
        total = 0
        for c in range(NCARD):
            total += free_pool[c]
        for k in range(free_n):
            if total <= 0:
                break
            r = ard_rng_below(rng, total)
            for c in range(NCARD):
                if r < free_pool[c]:
                    free_pool[c] -= 1
                    ar.deck[c] -= 1
                    ar.hand[c] += 1
                    total -= 1
                    break
                r -= free_pool[c]


cdef double hand_holds(const UState *s, int a, int c) noexcept nogil:
    """Probability that a's hand holds a card c, as the view's owner knows it."""
    cdef const Army *ar = &s.army[a]
    cdef int umin[15]
    cdef double z
    if ar.hand[c] > 0:
        return 1.0
    if ar.unknown_hand == 0 or ar.deck[c] == 0:
        return 0.0
    memset(umin, 0, sizeof(umin))
    z = hand_z(ar, umin, 0)
    if z <= 0.0:
        return 0.0
    umin[c] = 1
    return hand_z(ar, umin, 0) / z


cdef double smallest_is(const UState *s, int a, int c, double z) noexcept nogil:
    """Probability that the smallest card of a's hand is c (z: hand_z without a query)."""
    cdef const Army *ar = &s.army[a]
    cdef int umin[15]
    cdef int x, zero = 0
    for x in range(c):
        if ar.hand[x] > 0:
            return 0.0
        zero |= 1 << x
    memset(umin, 0, sizeof(umin))
    if ar.hand[c] == 0:
        if ar.deck[c] == 0:
            return 0.0
        umin[c] = 1
    return hand_z(ar, umin, zero) / z


cdef int pool_outcomes(const UState *s, int a, int base, ard_action *out, double *probs) noexcept nogil:
    """One card from a's deck, each type with its share; on a view of a's
    opponent the deck is the pool less the unknown hand, in expectation."""
    cdef const Army *ar = &s.army[a]
    cdef int c, n = 0, k, total = zone_sum(ar.deck), u = ar.unknown_hand
    cdef int umin[15]
    cdef double z = 1.0, expect
    if u > 0:
        memset(umin, 0, sizeof(umin))
        z = hand_z(ar, umin, 0)
    for c in range(NCARD):
        if ar.deck[c] == 0:
            continue
        expect = 0.0                                # expected cards c in the unknown hand
        if u > 0 and z > 0.0:
            for k in range(1, ar.deck[c] + 1):
                umin[c] = k
                expect += hand_z(ar, umin, 0) / z
            umin[c] = 0
        if ar.deck[c] - expect > 1e-12:
            out[n] = base + c
            probs[n] = (ar.deck[c] - expect) / <double>(total - u)
            n += 1
    return n


cdef int und_chance_outcomes(const void *state, ard_action *out, double *probs) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const Army *ar
    cdef int a = s.to_move, n = 0, c, zone
    cdef int umin[15]
    cdef double q, ph, w, z, total
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW:
        return pool_outcomes(s, a, A_DRAW, out, probs)
    if s.phase == PH_REVEAL:
        ar = &s.army[s.initiative]
        if ar.bid < NCARD:
            out[0] = A_REVEAL + ar.bid
            probs[0] = 1.0
            return 1
        # a view: the hidden bid is any card the hand may hold, each possible
        # bid of each possible hand counted once
        total = 0.0
        for c in range(NCARD):
            w = hand_holds(s, s.initiative, c)
            if w > 0.0:
                out[n] = A_REVEAL + c
                probs[n] = w
                total += w
                n += 1
        for c in range(n):
            probs[c] /= total
        return n
    if s.phase == PH_LEFTOVER:
        ar = &s.army[a]
        if ar.unknown_hand == 0:
            for c in range(NCARD):
                if ar.hand[c] > 0:
                    out[0] = A_REVEAL + c
                    probs[0] = 1.0
                    return 1
            return 0
        # a view: the full state reveals the smallest card; its chance is
        # the posterior weight of the hands whose smallest card it is
        memset(umin, 0, sizeof(umin))
        z = hand_z(ar, umin, 0)
        if z <= 0.0:
            return 0
        for c in range(NCARD):
            w = smallest_is(s, a, c, z)
            if w > 0.0:
                out[n] = A_REVEAL + c
                probs[n] = w
                n += 1
        return n
    if s.phase == PH_ROLL:
        q = hit_probability(s.roll_dice, s.roll_defence)
        out[0] = A_MISS
        probs[0] = 1.0 - q
        n = 1
        if q >= 1.0:
            n = 0
        if s.roll_kind == RK_SUPPRESS:
            out[n] = A_HIT
            probs[n] = q
            return n + 1
        ar = &s.army[s.roll_army]
        c = s.roll_unit + 1
        if ar.unknown_hand == 0:
            out[n] = A_HIT_HAND + casualty_zone(s, s.roll_army, c)
            probs[n] = q
            return n + 1
        ph = hand_holds(s, s.roll_army, c)
        if ph > 1.0 - 1e-12:
            ph = 1.0
        if ph < 1e-12:
            ph = 0.0
        if ph > 0:
            out[n] = A_HIT_HAND
            probs[n] = q * ph
            n += 1
        if ph < 1:
            zone = 1 if ar.discard[c] > 0 else 2 if ar.deck[c] > 0 else 3
            out[n] = A_HIT_HAND + zone
            probs[n] = q * (1 - ph)
            n += 1
        return n
    return 0


cdef ard_action und_sample_chance(const void *state, ard_rng *rng) noexcept nogil:
    cdef ard_action acts[16]
    cdef double probs[16]
    cdef int n = und_chance_outcomes(state, acts, probs)
    if n <= 0:
        return 0
    return acts[ard_rng_pick(rng, probs, n)]


cdef void und_returns(const void *state, double *out) noexcept nogil:
    cdef const UState *s = <const UState *>state
    ard_returns_for_winner(s.winner if s.phase == PH_OVER else -1, out)


# ----------------------------------------------------------------- vtable: evaluate, hash
include "_eval.pxi"


cdef uint64_t und_hash(const void *state) noexcept nogil:
    """FNV-style mix of the state's bytes, eight at a time."""
    cdef const uint8_t *p = <const uint8_t *>state
    cdef uint64_t h = 0xcbf29ce484222325ULL, w
    cdef size_t i = 0
    while i + 8 <= sizeof(UState):
        memcpy(&w, p + i, 8)
        h = (h ^ w) * 0x100000001b3ULL
        h ^= h >> 32
        i += 8
    while i < sizeof(UState):
        h = (h ^ p[i]) * 0x100000001b3ULL
        i += 1
    return h ^ (h >> 29)


# ----------------------------------------------------------------- vtable: hidden information
cdef void und_observe(const void *state, int player, void *out_view) noexcept nogil:
    cdef UState tmp
    cdef int o = 1 - player, c, h
    cdef bint hidden_bid
    memcpy(&tmp, state, sizeof(UState))
    if tmp.viewer == -1 and 0 <= player <= 1:
        # the first bid stays secret from the second chooser until revealed:
        # its card counts as one of the hand's
        hidden_bid = o == tmp.initiative and (tmp.phase == PH_BID2 or tmp.phase == PH_REVEAL) \
            and tmp.army[o].bid < NCARD
        for c in range(NCARD):
            h = tmp.army[o].hand[c] + (1 if hidden_bid and tmp.army[o].bid == c else 0)
            h -= tmp.army[o].known[c]               # what the public record does not show
            if h > 0:
                tmp.army[o].deck[c] += h
                tmp.army[o].unknown_hand += h
            tmp.army[o].hand[c] = tmp.army[o].known[c]
        if hidden_bid:
            tmp.army[o].bid = UNKNOWN
        tmp.viewer = player
    memcpy(out_view, &tmp, sizeof(UState))


cdef void und_determinize(void *view, int player, ard_rng *rng) noexcept nogil:
    """Deals the opponent's unknown hand (and unseen bid) from the exact
    posterior of the public record (RULES.md, Hidden information)."""
    cdef UState *s = <UState *>view
    cdef int o = 1 - player, c, b
    cdef int umin[15]
    cdef double w[15]
    cdef double total, r, z
    cdef Army *ar
    if s.viewer == -1 or not 0 <= player <= 1:
        return
    ar = &s.army[o]
    memset(umin, 0, sizeof(umin))
    if ar.bid == UNKNOWN:
        # every possible bid of every possible hand is one assignment: the bid
        # is c with weight P(the hand holds a c)
        total = 0.0
        z = hand_z(ar, umin, 0)
        for c in range(NCARD):
            w[c] = 0.0
            if ar.hand[c] > 0:
                w[c] = 1.0
            elif ar.unknown_hand > 0 and ar.deck[c] > 0 and z > 0.0:
                umin[c] = 1
                w[c] = hand_z(ar, umin, 0) / z
                umin[c] = 0
            total += w[c]
        b = -1
        r = ard_rng_double(rng) * total
        for c in range(NCARD):
            if w[c] > 0.0:
                b = c
                r -= w[c]
                if r < 0.0:
                    break
        if b >= 0 and ar.hand[b] == 0:
            umin[b] = 1
        hand_sample(ar, umin, rng)
        if b >= 0 and ar.hand[b] > 0:
            ar.hand[b] -= 1
            ar.bid = b
        else:
            ar.bid = NONE
    else:
        hand_sample(ar, umin, rng)
    ar.unknown_hand = 0
    s.viewer = -1


cdef int und_viewer(const void *state) noexcept nogil:
    return (<const UState *>state).viewer


cdef int und_action_visible(const void *state, ard_action action, int player) noexcept nogil:
    cdef const UState *s = <const UState *>state
    if s.phase == PH_DEAL or s.phase == PH_CMD_DRAW or s.phase == PH_BID1:
        return 1 if s.to_move == player else 0
    return 1


# ----------------------------------------------------------------- notation
cdef int tile_text(const UState *s, int t, char *buf, int buflen) noexcept nogil:
    if t >= s.ntiles:
        return snprintf(buf, buflen, "t%d", t)
    return snprintf(buf, buflen, "%d%c", s.tile_name[t] >> 1, 65 + (s.tile_name[t] & 1))


cdef int und_action_to_string(const void *state, ard_action x, char *buf, int buflen) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef char t1[8]
    cdef char t2[8]
    cdef int c, u, k
    if x < 0 or x >= NUM_ACTIONS:
        return -1
    if x < A_REVEAL:
        return snprintf(buf, buflen, "draw:%s", UND_CARD_NAMES[x])
    if x < A_MISS:
        return snprintf(buf, buflen, "reveal:%s", UND_CARD_NAMES[x - A_REVEAL])
    if x == A_MISS:
        return snprintf(buf, buflen, "miss")
    if x == A_HIT:
        return snprintf(buf, buflen, "hit")
    if x < A_BID:
        return snprintf(buf, buflen, "hit:%s", UND_ZONE[x - A_HIT_HAND])
    if x < A_END:
        return snprintf(buf, buflen, "bid:%s", UND_CARD_NAMES[x - A_BID])
    if x == A_END:
        return snprintf(buf, buflen, "end")
    if x >= A_PICK and x < A_SCOUT:
        if x == A_PICK_STOP:
            return snprintf(buf, buflen, "bolster:stop")
        return snprintf(buf, buflen, "bolster:%s", UND_CARD_NAMES[x - A_PICK])
    c = card_of_action(x)
    if x < A_RALLY:
        return snprintf(buf, buflen, "%s:shelter", UND_CARD_NAMES[c])
    if x < A_MOVE:
        return snprintf(buf, buflen, "%s:rally", UND_CARD_NAMES[c])
    if x < A_ADVANCE:
        tile_text(s, (x - A_MOVE) % MAXT, t1, 8)
        return snprintf(buf, buflen, "%s:%s:%s", UND_CARD_NAMES[c],
                        "sneak" if c == C_SNIPER else "move", t1)
    if x < A_ATTACK:
        tile_text(s, (x - A_ADVANCE) % MAXT, t1, 8)
        return snprintf(buf, buflen, "guide:advance:%s,%s",
                        UND_CARD_NAMES[(x - A_ADVANCE) // MAXT + 1], t1)
    if x < A_SUPPRESS:
        return snprintf(buf, buflen, "%s:attack:%s", UND_CARD_NAMES[c],
                        UND_CARD_NAMES[(x - A_ATTACK) % NUNIT + 1])
    if x < A_EXPLODE:
        return snprintf(buf, buflen, "mg:suppress:%s", UND_CARD_NAMES[x - A_SUPPRESS + 1])
    if x == A_EXPLODE:
        return snprintf(buf, buflen, "mortar:explode")
    if x < A_CONTROL:
        tile_text(s, x - A_AIM, t1, 8)
        return snprintf(buf, buflen, "mortar:aim:%s", t1)
    if x < A_CONCEAL:
        return snprintf(buf, buflen, "%s:control", UND_CARD_NAMES[c])
    if x < A_RECON:
        return snprintf(buf, buflen, "%s:conceal", UND_CARD_NAMES[c])
    if x < A_COMMAND:
        return snprintf(buf, buflen, "%s:recon", UND_CARD_NAMES[c])
    if x < A_INSPIRE:
        return snprintf(buf, buflen, "psgt:command:%d", x - A_COMMAND + 1)
    if x < A_BOLSTER:
        return snprintf(buf, buflen, "%s:inspire:%s", UND_CARD_NAMES[c],
                        UND_CARD_NAMES[(x - A_INSPIRE) % NCARD])
    if x < A_PICK:
        return snprintf(buf, buflen, "%s:bolster", UND_CARD_NAMES[c])
    k = (x - A_SCOUT) % 1056
    tile_text(s, k // 33, t1, 8)
    if k % 33 == STOP:
        return snprintf(buf, buflen, "%s:scout:%s", UND_CARD_NAMES[c], t1)
    tile_text(s, k % 33, t2, 8)
    return snprintf(buf, buflen, "%s:scout:%s,%s", UND_CARD_NAMES[c], t1, t2)


cdef int parse_tile(const UState *s, const char *p, int n) noexcept nogil:
    cdef int num = 0, i, side, t
    if n < 2 or n > 3:
        return -1
    for i in range(n - 1):
        if p[i] < 48 or p[i] > 57:
            return -1
        num = num * 10 + p[i] - 48
    side = p[n - 1] - 65
    if side < 0 or side > 1:
        return -1
    for t in range(s.ntiles):
        if s.tile_name[t] == num * 2 + side:
            return t
    return -1


cdef bint field_is(const char *p, int n, const char *word) noexcept nogil:
    return <int>strlen(word) == n and strncmp(word, p, n) == 0


cdef int parse_card(const char *p, int n) noexcept nogil:
    cdef int c
    for c in range(NCARD):
        if <int>strlen(UND_CARD_NAMES[c]) == n and strncmp(UND_CARD_NAMES[c], p, n) == 0:
            return c
    if field_is(p, n, "mg_A"):       # the contract's spelling; written `mg` (no combat group)
        return C_MG
    return -1


cdef ard_action und_string_to_action(const void *state, const char *text) noexcept nogil:
    cdef const UState *s = <const UState *>state
    cdef const char *f[4]
    cdef int fl[4]
    cdef int nf = 0, i = 0, c, u, v, t, t2, comma, k
    cdef int length = <int>strlen(text)
    if length == 0 or length > 40:
        return -1
    f[0] = text
    while True:                                     # split on ':' into at most 4 fields
        if text[i] == 58 or text[i] == 0:
            fl[nf] = <int>(&text[i] - f[nf])
            nf += 1
            if text[i] == 0:
                break
            if nf == 4:
                return -1
            f[nf] = &text[i + 1]
        i += 1
    if nf == 1:
        if field_is(f[0], fl[0], "end"):
            return A_END
        if field_is(f[0], fl[0], "miss"):
            return A_MISS
        if field_is(f[0], fl[0], "hit"):            # a casualty hit: the zone this state implies
            if s.phase == PH_ROLL and s.roll_kind == RK_CASUALTY and s.army[s.roll_army].unknown_hand == 0:
                return A_HIT_HAND + casualty_zone(s, s.roll_army, s.roll_unit + 1)
            return A_HIT
        return -1
    if nf == 2:
        c = parse_card(f[1], fl[1])
        if field_is(f[0], fl[0], "draw") and c >= 0:
            return A_DRAW + c
        if field_is(f[0], fl[0], "reveal") and c >= 0:
            return A_REVEAL + c
        if field_is(f[0], fl[0], "bid") and c >= 0:
            return A_BID + c
        if field_is(f[0], fl[0], "hit"):
            for k in range(4):
                if field_is(f[1], fl[1], UND_ZONE[k]):
                    return A_HIT_HAND + k
            return -1
        if field_is(f[0], fl[0], "bolster"):
            if field_is(f[1], fl[1], "stop"):
                return A_PICK_STOP
            return A_PICK + c if c >= 0 else -1
        c = parse_card(f[0], fl[0])
        if c < 0:
            return -1
        if field_is(f[1], fl[1], "shelter"):
            return A_SHELTER + c if c != C_FOG else -1
        if field_is(f[1], fl[1], "rally"):
            return A_RALLY + c - 1 if 1 <= c <= NUNIT else -1
        if field_is(f[1], fl[1], "explode"):
            return A_EXPLODE if c == C_MORTAR else -1
        if field_is(f[1], fl[1], "control"):
            return A_CONTROL + c - C_RIF if C_RIF <= c < C_SCOUT else -1
        if field_is(f[1], fl[1], "conceal"):
            return A_CONCEAL + c - C_SCOUT if C_SCOUT <= c < C_SL else -1
        if field_is(f[1], fl[1], "recon") or field_is(f[1], fl[1], "reconnoitre"):   # fan name, rulebook name
            return A_RECON + c - C_SCOUT if C_SCOUT <= c < C_SL else -1
        if field_is(f[1], fl[1], "bolster"):
            for k in range(5):
                if UND_BOLSTER_CARD[k] == c:
                    return A_BOLSTER + k
        return -1
    if nf != 3:
        return -1
    c = parse_card(f[0], fl[0])
    if c < 0:
        return -1
    u = c - 1
    if field_is(f[1], fl[1], "move") or field_is(f[1], fl[1], "sneak"):
        t = parse_tile(s, f[2], fl[2])
        if t < 0 or not (c == C_MORTAR or c == C_MG or C_RIF <= c < C_SCOUT or c == C_SNIPER):
            return -1
        if (c == C_SNIPER) != field_is(f[1], fl[1], "sneak"):
            return -1
        return A_MOVE + u * MAXT + t
    if field_is(f[1], fl[1], "attack") or field_is(f[1], fl[1], "suppress"):
        v = parse_card(f[2], fl[2]) - 1
        if v < 0 or v >= NUNIT:
            return -1
        if field_is(f[1], fl[1], "suppress"):
            return A_SUPPRESS + v if c == C_MG else -1
        return A_ATTACK + u * NUNIT + v if 1 <= u < NUNIT else -1
    if field_is(f[1], fl[1], "aim"):
        t = parse_tile(s, f[2], fl[2])
        return A_AIM + t if c == C_MORTAR and t >= 0 else -1
    if field_is(f[1], fl[1], "command"):
        if c != C_PSGT or fl[2] != 1 or f[2][0] < 49 or f[2][0] > 50:
            return -1
        return A_COMMAND + f[2][0] - 49
    if field_is(f[1], fl[1], "inspire"):
        v = parse_card(f[2], fl[2])
        return A_INSPIRE + (c - C_SL) * NCARD + v if C_SL <= c < C_GUIDE and v >= 0 else -1
    comma = -1
    for i in range(fl[2]):
        if f[2][i] == 44:
            comma = i
    if field_is(f[1], fl[1], "advance"):
        if c != C_GUIDE or comma < 0:
            return -1
        v = parse_card(f[2], comma) - 1
        t = parse_tile(s, f[2] + comma + 1, fl[2] - comma - 1)
        if v < 0 or v >= NUNIT or t < 0:
            return -1
        return A_ADVANCE + v * MAXT + t
    if field_is(f[1], fl[1], "scout"):
        if not C_SCOUT <= c < C_SL:
            return -1
        if comma < 0:
            t = parse_tile(s, f[2], fl[2])
            t2 = STOP
        else:
            t = parse_tile(s, f[2], comma)
            t2 = parse_tile(s, f[2] + comma + 1, fl[2] - comma - 1)
        if t < 0 or t2 < 0:
            return -1
        return A_SCOUT + (c - C_SCOUT) * 1056 + t * 33 + t2
    return -1


# ----------------------------------------------------------------- the vtable
cdef ard_game UND_GAME
UND_GAME.name = "undaunted"
UND_GAME.abi_version = ARD_ABI_VERSION
UND_GAME.flags = ARD_FLAG_CHANCE | ARD_FLAG_HIDDEN
UND_GAME.state_size = sizeof(UState)
UND_GAME.params_size = sizeof(UState)
UND_GAME.num_actions = NUM_ACTIONS
UND_GAME.max_legal = MAX_LEGAL
UND_GAME.max_game_length = MAX_GAME_LENGTH
UND_GAME.init = und_init
UND_GAME.validate = und_validate
UND_GAME.current_player = und_current_player
UND_GAME.legal_actions = und_legal_actions
UND_GAME.apply = und_apply
UND_GAME.chance_outcomes = und_chance_outcomes
UND_GAME.sample_chance = und_sample_chance
UND_GAME.returns = und_returns
UND_GAME.evaluate = und_evaluate
UND_GAME.num_features = NFEAT
UND_GAME.feature_names = UND_FEATURE_NAMES
UND_GAME.features = und_features
UND_GAME.weights = UND_WEIGHTS
UND_GAME.hash = und_hash
UND_GAME.observe = und_observe
UND_GAME.determinize = und_determinize
UND_GAME.viewer = und_viewer
UND_GAME.action_visible = und_action_visible
UND_GAME.action_to_string = und_action_to_string
UND_GAME.string_to_action = und_string_to_action

STATE_SIZE = sizeof(UState)
NUM_ACTIONS_PY = NUM_ACTIONS
MAX_LEGAL_PY = MAX_LEGAL

cdef const char *CAPSULE_NAME = b"ardsearch.game"


def capsule():
    """The vtable as a PyCapsule named "ardsearch.game"."""
    return PyCapsule_New(&UND_GAME, CAPSULE_NAME, NULL)


include "_pyside.pxi"
