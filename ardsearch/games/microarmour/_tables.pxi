# Micro Armour engine: constants, the stand and state structs, and the static tables filled from the data files at import.
# Included by _engine.pyx (one module, split by concern).
# ----------------------------------------------------------------- constants
cdef enum:
    NSLOT = 32          # stand slots: 0..15 side 0 (German), 16..31 side 1 (Soviet)
    NONE = 255
    WMAX = 40
    HMAX = 30
    MAXTYPES = 48
    MAXTERRAIN = 16
    MAXSCN = 16         # scenario files (scenarios/*.toml and the ARDSEARCH_MICROARMOUR_SCENARIOS folder) loaded at import
    NAIR = 4            # aircraft slots per scenario (both sides)
    CLOSE_SHIFT = 9     # deployment=close: both sides start this much nearer the centre
    MAX_SIGHT = 60      # inches: the longest sighting distance a scenario or roll may give (_weather.pxi)
    NWEATHER = 9        # weather codes (_data_hidden.WEATHER)
    NGROUND = 5         # ground conditions (_data_hidden.GROUNDS)

cdef enum:  # dense action numbers (RULES.md, Notation); each range starts where the one before ends,
            # so a new family of actions is appended before NUM_ACTIONS and nothing else moves
    A_FIRE = 0          # + firer_local * 16 + target_local
    A_GO = A_FIRE + 256
    A_PASS = A_GO + 1
    A_LEAD = A_PASS + 1
    A_FOLLOW = A_LEAD + 1
    A_POSTURE = A_FOLLOW + 1 # + local * 2 + (0 movement, 1 fire/move)
    A_ORDER = A_POSTURE + 32 # + local
    A_INDEP = A_ORDER + 16 # + local
    A_STEP = A_INDEP + 16 # + direction
    A_STOP = A_STEP + 8 # + facing
    A_OK = A_STOP + 8   # chance: cohesion success
    A_FAIL = A_OK + 1   # chance: cohesion failure
    A_N1 = A_FAIL + 1   # chance: natural 1 (recovery)
    A_N20 = A_N1 + 1    # chance: natural 20 (recovery)
    A_CRT = A_N20 + 1   # + result 0 '-', 1 S, 2 (S), 3 D, 4 E
    A_INIT = A_CRT + 5  # + side winning initiative
    A_ORDERS = A_INIT + 2 # + orders 0..5
    A_CARD = A_ORDERS + 6 # + card value - 1 (1..10)
    A_BRK_NO = A_CARD + 10
    A_BRK_YES = A_BRK_NO + 1
    A_ASSAULT = A_BRK_YES + 1 # + target local: close assault by the mover
    A_OVERRUN = A_ASSAULT + 16 # + target local: overrun by the mover
    A_RETREAT = A_OVERRUN + 16 # + direction: a close-assaulted stand's 1" retreat
    A_APPOINT = A_RETREAT + 8 # + local: the stand appointed to a lost HQ's post (_command.pxi)
    A_QUAL = A_APPOINT + 16 # + quality + 2 (-2..+3): a new GHQ's quality rolled on 1D20 (_command.pxi)
    # airstrikes (_air.pxi), numbered after the command actions
    A_STRAFE = A_QUAL + 6 # + target local: the aircraft strafes that enemy stand
    A_BOMB = A_STRAFE + 16 # + y * WMAX + x: the aircraft bombs that point (its plot, or a FASC's target)
    A_PLOT = A_BOMB + 1200 # + block index (_air.pxi, plot_block): pre-plots a bomb point for next turn
    A_AA = A_PLOT + 140 # + 0..12: chance: the AA stands' total modifier to this strike
    A_DIR = A_AA + 13   # + direction: chance: the 1D8 deviation direction
    A_DIST = A_DIR + 8  # + inches - 1 (1..6): chance: the deviation distance
    # direct-fire extras (_weapons_extra.pxi), numbered after the airstrike actions
    A_CRT_OUT = A_DIST + 6 # + result: a CRT result whose unmodified roll used up the firer's
                        # special AP ammunition or D# AP ability (`crt:<r>:out`)
    # indirect artillery and smoke (_artillery.pxi), numbered after the direct-fire extras;
    # a plot code is kind (0 HE, 1 smoke) * 144 + target (140 plot cells, 4 pre-registered points)
    A_HOLD = A_CRT_OUT + 5 # joint plot: no new mission for this battery
    A_ART_PLOT = A_HOLD + 1 # + plot code: plot a mission for this battery
    A_LAND_NONE = A_ART_PLOT + 288 # chance: no fire from this battery lands this turn
    A_LAND = A_LAND_NONE + 1 # + plot code: chance (public): this battery's plotted fire is due
    A_DEV = A_LAND + 288 # + direction * 8 + inches - 1: chance: where deviated fire lands
    # obstacles and minefields (_minefields.pxi), numbered after the artillery actions
    A_MINE = A_DEV + 64 # + kind (0 dummy, 1 hasty, 2 standard, 3 concentrated): chance: a marker revealed
    # special stand types (ma-units, _stand_types.pxi), numbered after the minefield actions
    A_MOUNT = A_MINE + 4 # + 0 mount, 1 dismount: the cavalry mover changes before its first step
    # movement groups (ma-units, _groups.pxi)
    A_GPOSTURE = A_MOUNT + 2 # + group_local * 2 + (0 movement, 1 fire/move): posture for a whole group
    A_GORDER = A_GPOSTURE + 8 # + group_local: an ordered group movement attempt
    A_GINDEP = A_GORDER + 4 # + group_local: an independent group movement attempt
    A_GROLL = A_GINDEP + 4 # + roll - 1 (1..20): chance: the group's base 1D20
    # transport (_transport.pxi), numbered after the movement-group actions
    A_LOAD = A_GROLL + 20 # + carrier local: the moving stand climbs aboard that friendly vehicle
    A_UNLOAD = A_LOAD + 16 # + cargo local * 8 + direction: that carried stand dismounts to the square beside its carrier
    # hidden set-up and weather (_weather.pxi), numbered after the transport actions
    A_SIGHT = A_UNLOAD + 128 # + inches (0..MAX_SIGHT): chance: this turn's maximum sighting distance
    A_SHOW = A_SIGHT + MAX_SIGHT + 1 # + local: the owner shows a hidden marker (_spotting.pxi)
    A_SHOWN = A_SHOW + 16 # + type, or + MAXTYPES a dummy: chance: what a spotted or shown marker is
    A_FLARE = A_SHOWN + MAXTYPES + 1 # fire a flare this turn (_weather.pxi)
    # paratroop drops (_drop.pxi), numbered after the flare
    A_DROP_PLOT = A_FLARE + 1 # + block index (as A_PLOT): the landing group's drop zone for next turn
    A_SCATTER = A_DROP_PLOT + 140 # + inches (0..24): chance: a paratroop stand's scatter distance
    # gliders and the paratroop HQ delay (_drop.pxi, _command.pxi), numbered after the scatter
    A_GLIDE = A_SCATTER + 25 # + inches (0..4): chance: how far a landed glider rolls forward
    A_HQDELAY = A_GLIDE + 5 # + turns (0..4): chance: the turns before a lost paratroop HQ may be replaced
    # pre-registered target points (_prereg.pxi)
    A_PREREG = A_HQDELAY + 5 # + plot cell (0..139): record a pre-registered point there; chance (public): a called point is seen
    NUM_ACTIONS = A_PREREG + 140
    MAX_LEGAL = 290     # an artillery plot decision or a view's landing node: 288 codes + 1;
                        # 16 x 16 fire declarations + go / pass
    # Per turn: 2 initiative/lead, <= 34 posture, <= 32 firer resolutions (each
    # stand rolls to fire once a turn) with their declarations, go's, 2 rolls and
    # passes (<= 200), 2 orders, <= 42 movement attempts of <= 60 steps each with
    # an opportunity question per step (<= 5200), close combats (<= 8 nodes per
    # attempt), <= 34 recovery/replacement rolls: 6000; cards <= 4 x 32 per game.
    # Artillery (ma-art): per turn 8 landings of <= 7 nodes, 8 plots, and an
    # impact attack per marker (<= 24) for a step into an impact area: 7000.
    MAX_GAME_LENGTH = 7000 * 50 + 200

