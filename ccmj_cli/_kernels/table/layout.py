"""Index constants of the table simulation: the state arrays, events, per-hand results,
statistics, bot knobs, table parameters. Layout only (which slot means what); rule values arrive
as kernel arguments.
"""

# --- sizes
N_WALL = 136
# Dice pre-rolled per hand: a roll takes at most two, and a hand rolls at most 35 times (the
# first roll, then one per 换宝: every roll puts the bao on a kind with fewer than three public
# copies, a 换宝 needs three, and public copies never go back), so 70 dice are never re-used.
N_DICE = 70
MAX_MELDS = 6
MELD_COLS = 18  # kind, tile count, up to 16 tiles
# Events in one hand are at most 391, so a hand always fits: draws (head + tail) <= 83 (the
# wall after the deal), at most 4 of the head draws passed on (wall_end win_only_four);
# discards <= 1 + head draws + claimed melds <= 100; claimed melds (吃, 碰, 明杠, 抢叉) <= 16
# (four sets a seat); kongs, 补 and special kongs <= tail draws + 12 (the 3-tile special kongs
# take none); robbed kongs <= 17; 报听 <= 4; rolls and 换宝 <= 35 each; looks <= head draws +
# 1; the end 1. An overflow would still be counted (R_N_EVENTS) and the log refuses it rather
# than cut the hand.
MAX_EVENTS = 512

# --- scalar table state: g[G_*] (int64)
G_HEAD = 0  # next wall position drawn from the head
G_TAIL = 1  # next wall position drawn from the tail (replacement draws)
G_BAO_POS = 2  # wall position of the bao (-1: none rolled)
G_BAO = 3  # the bao's tile kind (-1: none)
G_BAO_VER = 4  # bumped at every roll: a seat has seen the current bao when P_LOOKED equals it
G_KONGS = 5  # kongs declared this hand (special kongs included): the reserve grows with them
G_DICE_I = 6  # dice used so far
G_NEV = 7  # events so far (recorded or not)
G_REC = 8  # 1: record events
G_NSTR = 9  # wall tiles the draws stepped over (the bao in place): still in the wall
G_STR = 10  # their positions (up to N_STR)
N_STR = 6
G_CUR = 16  # the seat on turn
G_DRAWN = 17  # the tile the seat on turn just drew (-1: his turn began with a claim)
G_WINNER = 18  # -1 until someone wins
G_HOW = 19  # HOW_* of the win
G_WIN_TILE = 20  # the tile the win is scored with
G_PHYS = 21  # the tile physically taken (摸宝: the bao-kind tile drawn; 对宝: -1)
G_DISCARDER = 22  # the seat whose tile was won on (-1: self-drawn)
G_DEALER = 23
G_NO_BAO = 24  # 1: no tile in the wall can serve as the bao (none for the rest of the hand)
G_DECL_DISC = 25  # the seat that declared (报听) with the discard now claimed on (-1: none)
G_PHASE = 26  # PH_*: what the table waits for now (a position says it; the driver keeps it)
G_PENDING = 27  # the tile offered to the others: the discard (PH_CLAIM), a 加杠/补 tile (PH_ROB)
G_PEND_KIND = 28  # PH_ROB: 1 a 加杠 tile, 2 a 补 tile
G_NDISC = 29  # discards so far this hand (the dealer's first turn is the one before any)

# the referee's scripted mode (``script``): a hand replayed from a record, the record's events
# deciding for every seat (bots rows N_SEATS.. hold them); 0 in simulate's hands
G_SCRIPT = 30  # 1: the decisions come from the record
G_STOP = 31  # 0 while the record agrees; a rule code (codes.py) at its first illegal event; -1
#              at the event asked for (stop marker), -2 when the record ends before the hand
G_BAD_EV = 32  # the record's event index where it stopped
G_NREC = 33  # events in the record
G_HQ = 34  # an unknown wall (a hand-written record): head draws taken from the record so far
G_TQ = 35  # ... tail draws
G_BQ = 36  # ... bao tiles
G_OFF = 37  # 5 slots: the event the engine offered where the record differs (EV_* row)
G_NHOLE = 42  # wall positions emptied by 用宝 kongs (bao_kong: the bao tile taken out of the wall)
G_HOLE = 43  # their positions (up to N_HOLE): draws step over them, they are not left
N_HOLE = 16
G_LAID = G_HOLE + N_HOLE  # 1: the seat on turn laid a 3-tile special kong since his last tile came
#                           (no 胡 until one comes: a win needs a new tile, RULES §2)
G_LEN = G_LAID + 1

