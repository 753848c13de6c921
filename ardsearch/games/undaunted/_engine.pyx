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

This file holds the card table, the constants and the state struct; the code
is split by concern into the files included at its end: _helpers.pxi (card
zones, the public record of a hand, points, the end of the game), _flow.pxi
(the round's flow), _validate.pxi (init, validate), _rules.pxi (legal actions,
apply), _chance.pxi (the hidden hand's posterior, chance outcomes), _eval.pxi
(the evaluation's features), _views.pxi (hash, a seat's view), _notation.pxi,
_vtable.pxi (the vtable and capsule) and _pyside.pxi (the Python side).
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


include "_helpers.pxi"
include "_flow.pxi"
include "_validate.pxi"
include "_rules.pxi"
include "_chance.pxi"
include "_eval.pxi"
include "_views.pxi"
include "_notation.pxi"
include "_vtable.pxi"
include "_pyside.pxi"