cdef enum:  # phases of a turn
    PH_INIT = 0         # chance: initiative
    PH_LEAD = 1         # initiative player: lead or follow
    PH_POSTURE = 2
    PH_FIRE = 3
    PH_ORDERS = 4       # chance: movement orders, first player then the other
    PH_MOVE = 5
    PH_RECOVER = 6      # chance: one recovery roll per S/D stand
    PH_OVER = 7
    PH_ART = 8          # phase 3, artillery fire (_artillery.pxi; only in scenarios with batteries), before air strikes
    PH_PLOT = 9         # phase 5, joint plot: air bomb plots, then artillery plots (hidden decisions)

cdef enum:  # node kinds (what the state waits for)
    N_OVER = 0
    N_CARD0 = 1
    N_CARD1 = 2
    N_BRK0 = 3
    N_BRK1 = 4
    N_TOFIRE = 5
    N_CRT = 6
    N_DECL = 7
    N_INIT = 8
    N_LEAD = 9
    N_POSTURE = 10
    N_FIRE = 11
    N_ORDERS = 12
    N_MOVE = 13
    N_MVROLL = 14
    N_STEP = 15
    N_OFASK = 16
    N_STOPCHK = 17
    N_CFASK = 18
    N_RECOVER = 19
    N_PASSCHK = 20      # chance: nerve roll to pass through enemy armour
    N_RETREAT = 21      # the assaulted player picks the retreat square
    N_OVR_OFASK = 22    # the overrun defender: range-0 opportunity fire or pass
    N_OVR_DEFROLL = 23  # chance: overrun defender cohesion
    N_OVR_HIT1 = 24     # chance: overrunner's attack on the +5 column
    N_OVR_ATKROLL = 25  # chance: overrunner cohesion
    N_OVR_HIT2 = 26     # chance: defender's attack on the +2/+3 column
    N_REPLACE = 27      # chance: a lost GHQ's replacement roll
    N_GHQQUAL = 28      # chance: a new GHQ's quality on 1D20 (_command.pxi)
    N_HQREP = 29        # chance: a lost HQ's replacement roll (_command.pxi)
    N_APPOINT = 30      # the side whose HQ replacement passed appoints a stand (_command.pxi)
    N_RISING = 31       # chance: the rising cohesion check of the enemy of a broken side (_command.pxi)
    # 32, 33: N_AIR, N_AIRCH (_air.pxi)
    N_BLDG = 34         # chance: an artillery attack's roll against a building area (_buildings.pxi)
    # indirect artillery and smoke (_artillery.pxi), after the direct-fire extras' node
    N_ART_REVEAL = 35   # chance (public): does this battery's plotted fire land now, and where aimed
    N_ART_ARRIVE = 36   # chance: 'to arrive' cohesion roll
    N_ART_DEVIATE = 37  # chance: 'to deviate' cohesion roll (c:ok, c:fail, c:n20)
    N_ART_SCATTER = 38  # chance: 1D8 direction and 1D8/2 inches (doubled on a natural 20)
    N_ART_HIT = 39      # chance: an impact marker's attack on the stand under it
    N_PLOT = 40         # joint plot: one battery's hidden plot decision
    N_ART_MOVEHIT = 41  # chance: an impact marker's attack on a stand moving into it
    # 42: N_MINE, 43: N_BREACH, 44: N_REVEAL (_minefields.pxi)
    # special stand types (ma-units, _stand_types.pxi)
    N_FLAME = 45        # chance: a stand hit by a flame vehicle rolls cohesion
    N_FLRET = 46        # its owner picks its 1" retreat away from the flame vehicle
    N_GROLL = 47        # chance: a movement group's base 1D20 (_groups.pxi)
    # transport (_transport.pxi)
    N_LOADROLL = 48     # chance: the cohesion roll of a stand climbing aboard a vehicle
    # hidden set-up and weather (_weather.pxi)
    N_SIGHT = 49        # chance: the turn's maximum sighting distance (weather, night)
    N_SHOWN = 50        # chance: what a spotted or shown marker is (_spotting.pxi)
    N_ART_RETREATHIT = 51  # chance: an impact marker's attack on a close-assaulted stand retreating into it
    # flares (_weather.pxi)
    N_FLARE = 52        # a side with flares left, at the start of a night turn: fire one or pass
    # 53, 54, 55: N_DROP_PLOT, N_DROP, N_HQDELAY (_drop.pxi)
    # pre-registered target points (_prereg.pxi)
    N_PREREG = 56       # before turn 1: a side records one of its pre-registered points (hidden from the opponent)
    N_PRESHOW = 57      # chance (public, one outcome in a full state): a call on a point lands, the point is seen