# a record's wall when its tiles are unknown (a hand-written record): 136 positions (-1 where
# unknown), then the record's head draws, tail draws and bao tiles in order, which the draws
# and rolls take where the wall is unknown
WQ_HEAD = N_WALL
WQ_TAIL = 2 * N_WALL
WQ_BAO = 3 * N_WALL
SCRIPT_WALL = 4 * N_WALL
ANY = -99  # a record field not given (a hand-written record): any value agrees
STOP_AT = 5  # a record row's sixth column: 1 stops the replay after this event (``--at``)

# g[G_PHASE]: what the table waits for
PH_DRAW = 0  # the seat on turn (G_CUR, 3k+1 tiles) is to draw (a declared seat looks first)
PH_SELF = 1  # the seat on turn holds 3k+2 tiles: win, kong, discard (and 报听)
PH_CLAIM = 2  # the seat on turn discarded G_PENDING: the others may claim it
PH_ROB = 3  # the seat on turn is adding G_PENDING (加杠 / 补): the others may rob it
PH_OVER = 4  # the hand is over (won, or 荒庄)

# --- per-seat state: ps[seat, P_*] (int64)
P_DECLARED = 0  # 1 after 报听
P_LOOKED = 1  # G_BAO_VER of the bao the seat last looked at (-1: never)
P_FIRST = 2  # 1 until the seat's first turn is over (special kongs, the dealer's no-补); 2: that
#               turn was entered by a claim (special_kong_timing first_turn: no 补 in it)
P_SPECIAL = 3  # 4 slots: special kongs of each kind held (MELD_XUANFENG .. MELD_JIUDAN)
P_WAITS = 7  # the structural waits of the seat's last 3k+1 concealed hand (a cache) ...
P_WKEY = 8  # ... and that hand's key (2 slots) and declared sets
P_WSETS = 10
P_PASSED = 11  # 过水: the fan of the best discard win the seat passed since his last draw (-1)
P_DISC = 12  # bitmask of the tile kinds the seat has discarded this hand (defence reads it)
P_LAID_DADAN = 13  # bitmask of the tiles of his 大蛋 laid as three (dadan_laid): the 4th is a 补
P_LEN = 14

# --- table parameters (simulate.py fills them from the variant): tp[TP_*]
TP_DEAD_STACKS = 0  # stacks never drawn (RULES §8: 7)
TP_BAO_DICE = 1  # dice rolled for the bao stack (1 or 2)
TP_LEN = 2
# (the special kong options — 三风蛋, 幺鸡, special_kong_timing — are the rule vector's, read by
# melds.classify_bracket and table/kongs.py, as for a single hand)

# rv[RV_BAO_PLACE] (rules.BAO_PLACE_MODES order), rv[RV_WALL_END] (rules.WALL_END_MODES order),
# rv[RV_BAO_CHANGE] (rules.BAO_CHANGE_MODES order)
BAO_ANY_STACK = 0  # the counted stack's top, else its lower tile, else the next stacks round
BAO_TOP_SIX = 1  # only the top tiles of the six stacks at the wall's end; none once used up
BAO_TILE = 2  # the k-th single tile from the tail (not a stack), else the next tiles round
WALL_RESERVE = 0  # dead_wall_stacks, +1 per kong after two
WALL_WIN_ONLY_FOUR = 1  # at 9 stacks left 4 win-only draws; drawn at dead_wall_stacks
BAO_CHANGE_ALWAYS = 0
BAO_CHANGE_OPTIONAL = 1

# rv[RV_SPECIAL_KONG_TIMING] (rules.TIMING_MODES order)
SPECIAL_DEALT = 0  # RULES §7: only the starting hand (a non-dealer's first draw does not count)
SPECIAL_FIRST_TURN = 1  # the first discard turn: the first drawn tile may complete one
SPECIAL_FIRST_DRAW = 2  # between the seat's first draw and first discard (any tile held then); a
#                         claim before his first draw ends the chance (no special kong at all)

