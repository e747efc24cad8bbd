"""Index constants shared by the kernels and the Python layer.

These are layout, not rules: which slot of an array means what. Numba freezes them as
constants, which is what we want. Rule *values* always arrive as kernel arguments.
"""

# --- tiles: 0-8 = 1-9m, 9-17 = 1-9p, 18-26 = 1-9s, 27-33 = 1z-7z (东南西北白发中)
N_KINDS = 34
MAN, PIN, SOU, HONOR = 0, 9, 18, 27
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
HAKU, HATSU, CHUN = 31, 32, 33  # 白 5z, 发 6z, 中 7z
ONE_S, ONE_P, ONE_M = 18, 9, 0  # 幺鸡, 幺饼, 幺万

# --- declared melds (one row per meld: kind, first tile, tile count)
MELD_CHOW = 0  # exposed chow [123m]
MELD_PUNG = 1  # exposed pung [555s]
MELD_KONG = 2  # open kong [5555s]
MELD_ANKONG = 3  # concealed kong (5555s)
MELD_XUANFENG = 4  # 旋风杠 [1234z] (+补 winds)
MELD_XI = 5  # 喜杠 [567z] (+补 dragons)
MELD_YAODAN = 6  # 幺蛋 [1m1p1s] (+补)
MELD_JIUDAN = 7  # 九蛋 [9m9p9s] (+补)
FIRST_SPECIAL = MELD_XUANFENG

# --- meld summary vector (what the judgment needs to know about the declared sets)
MS_SETS = 0  # number of declared sets
MS_SUITS = 1  # bitmask of suits the melds supply: 1 m, 2 p, 4 s (a 幺蛋/九蛋 all three), and
# SUIT_XIAOJI: a 1s in a 旋风杠/喜杠 (a 条 only under xiaoji_is_suit_tile: judge.meld_suits)
MS_YAOJIU = 2  # 1 if any meld tile is a terminal or honor
MS_CHOWS = 3  # exposed chows
MS_PUNGS = 4  # pungs and kongs (open or concealed), not special kongs
MS_SPECIALS = 5  # special kongs
MS_CLAIMED = 6  # claimed melds (chow, pung, open kong): these break 门清
MS_ANKONGS = 7  # concealed kongs (also counted in MS_SETS and MS_PUNGS)
MS_OPEN_KONGS = 8  # open kongs (in MS_CLAIMED too); under open_kong_breaks_menqing false: 门清
MS_LEN = 9
SUIT_XIAOJI = 8  # MS_SUITS bit: a 幺鸡 standing in for (or 补 on) a 旋风杠/喜杠