cdef enum:  # stand flags
    F_ALIVE = 1
    F_S = 2             # suppressed
    F_D = 4             # disorganized
    F_FIRED = 8         # rolled 'to fire' this turn
    F_MOVED = 16        # moved this movement phase
    F_INDEP = 32        # tried its independent move this phase
    F_OFSUF = 64        # suffered its opportunity attack this phase
    F_WRECK = 128       # dead armoured vehicle: a wreck on its square

cdef enum:  # optional rules (options bits)
    OPT_HOT_SHOT = 1
    OPT_LOW_AMMO = 2
    OPT_INTUITIVE = 4   # a natural 1 on an ordered movement roll: Intuitive Action (_command.pxi)
    OPT_CONFLICT = 8    # a natural 20 on an ordered movement roll: Conflicting Orders (_command.pxi)
    OPT_ALL = 15

cdef enum:  # postures
    P_FIRING = 0
    P_MOVE = 1
    P_FIREMOVE = 2

cdef enum:  # attack kinds and steps
    K_STANDARD = 0
    K_OPPORTUNITY = 1
    K_COVERING = 2
    K_ASLDEF = 3        # close assault: the firing-posture defender strikes the assaulter
    K_ASSAULT = 4       # close assault: the assaulter attacks
    K_OVR_OF = 5        # overrun: the defender's range-0 opportunity fire
    S_NONE = 0
    S_DECLARE = 1
    S_TOFIRE = 2
    S_CRT = 3

cdef enum:  # mover sub-states
    M_NONE = 0
    M_ROLL = 1
    M_STEP = 2
    M_OFASK = 3
    M_STOPCHK = 4
    M_CFASK = 5
    M_PASSCHK = 6       # nerve roll before passing through enemy armour (direction in mv_dir)
    M_CLOSE = 7         # a close assault is being fought (the attack fields hold it)
    M_RETREAT = 8
    M_OVR_OFASK = 9
    M_OVR_DEFROLL = 10
    M_OVR_HIT1 = 11
    M_OVR_ATKROLL = 12
    M_OVR_HIT2 = 13
    M_ART = 14          # the mover entered an impact area: the markers attack it
    # 15: M_MINE, 16: M_REVEAL (_minefields.pxi)
    # transport (_transport.pxi)
    M_LOADROLL = 17     # the mover's loading roll (the vehicle in tr_to)
    M_ART_RETREAT = 18  # the assaulted stand (ctarget) retreated into an impact area: the markers attack it

cdef enum:  # defence classes
    D_ARMOUR = 0
    D_UNARMOURED = 1
    D_PERSONNEL = 2


# One stand, 8 bytes.
cdef packed struct Stand:
    uint8_t type                 # weapons table index; NONE for an empty slot
    uint8_t x                    # square, inches from the south-west corner
    uint8_t y
    uint8_t facing               # 0..7: n ne e se s sw w nw
    uint8_t flags                # F_*
    uint8_t posture              # P_FIRING, P_MOVE, P_FIREMOVE
    uint8_t mp                   # half-MP left while moving
    uint8_t steps                # inches moved in the current move


# One battery's fire mission (indirect artillery and smoke, _artillery.pxi), 12 bytes.
cdef packed struct Mission:
    uint8_t state                # MS_*
    uint16_t code                # plot code: kind (0 HE, 1 smoke) * NTGT + target
    uint8_t plot_turn            # turn of the battery's last plot decision
    uint8_t land_turn            # turn the plotted fire is due (MS_PLOTTED)
    uint8_t x                    # the point of impact (MS_ACTIVE)
    uint8_t y
    uint8_t left                 # turns the markers stay, this one included (MS_ACTIVE)
    uint8_t doubled              # a natural 20 on the deviation roll: the scatter is doubled
    uint16_t last_code           # code of the battery's last fire that landed (adjusted fire); NOCODE
    uint8_t reserved             # always 0