# --- bot knobs (a policy's weights), one row per seat: bots[seat, K_*]; 0 = off for the new
# ones, so a row of the first four knobs (the baseline's) plays exactly as before they existed
K_CALL = 0  # 吃/碰: 0 never, 1 when it lowers shanten (baseline), 2 when it does not raise it
K_KONG = 1  # 明杠/暗杠/加杠/补: 0 never, 1 when it does not raise shanten (baseline)
K_DECLARE = 2  # 报听: 0 never, 1 when a discard leaves it tenpai (baseline)
K_SPECIAL = 3  # special kongs from the starting hand: 0 never, 1 always (baseline)
K_DECLARE_LIVE = 4  # 报听 only with at least this many live legal waits (0 or 1: any)
K_FOLD = 5  # defence: once an opponent has declared, a hand this many or more tiles from tenpai
#             (shanten >= K_FOLD) folds; 0 never folds
K_PUSH = 6  # defence: a hand that can be tenpai discards a dangerous tile only with at least
#             this many live legal waits after it, else folds (0: always pushes)
K_PIAO = 7  # value: chase 飘胡 with this many pairs/pungs, concealed or declared (no chow
#             declared); 0 never
K_MENQING = 8  # value: a concealed hand at most this shanten makes no 吃/碰 (keeps 门清); 0 off
K_WAIT = 9  # value: the tenpai discard weighs each live legal wait by what it pays (夹 x2, 飘 x4)
K_BAO_CHANGE = 10  # 换宝 when the variant makes it optional: 1 a declared seat asks for it, 0 never
K_PASS_WIN = 11  # 胡 on a discard: 0 always win (every policy), 1 pass every one (tests: 过水)
K_LEGAL = 12  # 1: discards and 吃/碰 by the legal distance (三色全, 幺九, 刻 counted), not shanten
K_DEFEND = 13  # defence by value: once an opponent has declared, each discard weighs the hand's
#              chance to win against what a deal-in costs under the variant (defence.py)
K_DECLARE_VALUE = 14  # 报听 by value: when the declared line (the bao, the hand locked) is
#                      worth more than staying open (defence.declare_pays); K_DECLARE_LIVE unread
N_KNOBS = 15
KNOB_NAMES = (
    "call", "kong", "declare", "special", "declare_min_live", "fold_shanten", "push_min_live",
    "piao_pairs", "menqing_shanten", "value_waits", "bao_change", "pass_win", "legal", "defend",
    "declare_value",
)  # fmt: skip
KNOB_MAX = (2, 1, 1, 1, 20, 8, 20, 7, 8, 1, 1, 1, 1, 1, 1)

# --- events (one row per event: kind, seat, tile, a, b)
EV_DRAW = 0  # seat drew tile from the wall's head
EV_TAIL = 1  # replacement draw from the tail (after a kong / 补 / 旋风杠)
EV_DISCARD = 2
EV_CHOW = 3  # a = first tile of the chow, b = discarder
EV_PUNG = 4  # b = discarder
EV_MINGKONG = 5  # kong on a discard, b = discarder
EV_ANKONG = 6
EV_JIAGANG = 7  # 加杠: fourth tile on an exposed pung
EV_SPECIAL = 8  # special kong from the starting hand, a = meld kind, tile = first tile of the group
EV_BU = 9  # 补 tile on a special kong, a = meld kind
EV_ROB_PUNG = 10  # 抢叉: seat pungs the 补 tile of seat b
EV_DECLARE = 11  # 报听
EV_BAO = 12  # the bao is rolled: tile = bao tile, a = dice total, b = wall position
EV_LOOK = 13  # seat looks at the bao (tile = bao)
EV_BAO_CHANGE = 14  # 换宝: the bao kind is dead; tile = old bao
EV_WIN = 15  # seat wins; tile = tile the hand is scored with, a = HOW_*, b = discarder (-1)
EV_HUANG = 16  # 荒庄: the wall reached its end
EV_KONG_ROBBED = 17  # seat b's 加杠/补 on tile was robbed (by 胡 a=1, by 碰 a=0)
EV_NO_BAO = 18  # no tile in the wall can serve as the bao: none for the rest of the hand (a = dice)
EV_PASS = 19  # wall_end win_only_four: a win-only draw that does not win is passed (to the pond)
EV_BAO_KONG = 20  # 用宝 (bao_kong): seat takes the bao tile out of the wall for a kong; a = 0 暗杠,
#                   1 加杠, 2 补 (then b = the special kong's meld kind); a new bao is rolled next
EV_COLS = 5
EV_NAMES = (
    "draw", "tail_draw", "discard", "chow", "pung", "mingkong", "ankong", "jiagang", "special_kong",
    "bu", "rob_pung", "declare", "bao", "look", "bao_change", "win", "huang", "kong_robbed",
    "no_bao", "pass", "bao_kong",
)  # fmt: skip