# --- rule vector (rules.py fills it from the variant)
RV_JIAHU = 0  # 0 any, 1 single_wait, 2 shape, 3 shape_duanyaojiu
RV_PIAO_STACKS_WITH_JIA = 1
RV_SPECIAL_KONG_IS_PUNG = 2
RV_SPECIAL_KONG_BREAKS_MENQING = 3
RV_QUEMEN = 4  # a suit may be missing
RV_PIAO_EXEMPT = 5  # 大胡缺: 飘胡 exempt from 三色 and 幺九
RV_QIDUI = 6  # seven pairs as an extra winning form
RV_BAO_FORBIDDEN_WITHOUT_YAOJIU = 7
RV_DRAGON_PAIR_IS_PUNG = 8
RV_DIANPAO = 9  # 0 all_pay, 1 discarder_only, 2 discarder_covers_all
RV_CAP_FAN = 10  # 0 = no cap
RV_CHONGBAO_DOUBLE = 11  # 冲宝翻倍: 对宝 counts one extra fan
RV_FAN_BASE = 12  # fan values, in FAN_* order
RV_KONG_BASE = 24  # kong money values, in KONG_* order (24-29)
RV_COVER_ONLY_UNDECLARED = 30  # 包庄 only when the discarder had not declared tenpai
RV_QIDUI_JIAHU = 31  # a 七对 win is a 单调 for 夹胡
RV_HAOHUA = 32  # 0 any_quad, 1 wait_completes_quad (豪华七对 only when the win makes the four)
RV_SHOUBAYI_ANKONG_CONCEALED = 33  # a concealed kong counts as concealed tiles for 手把一 (C4)
RV_DUANYAOJIU_MAY_DECLARE = 34  # a hand with no 幺九 may declare (报听); 0: it may not at all
RV_COVER_NEEDS_LOOK = 35  # 包庄 exempts a declared discarder only if he had looked at the bao
RV_DEALER_DIANPAO_STACKS = 36  # a discarding dealer pays the 点炮 step on top of his 庄 step
RV_BAO_CHANGE = 37  # 换宝: 0 always, 1 optional (the declared player's choice)
RV_SANFENG = 38  # 三风蛋: three different winds make a 旋风杠
RV_XIAOJI = 39  # 幺鸡 (1s) as a special-kong member: 0 off, 1 one (小鸡飞蛋), 2 any (wildcard)
RV_XI_BU_ANY_HONOR = 40  # a 喜杠 takes any honor (winds too) as 补 tiles
RV_ONE_SPECIAL_PER_KIND = 41  # at most one special kong of each kind per player
RV_SPECIAL_KONG_TIMING = 42  # special kongs laid out: 0 from the dealt tiles, 1 first discard turn,
# 2 first turn begun by a draw (table/layout.SPECIAL_*)
RV_STAKES_LEN = 43  # 0: pay base x 2^(fan - 1); n: pay the stake ladder's amount for fan 1..n
RV_STAKES_BASE = 44  # the ladder: amounts for 1, 2, ... fan (RV_STAKES_BASE + fan - 1)
MAX_STAKES = 32  # longest stake ladder
# table rules (read by the table simulation only)
RV_BAO_PLACE = RV_STAKES_BASE + MAX_STAKES  # 0 any_stack, 1 top_six, 2 tile (table/bao.find_bao)
RV_WALL_END = RV_BAO_PLACE + 1  # 0 reserve (7 stacks, +1 per kong after two), 1 win_only_four
RV_GUOSHUI = RV_WALL_END + 1  # 过水: a passed discard win bars wins of equal or lower fan
RV_SHOUBAYI_NO_CLAIM = RV_GUOSHUI + 1  # no 吃/碰/明杠 may leave a chow hand on one concealed tile
# a discarder who declares 报听 with the very tile won on counts as declared for 包庄 (0: not)
RV_DEALIN_DECLARATION_COUNTS = RV_SHOUBAYI_NO_CLAIM + 1
# hand rules added after the table block
RV_OPEN_KONG_BREAKS_MENQING = RV_DEALIN_DECLARATION_COUNTS + 1  # an open kong breaks 门清
RV_XIAOJI_IS_SUIT_TILE = RV_OPEN_KONG_BREAKS_MENQING + 1  # a 1s in a 旋风杠/喜杠 is a 条 for 三色全
RV_SANYAOJI = RV_XIAOJI_IS_SUIT_TILE + 1  # 三幺鸡: [*111s] is a special kong (幺蛋 of three 1s)
# table rules added after the hand rules (read by the table engine only)
RV_MOBAO_MUST_WIN = RV_SANYAOJI + 1  # a drawn bao that wins must be won on (摸宝 not passed)
RV_DECLARED_KONG_KEEPS_PATTERN = RV_MOBAO_MUST_WIN + 1  # after 报听 a kong keeps 夹/飘 of every wait
RV_SHOUBAYI_PIAODING_ONLY = RV_DECLARED_KONG_KEEPS_PATTERN + 1  # 碰 into 手把一 only into a 飘顶 tenpai
RV_BAO_KONG = RV_SHOUBAYI_PIAODING_ONLY + 1  # 用宝补蛋或开杠: the bao tile may be taken for a kong
# a 大蛋 laid from the deal as three tiles, (777z), no replacement draw (the 4th completes it)
RV_DADAN_LAID = RV_BAO_KONG + 1
RV_LEN = RV_DADAN_LAID + 1