# The state. Packed, pointer-free, 853 bytes (RULES.md, State layout); copied with memcpy,
# hashed and serialized as its bytes.
cdef packed struct MaState:
    # parameters (fixed for the game)
    uint8_t turns                # game length in turns
    uint8_t det                  # determination level, percent (break points)
    uint8_t coh[2]               # force cohesion levels
    int8_t quality[2]            # GHQ quality (-2..+3)
    # whose information this is
    int8_t viewer                # -1 full state, 0/1 the owner of this view
    # the turn
    uint8_t phase                # PH_*
    uint8_t turn                 # 1..turns
    uint8_t init_side            # initiative winner this turn
    uint8_t first                # who acts first in this turn's phases
    uint8_t to_move              # player to decide in alternating phases
    uint8_t passed               # bit p: player p passed this phase
    uint8_t ord_count            # movement-order rolls made this turn (0..2)
    uint8_t orders[2]            # movement orders left
    # the attack being declared or resolved
    uint8_t atk_side             # attacking player
    uint8_t atk_kind             # K_*
    uint8_t atk_target           # target slot or NONE
    uint8_t atk_step             # S_*
    uint8_t atk_cur              # firer (local index) being resolved
    uint8_t atk_hit              # an S, (S) or D result landed (opportunity fire)
    uint16_t atk_firers          # declared firers (bit = local index)
    # the stand moving
    uint8_t mover                # slot or NONE
    uint8_t mv_sub               # M_*
    uint8_t mv_flags             # bit 0: ordered attempt, bit 1: stopped by opportunity fire
    uint8_t rec_next             # next slot to roll recovery for
    uint16_t of_firers           # the last opportunity firers (covering fire targets)
    # break points (hidden information: the card totals)
    uint8_t cards_pending[2]     # cards still to draw for losses
    uint8_t brk_pending          # bit p: p's break check is due
    uint8_t broken               # bit p: p's formation broke
    uint8_t ncards[2]            # cards drawn (public)
    uint8_t ncards_ok[2]         # cards drawn at p's last passed break check (public)
    uint16_t total[2]            # card totals (0 in a view for the opponent)
    uint8_t deck[2][10]          # cards left by value 1..10 (0 in a view for the opponent)
    int8_t winner                # -1 none, 0/1, 2 draw
    uint8_t reserved             # always 0
    # close combat, command, options
    uint8_t ctarget              # the stand being close assaulted or overrun, or NONE
    uint8_t mv_dir               # the step waiting on a pass-through roll
    uint8_t ghq_slot[2]          # the stand acting as each side's GHQ; NONE when lost
    uint8_t rep_pending          # bit p: p's GHQ replacement roll is due (marker removal)
    uint8_t options              # OPT_* (optional rules)
    uint8_t hot                  # the firer being resolved rolled a natural 1 (Hot Shot)
    uint8_t reserved2            # always 0
    # Low Ammunition optional rule
    uint32_t low_ammo            # bit g: stand g is low on ammunition (for the rest of the game)
    uint32_t reserved3           # always 0
    uint16_t fired_at_by[32]     # bit l: enemy stand l rolled to fire at stand g this turn
    # command and morale (ma-move, _command.pxi): broken formations play on, rising cohesion
    # checks, lost HQ replacement, a new GHQ's quality
    int8_t ghq_qual[2]           # each side's GHQ quality now (a replacement GHQ rolls its own)
    uint8_t hq_lost[2]           # HQ posts lost and not yet filled
    uint8_t rise_n[2]            # rising cohesion checks p has passed
    uint8_t brk_turn[2]          # the turn p's formation broke (0: not broken)
    uint8_t cmd_pending          # marker removal rolls due: CMD_QUAL, CMD_HQREP, CMD_APPOINT, CMD_RISE << p
    uint8_t end_cause            # END_*: how the game ended
    uint16_t reserved4           # always 0
    uint32_t hq_mask             # bit g: stand g holds an HQ post (the GHQ is ghq_slot)
    # the scenario (every family reads its tables through it; ma-air added it)
    uint8_t scn                  # index into SCENARIO_NAMES (scenarios/*.toml)
    # airstrikes (ma-air family, _air.pxi): aircraft slots a = 0..NAIR-1 of the scenario
    uint8_t air_step             # AS_*: what the airstrike or its plot waits for (AS_NONE: nothing)
    uint8_t air_cur              # the aircraft striking or plotting
    uint8_t air_kind             # the strike: 0 strafe, 1 bomb
    uint8_t air_x                # the strike point (aimed, then where it lands)
    uint8_t air_y
    uint8_t air_mod              # AA modifier to this strike's 'to attack' and 'to deviate' rolls
    uint8_t air_dir              # deviation direction rolled (0..7)
    uint8_t air_sq               # next square of the bomb pattern to attack
    uint8_t air_fasc             # bit a: aircraft a's Forward Air Support Coordinator came through this turn
    uint8_t ordnance[4]          # bomb loads left, by aircraft
    uint8_t plot_x[4]            # pre-plotted bomb point by aircraft: PLOT_NONE, PLOT_HIDDEN (a view) or x
    uint8_t plot_y[4]
    uint8_t plot_turn[4]         # the turn the plot is for (0 none)
    # Direct-fire extras and buildings (ma-df: _weapons_extra.pxi, _buildings.pxi)
    uint8_t df_options           # DF_* bits: optional ammunition rules, D#, the support stands
    uint8_t bld_area             # building area whose artillery roll is due, or NONE
    uint8_t bld_fp               # that attack's firepower (HE)
    int8_t bld_mod               # that roll's modifier
    uint8_t ammo[32]             # per stand: AM_* bits (special AP used, D# spent) and HEAT rounds fired << 4
    uint8_t bld_hits[32]         # per building area: 'E' results taken (rubble at its class's number)
    uint8_t bld_fire[32]         # per building area: turns left burning (0 = not alight)
    # Indirect artillery and smoke (ma-art: _artillery.pxi; the scenario is `scn` above)
    uint8_t art_seq              # artillery fire / joint plot: position in the battery order (0..8)
    uint8_t art_step             # AR_*: what the current battery's fire waits for
    uint8_t art_mk               # marker being resolved (section; for a mover battery * 3 + section)
    uint8_t art_reserved         # always 0
    uint8_t smoke_left[8]        # smoke missions left, per battery
    Mission ms[8]                # per battery: 0..3 German, 4..7 Soviet
    # obstacles and minefields (ma-obstacles: _obstacles.pxi, _minefields.pxi)
    uint8_t ip_state[8]          # per improved position: 'E' results taken; IP_GONE bit: destroyed or vanished
    uint32_t mf_kind             # 2 bits per minefield marker: MK_DUMMY, MK_HASTY, MK_STANDARD, MK_CONC
                                 # (a view: MK_DUMMY on the opponent's markers not yet revealed)
    uint16_t mf_shown            # bit i: marker i revealed as a real minefield
    uint16_t mf_gone             # bit i: marker i removed (revealed as a dummy)
    uint8_t mf_cur               # the minefield attacking the mover (M_MINE) or a breaching stand, or NONE
    uint8_t mf_bnext             # the stand whose breaching roll is due (marker removal), or NONE
    uint8_t mf_breach[16]        # per marker: successful breaching rolls so far
    uint32_t wreck_clear         # bit g: stand g's wreck is cleared off the road (the road rate resumes)
    # special stand types (ma-units: _stand_types.pxi)
    uint32_t mounted             # bit g: cavalry stand g is on horseback
    uint8_t fl_step              # FL_*: the flame check due (FL_NONE: none)
    uint8_t fl_target            # the stand hit by a flame vehicle, or NONE
    uint8_t fl_src               # the flame vehicle, or NONE
    uint8_t un_reserved          # always 0
    uint32_t offtable            # bit g: stand g has not entered from its table edge yet (_entry.pxi)
    uint8_t grp_cur              # movement group attempting (side * NGRP + j), or NONE (_groups.pxi)
    uint8_t grp_step             # GS_*: its roll due, or its stands moving one after another
    uint8_t grp_flags            # bit 0: an ordered attempt
    uint8_t grp_reserved         # always 0
    uint16_t grp_elig            # local bits: the group's stands in this attempt
    uint16_t grp_queue           # local bits: those that passed and have still to move
    # transport (ma-transport, _transport.pxi): who carries whom
    uint8_t carrier[32]          # per stand: the slot of the vehicle carrying it, NONE if not carried
    uint32_t tr_loaded           # bit g: vehicle g took personnel aboard this turn (pays 50% of its MP)
    uint8_t tr_to                # the vehicle a loading roll is for, NONE if none
    uint8_t tr_options           # TR_* bits (optional rules)
    uint16_t reserved5           # always 0
    # hidden set-up, dummies, spotting, weather and night (ma-hidden: _spotting.pxi, _weather.pxi)
    uint32_t hid                 # bit g: stand g is an unspotted hidden marker (its enemy sees no type)
    uint32_t dummy               # bit g: hidden marker g is a dummy (a view: the canonical deal, _spotting.pxi)
    uint32_t spot_due            # bit g: marker g was spotted or shown: what it is comes next (a chance node)
    uint8_t weather              # weather code (_data_hidden.WEATHER; 0 clear)
    uint8_t ground               # 0 normal, 1 snow, 2 deep snow, 3 frozen, 4 extreme heat (_data_hidden.GROUNDS)
    uint8_t night                # 1: a night battle
    uint8_t sight                # this turn's maximum sighting distance in inches
    uint8_t sight_turn           # the turn `sight` was rolled for (0: none rolled yet)
    # flares (_weather.pxi; RULES.md "Weather and night"): the 3 bytes reserved in the
    # hidden set-up and weather block (offsets 509-511)
    uint8_t flares_left          # flares each side has left: German low nibble, Soviet high
    uint8_t flare_bits           # bit p: side p's flare burns this turn; bit 2 + p: p decided this turn
    uint8_t night_lost           # the cohesion the night took from each side: German low nibble, Soviet high
    # two-turn loads (_transport.pxi; RULES.md "Transport": "loads over 10 points take two
    # turns"): the cargo stand committed to the load across the turn boundary, its carrier held
    uint8_t tr_half[32]          # per stand: the vehicle it is half-loaded onto (aboard next turn), NONE if none
    uint32_t tr_held             # bit v: vehicle v is held for a two-turn load (the tr_half targets; validate checks)
    # engineering tasks: bridges over streams and filled AT ditches (_engineering.pxi;
    # RULES.md "Engineering: bridges and AT ditches"): the squares worked on in play, in
    # the order work began (public); an entry is made at a square's first success
    uint8_t tc_n                 # squares in the list (0..8); tc_x/tc_y/tc_succ past it are 0
    uint8_t tc_bridge            # bit i: a bridge is built on square i (it is bridge terrain now)
    uint8_t tc_filled            # bit i: the AT ditch on square i is filled (no obstacle now)
    uint8_t tc_reserved          # always 0
    uint8_t tc_x[8]
    uint8_t tc_y[8]
    uint8_t tc_succ[8]           # successful rolls made on square i so far (kept once done)
    # paratroop drops (_drop.pxi; RULES.md "Paratroops"): the landing group waits off the
    # table, not alive, until its drop turn; its drop zone is plotted the turn before, hidden
    uint32_t drop_wait           # bit g: paratroop stand g has not landed yet
    uint8_t drop_x               # the drop zone: PLOT_NONE, PLOT_HIDDEN (the opponent's view) or x
    uint8_t drop_y
    uint8_t drop_step            # DS_*: what the drop waits for (DS_NONE: nothing)
    uint8_t drop_cur             # the stand landing, NONE if none
    uint8_t drop_dir             # its scatter direction (0..7); between its cohesion and direction rolls, the die's step
    # gliders and the paratroop HQ delay (_drop.pxi, _command.pxi; RULES.md "Paratroops"): the
    # 3 bytes reserved in the drop block (offsets 585-587), so nothing after them moves
    uint8_t drop_jump            # JUMP_*: the landing group's jump conditions (the `jump` parameter or the scenario's)
    uint8_t hqd_left             # the lost paratroop HQ's post: 0 none held back, 1..4 turns left, HQD_ROLL its delay roll due
    uint8_t drop_reserved        # always 0
    Stand st[32]
    # pre-registered target points (_prereg.pxi; RULES.md "Indirect artillery"): recorded
    # secretly before turn 1; after the stand slots, so nothing before them moves
    uint8_t pre_cell[8]          # side * 4 + i: the plot cell of side's point i, PLOT_NONE not recorded (yet),
                                 # PLOT_HIDDEN the opponent's, unseen (a view)
    uint8_t pre_shown            # bit side * 4 + i: that point was seen by both (a call on it landed)


