"""Why an action is not allowed now, or why a recorded event is illegal: stable rule codes.

The referee reports the first illegal event of a hand with one of these codes, and
``ccmj actions --explain`` gives each forbidden action the code of the rule that forbids it, so
both speak one list. A kernel returns the integer; ``CODE_NAMES[code]`` is the stable name that
JSON output carries. Add new codes at the end: the numbers are part of the record format.
"""

OK = 0
NOT_YOUR_TURN = 1  # the seat cannot act now (another seat's turn, or a claim is pending)
TILE_NOT_HELD = 2  # the tiles the action uses are not in the seat's concealed hand
NOT_WALL_TILE = 3  # a draw that is not the wall's next tile (head, or tail for a replacement)
WALL_ENDED = 4  # an event after 荒庄 or after the hand was won
WALL_END_WIN_ONLY = 5  # a draw at the wall's end that may only be won with (wall_end option)
CLAIM_PRIORITY = 6  # a claim that a higher claim (胡 > 碰/杠 > 吃, 截胡 order) takes first
NO_SUCH_MELD = 7  # the meld cannot be made from these tiles (wrong shape, wrong discarder)
CHOW_NOT_FROM_LEFT = 8  # 吃 only from the seat before
SHOUBAYI_NO_CLAIM = 9  # a claim that leaves one tile in hand (手把一) where the rules forbid it
GUOSHUI = 10  # 过水: a win passed on this tile until the seat's next draw
LOCKED_HAND = 11  # after 报听 the hand is locked: no meld or discard that changes it
NOT_TENPAI = 12  # 报听 with a hand that has no legal wait after the discard
DUANYAOJIU_NO_DECLARE = 13  # a 断幺九 hand may not declare
SPECIAL_KONG_TIMING = 14  # a special kong outside the turns the timing option allows
SPECIAL_KONG_REPEAT = 15  # a second special kong of one kind
NO_SUCH_KONG = 16  # a kong or 补 that the hand and melds do not allow
LOOK_WITHOUT_DECLARE = 17  # a look at the bao by a seat that has not declared (or may not look)
WRONG_BAO = 18  # a bao tile, dice or stack that is not the roll the rules give
BAO_CHANGE_NOT_ALLOWED = 19  # 换宝 where the bao is not dead or the option does not allow it
WIN_NOT_LEGAL = 20  # a win with a hand that is not a legal Changchun win
NO_WIN_CHANCE = 21  # a win on a tile the seat was not offered (not its draw or the discard)
WRONG_SETTLEMENT = 22  # payments or kong money that differ from the recomputed settlement
BAD_EVENT = 23  # an event the record format cannot hold here (unknown kind, wrong seat)
MUST_DISCARD = 24  # a seat with 14 tiles must discard (or kong / win) before anything else
NOT_DRAWN = 25  # a draw out of order: the seat to draw is another one
MISSED_DRAW = 26  # the record skips a draw the table owes (a replacement after a kong)
MOBAO_MUST_WIN = 27  # mobao_must_win: a drawn bao that wins is passed (discarded, or konged)
BAO_KONG_NOT_ALLOWED = 28  # a 用宝 kong where the room has no bao_kong, or nothing of the bao to kong

CODE_NAMES = (
    "ok",
    "not_your_turn",
    "tile_not_held",
    "not_wall_tile",
    "wall_ended",
    "wall_end_win_only",
    "claim_priority",
    "no_such_meld",
    "chow_not_from_left",
    "shoubayi_no_claim",
    "guoshui",
    "locked_hand",
    "not_tenpai",
    "duanyaojiu_no_declare",
    "special_kong_timing",
    "special_kong_repeat",
    "no_such_kong",
    "look_without_declare",
    "wrong_bao",
    "bao_change_not_allowed",
    "win_not_legal",
    "no_win_chance",
    "wrong_settlement",
    "bad_event",
    "must_discard",
    "not_drawn",
    "missed_draw",
    "mobao_must_win",
    "bao_kong_not_allowed",
)