# fan items (index into the fan values, and the order they are reported in)
FAN_WIN = 0  # 平胡
FAN_MENQING = 1  # 门清
FAN_JIAHU = 2  # 夹胡
FAN_PIAO = 3  # 飘胡
FAN_ZIMO = 4  # 自摸
FAN_BAO = 5  # 宝 (摸宝 / 对宝)
FAN_DEALER = 6  # 庄
FAN_DIANPAO = 7  # 点炮 (this loser discarded)
FAN_QIDUI = 8  # 七对
FAN_HAOHUA = 9  # 豪华七对 (on top of 七对)
FAN_CHONGBAO = 10  # 冲宝 (对宝 doubled)
FAN_PIAODING = 11  # 飘顶: a 手把一 (four declared sets + one tile) that wins 飘胡, on top of 飘
N_FAN = 12  # (RV_FAN_BASE has room for 12: the kong values start at 24)

# kong money items
KONG_MING = 0  # 明杠
KONG_AN = 1  # 暗杠
KONG_SPECIAL = 2  # 旋风杠 / 喜杠 / 幺蛋 / 九蛋
KONG_BU = 3  # each 补 tile on a special kong
KONG_DADAN_OPEN = 4  # 大蛋, open
KONG_DADAN_CONCEALED = 5  # 大蛋, concealed
N_KONG = 6

# --- failed legality conditions (bit flags, reported as stable codes)
FAIL_INCOMPLETE = 1
FAIL_MISSING_SUIT = 2
FAIL_NO_YAOJIU = 4
FAIL_NO_PUNG = 8
FAIL_SINGLE_TILE_NOT_PIAO = 16

# --- set kinds inside a reading of the concealed part
SET_CHOW = 0
SET_PUNG = 1

# --- reading output vector (judge.read_win fills it)
RD_LEGAL = 0
RD_FAILS = 1
RD_MENQING = 2
RD_JIAHU = 3
RD_PIAO = 4
RD_QIDUI = 5
RD_PAIR = 6  # pair tile (-1 for 七对 / incomplete)
RD_NSETS = 7  # sets in the concealed part
RD_SETS = 8  # then RD_NSETS pairs of (kind, first tile)
RD_VALUE = 16  # fan the reading is worth (piao/jiahu/qidui), to pick the best
RD_HAOHUA = 17  # the 七对 is 豪华 (by the variant's `haohua` rule)
RD_PIAODING = 18  # 飘顶: a 飘胡 by a 手把一 hand (four declared sets, judge.declared_sets)
RD_LEN = 19

# --- special kong kinds a bracket may form (melds.classify_bracket), xiaoji modes
XIAOJI_OFF = 0
XIAOJI_ONE = 1  # 小鸡飞蛋: one 幺鸡 stands in for one missing member (not of 幺蛋)
XIAOJI_ANY = 2  # 幺鸡 stands in for any member, any number of times, or is a 补 tile

# --- discarder states for 包庄 (score.settle_declared)
DISCARDER_UNDECLARED = 0
DISCARDER_DECLARED = 1  # declared tenpai (报听), has not looked at the current bao
DISCARDER_LOOKED = 2  # declared and looked at the current bao

# --- how a hand was won
HOW_SELF = 0  # 自摸
HOW_DISCARD = 1  # 点炮 (won on another player's discard)
HOW_MOBAO = 2  # 摸宝: drew the bao kind after looking
HOW_DUIBAO = 3  # 对宝: the bao seen at the look is a legal wait
N_SEATS = 4  # seats 0-3 = E S W N, counter-clockwise turn order; the dealer sits E in `score`