cdef packed struct MaParams:
    uint8_t turns
    uint8_t det
    uint8_t coh[2]
    int8_t quality[2]
    uint8_t deploy               # 0 scenario edges, 1 close (each side CLOSE_SHIFT inches nearer)
    uint8_t options              # bit 0: Hot Shot, bit 1: Low Ammunition, 2: Intuitive Action, 3: Conflicting Orders
    uint8_t scn                  # scenario index (SCENARIO_NAMES)
    uint8_t df_options           # DF_* bits (ma-df)
    uint8_t tr_options           # TR_* bits (transport)
    uint8_t weather              # weather code (ma-hidden)
    uint8_t ground               # ground condition (ma-hidden)
    uint8_t night                # 1 night (ma-hidden)
    uint8_t jump                 # JUMP_* of the landing group, NONE: the scenario's (_drop.pxi)

cdef enum:  # df_options bits (ma-df)
    DF_SPECIAL_AP = 1   # optional rule: special AP ammunition
    DF_HEAT = 2         # optional rule: limited HEAT rounds
    DF_BIG_GUN = 4      # optional rule: big guns fire HE at armour within 4"
    DF_DEPLETION = 8    # D# depletion
    DF_SUPPORT = 16     # the scenario's support stands and building classes are in play
    DF_ALL = 31

