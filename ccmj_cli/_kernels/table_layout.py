"""Index constants of the table simulation: events, per-hand results, statistics, bot knobs, table
parameters. Layout only (which slot means what); rule values arrive as kernel arguments.
"""

# --- table parameters (simulate.py fills them from the variant): tp[TP_*]
TP_DEAD_STACKS = 0  # stacks never drawn (RULES §8: 7)
TP_BAO_DICE = 1  # dice rolled for the bao stack (1 or 2)
TP_SANFENG = 2  # 三风蛋: three different winds make a 旋风杠
TP_XIAOJI = 3  # 小鸡飞蛋: 幺鸡 (1s) stands in for one missing member of a special kong
TP_LEN = 4

# --- bot knobs, one row per seat: bots[seat, K_*]
K_CALL = 0  # 吃/碰: 0 never, 1 when it lowers shanten (baseline), 2 when it does not raise it
K_KONG = 1  # 明杠/暗杠/加杠/补: 0 never, 1 when it does not raise shanten (baseline)
K_DECLARE = 2  # 报听: 0 never, 1 as soon as tenpai after a discard (baseline)
K_SPECIAL = 3  # special kongs from the starting hand: 0 never, 1 always (baseline)
N_KNOBS = 4

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
EV_COLS = 5
EV_NAMES = (
    "draw", "tail_draw", "discard", "chow", "pung", "mingkong", "ankong", "jiagang", "special_kong",
    "bu", "rob_pung", "declare", "bao", "look", "bao_change", "win", "huang", "kong_robbed",
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
R_LEN = 32

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
S_LEN = 56

# the bot policies: knob rows (K_CALL, K_KONG, K_DECLARE, K_SPECIAL)
POLICIES = {
    "baseline": (1, 1, 1, 1),  # call when it lowers shanten, kong when no worse, declare, specials
    "aggressive": (2, 1, 1, 1),  # call whenever it does not raise shanten
    "closed": (0, 1, 1, 1),  # never 吃/碰 (keeps 门清)
    "silent": (1, 1, 0, 1),  # never 报听 (so never uses the bao)
    "nokong": (1, 0, 1, 0),  # no kongs, no 补, no special kongs
}
POLICY_HELP = ", ".join(POLICIES)