# --- per-hand result vector: res[R_*]
R_WINNER = 0  # -1 on 荒庄
R_HOW = 1  # HOW_* (-1 on 荒庄)
R_TILE = 2  # tile the hand is scored with (摸宝: the wait the bao stands for)
R_PHYS = 3  # tile physically taken (摸宝: the bao-kind tile drawn)
R_DISCARDER = 4  # -1 unless won on a discard / robbed kong
R_DEALER = 5
R_NEXT_DEALER = 6
R_FAN = 7  # fan every loser pays before 庄 / 点炮 (the hand's own fan)
R_JIAHU = 8
R_PIAO = 9
R_MENQING = 10
R_PAY = 11  # 4 seats: total payout this hand (win + kongs), sums to zero
R_KONG_PAY = 15  # 4 seats: kong money part
R_WIN_FAN = 19  # 4 seats: fan each loser was charged
R_BAO_ROLLED = 23
R_DISCARDS = 24
R_KONGS = 25
R_ROBBED = 26  # robbed 加杠/补
R_JIEHU = 27  # 1 when a discard had two or more winners (截胡)
R_DECLARED = 28  # bitmask of seats that declared tenpai
R_N_EVENTS = 29
R_WALL_LEFT = 30  # tiles left in the wall at the end (the bao included)
R_DISCARDER_DECLARED = 31  # the discarder of a 点炮: 0 undeclared, 1 declared (not looked at the
#                            current bao), 2 declared and looked at it; -1 when no discarder
R_STRANDED = 32  # wall tiles held back by the bao (draws step over it), counted in R_WALL_LEFT
R_DICE_USED = 33  # dice the hand rolled (the first ones of its N_DICE)
R_ITEMS = 34  # the hand's own fan items that score (bit i: FAN_i of score.fan_items is not 0)
R_LEN = 35

# --- statistics accumulated per session: st[S_*] (all integers, merged by summing)
S_HANDS = 0
S_WINS = 1  # 4 seats
S_DEALER_WINS = 5
S_DRAWS = 6  # 荒庄
S_METHOD = 7  # 4 HOW_* (自摸, 点炮, 摸宝, 对宝)
S_JIAHU = 11
S_PIAO = 12
S_MENQING = 13
S_FAN_HIST = 14  # 16 bins: the hand's own fan (R_FAN), 15 = 15 or more
N_FAN_BINS = 16
S_PAY = 30  # 4 seats: sum of payouts
S_PAY2 = 34  # 4 seats: sum of squared payouts
S_KONG = 38  # 4 seats: sum of kong money
S_KONG_MONEY = 42  # total kong money changing hands (sum of the positive parts)
S_DEALER_PAY = 43  # payout of the dealer seat
S_DEALER_PAY2 = 44
S_BAO_ROLLED = 45  # hands where a bao was rolled
S_DISCARDS = 46
S_KONGS = 47
S_ROBBED = 48
S_JIEHU = 49
S_DECLARED = 50  # player-hands with 报听
S_DISCARDER_PAY = 51  # sum of the discarder's payout on discard wins
S_DISCARD_WINS = 52
S_DISCARDER_PAY2 = 53  # sum of its squares
S_DEALIN = 56  # 4 seats: hands where the seat discarded the winning tile (点炮, 抢杠胡 included)
S_DEALT = 60  # 4 seats: hands the seat dealt
S_SEAT_METHOD = 64  # 4 seats x 4 HOW_*: the seat's wins by method (index 4 * seat + how)
S_SEAT_DECLARED = 80  # 4 seats: hands where the seat declared (报听)
S_LEN = 84

# the bot policies: weight presets (KNOB_NAMES order; a policy file sets them by name)
POLICIES = {
    # baseline: call when it lowers shanten, kong when no worse, declare at tenpai, specials
    "baseline": (1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
    "aggressive": (2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),  # call unless it raises shanten
    "closed": (0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),  # never 吃/碰 (keeps 门清)
    "silent": (1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),  # never 报听 (so never uses the bao)
    "nokong": (1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),  # no kongs, no 补, no special kongs
    "defence": (1, 1, 1, 1, 0, 2, 2, 0, 0, 0, 1, 0, 0, 0, 0),  # folds 2+ from tenpai after a 报听
    # value: 飘, 门清 near tenpai, 夹 waits, 报听 on 2+
    "value": (1, 1, 1, 1, 2, 0, 0, 5, 1, 1, 1, 0, 0, 0, 0),
    # strong: value waits, 报听 on 2+ live copies (the best mix measured against the baseline)
    "strong": (1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0),
    # expert: value waits, the legal distance, defence by value, 报听 by value (the declared
    # line against staying open: docs/simulation.md)
    "expert": (1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1),
}
POLICY_HELP = ", ".join(POLICIES) + ", or a policy file (.yaml)"