cdef enum:  # ammo[] bits (ma-df)
    AM_SPECIAL_USED = 1 # special AP ammunition used up
    AM_DEPLETED = 2     # D#: lost its AP ability for the rest of the game
    AM_HEAT_SHIFT = 4   # HEAT rounds fired, in the high nibble

cdef enum:  # tr_options bits (transport)
    TR_RIDERS = 1       # optional rule: tank riders
    TR_ALL = 1

cdef enum:
    MAXBLDG = 32        # building areas (squares) per scenario

assert sizeof(Stand) == 8
assert sizeof(MaState) == 853, "MaState layout changed: update hash, RULES.md and tests"

# ----------------------------------------------------------------- static tables (filled by install)
cdef int NTERRAIN = 0, NTYPES = 0, NRANGE = 0, NORD = 0, ORD_MAX = 0, NSCN = 0
cdef int VILLAGE_T = -1
# per scenario (index MaState.scn): the table, its size and sighting, the deployment
cdef int SC_W[MAXSCN]
cdef int SC_H[MAXSCN]
cdef int SC_SIGHT[MAXSCN]
cdef uint8_t SC_TER[MAXSCN][HMAX][WMAX]
cdef uint8_t SC_VDIST[MAXSCN][HMAX][WMAX]   # inches (king moves) to the nearest village square
cdef uint8_t T_COST[MAXTERRAIN][4]          # half-MP per inch by class, 0 impassable
cdef int8_t T_COH[MAXTERRAIN]
cdef int8_t T_CRT[MAXTERRAIN]
cdef uint8_t T_BLOCK[MAXTERRAIN]
cdef uint8_t T_UNDER[MAXTERRAIN]            # a road's underlying terrain (wrecks on roads); itself otherwise
cdef uint8_t WR1_COST[4]
cdef uint8_t WR2_COST[4]
cdef int WR1_COH = 0, WR1_CRT = 0, WR2_COH = 0, WR2_CRT = 0
cdef int R_MAX[16]
cdef int R_MOD[16]
cdef int CRT_MIN = -3, CRT_MAX = 9, CRT_E = 1, CRT_D = 3, CRT_SS = 5, CRT_S = 7
cdef int ORD_AT[10]
cdef int ORD_N[10]
cdef uint8_t TY_AP[MAXTYPES]
cdef uint8_t TY_HE[MAXTYPES]
cdef uint8_t TY_DV[MAXTYPES]
cdef uint8_t TY_DEF[MAXTYPES]
cdef uint8_t TY_RANGE[MAXTYPES]
cdef uint8_t TY_MP[MAXTYPES]
cdef uint8_t TY_CLASS[MAXTYPES]             # 0 W, 1 T, 2 F, 3 A
cdef uint8_t TY_ROLE[MAXTYPES]              # 0 unit, 1 HQ, 2 GHQ
cdef uint8_t TY_OPEN[MAXTYPES]
cdef uint8_t TY_RECON[MAXTYPES]
cdef uint8_t TY_CAVALRY[MAXTYPES]           # doubles its value close assaulting non-vehicles
cdef uint8_t TY_ENGINEER[MAXTYPES]          # a further -3 to close assault CRT rolls
cdef uint8_t TY_AA[MAXTYPES]                # AA bonus to airstrike rolls: 2 (40mm or less), 1 (larger), 0 none
cdef uint8_t TY_MINECLEAR[MAXTYPES]         # a mine-clearing vehicle (breaches minefields, _minefields.pxi)
cdef uint8_t TY_DOZER[MAXTYPES]             # a dozer-blade vehicle: fills AT ditches (_engineering.pxi)
cdef uint8_t TY_BRIDGING[MAXTYPES]          # a bridging tank: bridges streams
cdef uint8_t TY_MATERIALS[MAXTYPES]         # engineers with bridging materials: bridge streams
cdef uint8_t TY_WRECKCLR[MAXTYPES]          # clears wrecks off roads (recovery, dozer, large transport, heavy tracked)
cdef uint8_t TY_CARGO[MAXTYPES]             # transport: personnel stands it carries (weapons.toml cargo), 0 none
cdef uint8_t TY_LOAD2[MAXTYPES]             # its load is over 10 points: loading it takes two turns (data/loads.toml)
cdef uint8_t SC_CARRY[MAXSCN][NSLOT]        # the vehicle each stand starts aboard (scenario carried_by), NONE
cdef int SC_REPL[MAXSCN][2]                 # lost-GHQ replacement roll modifier by nationality
cdef Stand SC_START[MAXSCN][NSLOT]          # the scenario's deployment
cdef char SC_NAMES[MAXSCN][NSLOT][8]        # stand ids for notation
cdef int SC_TURNS[MAXSCN]
cdef int SC_COH[MAXSCN][2]
cdef int SC_QUAL[MAXSCN][2]
# direct-fire extras (ma-df; weapons.toml codes, charts.toml [range_dp] [ammunition])
cdef uint8_t TY_SUPPRESS[MAXTYPES]          # MMG, light mortar or artillery: 'No Effect' becomes S
cdef uint8_t TY_ARTY[MAXTYPES]              # artillery piece
cdef uint8_t TY_DEPL[MAXTYPES]              # D# number, 0 none
cdef uint8_t TY_SPECIAL[MAXTYPES]           # carries special AP ammunition
cdef uint8_t TY_HEAT_N[MAXTYPES]            # HEAT rounds, 0 none
cdef uint8_t TY_HEAT_AP[MAXTYPES]
cdef uint8_t TY_BIG[MAXTYPES]               # big gun: HE at armour within BIG_RANGE
cdef uint8_t TY_RFALL[MAXTYPES]             # 'R': the type it fights as outside its arc, NONE if not R
cdef uint8_t TY_DP[MAXTYPES]                # dual-purpose AA gun: DP range bands
cdef int NRANGE_DP = 0, DP_STEP = 8, SPECIAL_PCT = 150, SPECIAL_AT = 5, BIG_RANGE = 4
cdef int RDP_MAX[16]
cdef int RDP_MOD[16]
# buildings (ma-df; charts.toml [building]) and, per scenario, its building squares
cdef int BURN_TURNS = 2, BURN_MOD = 3
cdef int SC_NBLDG[MAXSCN]
cdef uint8_t SC_BIDX[MAXSCN][HMAX][WMAX]    # building area of a square, NONE if none
cdef uint8_t SC_BX[MAXSCN][MAXBLDG]
cdef uint8_t SC_BY[MAXSCN][MAXBLDG]
cdef uint8_t SC_BCLASS[MAXSCN][2][MAXBLDG]  # class 0 light 1 medium 2 heavy; [1]: with the support stands
cdef int BC_COH[3]
cdef int BC_CRT[3]
cdef int BC_DV[3]
cdef int BC_RUBBLE[3]
cdef uint8_t RUB_COST[4]
cdef int RUB_COH = 0, RUB_CRT = 0, RUB_BLOCK = 0
cdef uint32_t SC_SUPPORT[MAXSCN]            # bit g: slot g holds a support stand (per scenario)
# hidden set-up (ma-hidden, _spotting.pxi): per scenario the marker slots, the dummies among them
# as set up, the placeholder type every dummy shows; charts: concealment and height by terrain
cdef uint32_t SC_HIDMASK[MAXSCN]            # bit g: slot g sets up hidden (a marker: real or dummy)
cdef uint32_t SC_DUMMY[MAXSCN]              # bit g: marker g is a dummy in the scenario file
cdef uint8_t SC_DUMMY_TYPE[MAXSCN][2]       # the type a dummy of side p holds (the side's first hidden type)
cdef char TY_KEY[MAXTYPES][12]              # weapons.toml keys (the shown:<type> notation)
cdef uint8_t T_CONCEAL[MAXTERRAIN]          # inches within which a stand in this terrain is spotted, 0 any
cdef uint8_t T_LEVEL[MAXTERRAIN]            # height level (higher ground)
cdef int SPOT_PER_LEVEL = 5
# weather and night (ma-hidden, _weather.pxi)
cdef int SC_WEATHER[MAXSCN]
cdef int SC_GROUND[MAXSCN]
cdef int SC_NIGHT[MAXSCN]
cdef int SC_NIGHT_LOSS[MAXSCN][2]           # night cohesion loss, per side (scenario night_cohesion)
cdef int SC_FLARES[MAXSCN][2]               # flares per side for the game (scenario flares)
cdef double SIGHT_P[MAXSCN][NWEATHER][2][MAX_SIGHT + 1]   # P(turn's sighting = n), by weather and night
cdef bint SIGHT_ROLL[MAXSCN][NWEATHER][2]   # whether that combination rolls
cdef uint8_t GROUND_TER[NGROUND][MAXTERRAIN]  # terrain a square of type t counts as on this ground
cdef int DX[8]
cdef int DY[8]
DX[:] = [0, 1, 1, 1, 0, -1, -1, -1]
DY[:] = [1, 1, 0, -1, -1, -1, 0, 1]
cdef const char *DIR_NAMES[8]
DIR_NAMES[:] = [b"n", b"ne", b"e", b"se", b"s", b"sw", b"w", b"nw"]
cdef const char *CRT_NAMES[5]
CRT_NAMES[:] = [b"-", b"S", b"(S)", b"D", b"E"]
# 2D6: ways to roll each total 2..12, out of 36
cdef int TWO_D6[13]
TWO_D6[:] = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
cdef uint8_t FULL_DECK[10]
FULL_DECK[:] = [4, 4, 4, 4, 4, 4, 4, 4, 4, 16]   # ace = 1, 2..10, J Q K = 10

CHARTS = None
WEAPONS = None
SCENARIO = None                             # the Introductory (index 0): kept for older callers
STAND_IDS = []                              # its stand ids
SIDE_KEYS = ("german", "soviet")
SCENARIO_NAMES = ()
SCENARIOS = []                              # by index: the scenario dicts _data.py loaded
SC_IDS = []                                 # by index: stand ids by slot


def install():
    """Reads the data files (validated, ValueError naming file and key) and
    fills the static tables: the charts and weapons once, every scenario in
    scenarios/ at its index (the state's `scn` picks one)."""
    global NTERRAIN, NTYPES, NRANGE, NORD, ORD_MAX, VILLAGE_T, NSCN
    global WR1_COH, WR1_CRT, WR2_COH, WR2_CRT, CRT_MIN, CRT_MAX, CRT_E, CRT_D, CRT_SS, CRT_S
    global CHARTS, WEAPONS, SCENARIO, STAND_IDS, SIDE_KEYS, SCENARIO_NAMES, SCENARIOS, SC_IDS
    charts = _data.load_charts()
    weapons = _data.load_weapons(charts=charts)
    names = _data.scenario_names()
    if not 1 <= len(names) <= MAXSCN:
        raise ValueError(f"scenarios/: expected 1 to {MAXSCN} scenario files, got {len(names)}")
    NTERRAIN = len(charts["terrain"])
    VILLAGE_T = -1
    for i, t in enumerate(charts["terrain"]):
        for c in range(4):
            T_COST[i][c] = t["cost"][c]
        T_COH[i] = t["cohesion"]
        T_CRT[i] = t["crt"]
        T_BLOCK[i] = t["blocks_los"]
        T_UNDER[i] = t["under"]
        if t["name"] == "buildings":
            VILLAGE_T = i
    w = charts["wreck"]
    for c in range(4):
        WR1_COST[c] = w["one_cost"][c]
        WR2_COST[c] = w["two_cost"][c]
    WR1_COH, WR1_CRT, WR2_COH, WR2_CRT = w["one_cohesion"], w["one_crt"], w["two_cohesion"], w["two_crt"]
    NRANGE = min(16, len(charts["range"]))
    for i in range(NRANGE):
        R_MAX[i], R_MOD[i] = charts["range"][i]
    c = charts["crt"]
    CRT_MIN, CRT_MAX, CRT_E, CRT_D, CRT_SS, CRT_S = c["min_cd"], c["max_cd"], c["e"], c["d"], c["ss"], c["s"]
    NORD = min(10, len(charts["orders_at"]))
    for i in range(NORD):
        ORD_AT[i] = charts["orders_at"][i]
        ORD_N[i] = charts["orders_n"][i]
    ORD_MAX = charts["orders_max"]
    NTYPES = len(weapons)
    for i, t in enumerate(weapons):
        TY_AP[i], TY_HE[i], TY_DV[i] = t["ap"], t["he"], t["dv"]
        TY_DEF[i] = "AUP".index(t["defence"])
        TY_RANGE[i], TY_MP[i] = t["range"], t["mp"]
        TY_CLASS[i] = "WTFA".index(t["move"])
        TY_ROLE[i] = ("unit", "hq", "ghq").index(t["role"])
        TY_OPEN[i], TY_RECON[i] = t["open_top"], t["recon"]
        TY_CAVALRY[i], TY_ENGINEER[i] = t["cavalry"], t["engineer"]
        TY_AA[i] = t["aa_bonus"]
        TY_MINECLEAR[i] = t["mine_clearing"]
        TY_WRECKCLR[i] = t["wreck_clearing"]
        TY_DOZER[i], TY_BRIDGING[i], TY_MATERIALS[i] = t["dozer"], t["bridging"], t["materials"]
        TY_CARGO[i] = t["cargo"]
        TY_LOAD2[i] = t["two_turn_load"]
    install_air_charts(charts)
    install_command_charts(charts)       # _command.pxi
    install_extras(charts, weapons)      # _weapons_extra.pxi, _buildings.pxi
    install_artillery_charts(charts)     # _artillery.pxi
    install_obstacle_charts(charts)      # _obstacles.pxi, _minefields.pxi
    install_engineering_charts(charts)   # _engineering.pxi
    install_unit_types(charts, weapons)  # _stand_types.pxi
    install_spotting_charts(charts, weapons)   # _spotting.pxi, _weather.pxi
    install_drop_charts(charts)          # _drop.pxi
    scs = []
    all_ids = []
    for k, name in enumerate(names):
        sc = _data.load_scenario(name, charts, weapons)
        if tuple(sd["key"] for sd in sc["sides"]) != SIDE_KEYS:
            raise ValueError(f"{name}.toml: side: expected the sides {' and '.join(SIDE_KEYS)} in that order "
                             f"(the game's players), got {', '.join(sd['key'] for sd in sc['sides'])}")
        all_ids.append(install_scenario(k, sc))
        scs.append(sc)
    NSCN = len(names)
    SCENARIO_NAMES = tuple(names)
    SCENARIOS = scs
    SC_IDS = all_ids
    STAND_IDS = all_ids[0]
    CHARTS, WEAPONS, SCENARIO = charts, weapons, scs[0]


def install_scenario(int k, sc):
    """Copies one scenario into the tables at index k; returns its stand ids by slot."""
    W, H = sc["width"], sc["height"]
    SC_W[k], SC_H[k] = W, H
    for y in range(H):
        for x in range(W):
            SC_TER[k][y][x] = sc["grid"][y][x]
    village = [(x, y) for y in range(H) for x in range(W) if SC_TER[k][y][x] == VILLAGE_T]
    for y in range(H):
        for x in range(W):
            SC_VDIST[k][y][x] = min([max(abs(x - vx), abs(y - vy)) for vx, vy in village] or [0])
    SC_SIGHT[k] = sc["sighting"]
    SC_TURNS[k] = sc["turns"]
    ids = [""] * NSLOT
    memset(SC_START[k], 0, sizeof(Stand) * NSLOT)
    for g in range(NSLOT):
        SC_START[k][g].type = NONE
    for p in range(2):
        SC_COH[k][p] = sc["sides"][p]["cohesion"]
        SC_QUAL[k][p] = sc["sides"][p]["quality"]
        SC_REPL[k][p] = sc["sides"][p]["replace_mod"]
        for l, s in enumerate(sc["stands"][p]):
            g = p * 16 + l
            SC_START[k][g].type = s["type"]
            SC_START[k][g].x, SC_START[k][g].y, SC_START[k][g].facing = s["x"], s["y"], s["facing"]
            SC_START[k][g].flags = F_ALIVE
            ids[g] = s["id"]
    for g in range(NSLOT):
        b = ids[g].encode()
        memset(SC_NAMES[k][g], 0, 8)
        for i in range(len(b)):
            SC_NAMES[k][g][i] = b[i]
    install_command(k, sc)               # _command.pxi
    install_air(k, sc)
    install_extras_scenario(k, sc)       # _weapons_extra.pxi: support stands, building areas
    install_artillery(k, sc)             # _artillery.pxi: batteries, pre-registered points
    install_obstacles(k, sc)             # _obstacles.pxi, _minefields.pxi
    install_unit_scenario(k, sc)         # _stand_types.pxi: cavalry starting mounted
    install_entry_scenario(k, sc)        # _entry.pxi: stands entering from the table edge
    install_group_scenario(k, sc)        # _groups.pxi: movement groups
    install_transport(k, sc)             # _transport.pxi: who starts aboard which vehicle
    install_hidden(k, sc)                # _spotting.pxi, _weather.pxi: hidden markers, weather, night
    install_drop(k, sc)                  # _drop.pxi: a paratroop landing group (after the entry table)
    fill_village_paths(k)                # _features.pxi: the walking distance (after the minefields)
    return ids
