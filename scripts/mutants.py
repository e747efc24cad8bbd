"""Mutation check: does breaking a scoring, bao or batch rule make a FAST test fail?

Each mutant below is one exact text change in one file of ccmj_cli (a rule written wrong). For
each, the script copies the package, the tests and what they read to a temporary directory,
applies the change there (this checkout is never touched), runs the fast tests of the copy —
the hand-worked ones: ``pytest -m "not hypothesis"`` over FAST_TESTS, so the slow Hypothesis
properties do not count — and prints which tests failed. A mutant no test catches is a hole in
the tests: the script exits 1 and says which.

    python scripts/mutants.py                      # every mutant (a baseline run first)
    python scripts/mutants.py --list               # the mutants, one line each
    python scripts/mutants.py --only honors_not_yaojiu dianpao_fan_zero
    python scripts/mutants.py --with-properties    # let the Hypothesis properties count too
    python scripts/mutants.py --jit                # compiled kernels (a fresh compile per mutant)

By default the copy runs its kernels as plain Python (NUMBA_DISABLE_JIT=1: the same source,
no compilation, so a mutant costs under a minute, not a recompile). ``--jit`` runs them
compiled instead, a fresh compile per mutant: every copy has its own cache folder
(CCMJ_CACHE_DIR, inside the temporary copy, removed with it), so no kernel compiled from
unmutated source can run, and nothing is left in your cache folder. The lookup tables (which
no mutant touches) are copied into it from your cache folder; they are built there first if
they are not yet. The last line says how many mutants were caught and how long the whole run
took (with the load average: other work on the machine slows it).

A mutant whose text is not found (the code moved on) is an error: update its ``old`` text.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ("ccmj_cli", "tests", "examples", "docs", "README.md", "mkdocs.yml", "rules.yaml",
        "pyproject.toml")
CACHE = ".ccmj-cache"  # the copy's cache folder (CCMJ_CACHE_DIR): its tables, its kernels
FAST_TESTS = (
    "tests/test_scoring_cases.py",
    "tests/test_scoring.py",
    "tests/test_bao.py",
    "tests/test_batch.py",
    "tests/test_rules_golden.py",
    "tests/test_presets.py",
    "tests/test_qa_regressions.py",
    "tests/test_cli.py",
    "tests/test_mil2024.py",
    "tests/test_room_options.py",
    "tests/test_held_four.py",
    "tests/test_room_rules19.py",
)
PROPERTY_TESTS = ("tests/test_scoring_properties.py",)


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # relative to the repository
    old: str
    new: str
    what: str
    tests: tuple = ()  # the tests that catch it, when not FAST_TESTS (the table's: its own file)


SCORE = "ccmj_cli/_kernels/score.py"
BAO_K = "ccmj_cli/_kernels/bao.py"
JUDGE = "ccmj_cli/_kernels/judge.py"
MELDS = "ccmj_cli/_kernels/melds.py"
BATCH = "ccmj_cli/batch.py"
TABLE = "ccmj_cli/_kernels/table/"
TABLE_TESTS = ("tests/test_table_rules19.py",)
BAO_KONG_TESTS = ("tests/test_table_baokong.py",)
DADAN_TESTS = ("tests/test_dadan_laid.py",)
EXPERT_TESTS = ("tests/test_expert.py",)
REVIEW = "ccmj_cli/review.py"
BAO_KONG_REVIEW = ("tests/test_review.py::test_a_bao_kong_is_graded",)
DECLARED_CLAIM_REVIEW = ("tests/test_review.py::test_a_declared_seats_kong_on_a_discard_is_graded",)
MUTANTS = (
    # --- the review's 用宝 and declared-seat claims: caught by their hand-worked tests
    Mutant(
        "review_bao_kong_without_money",
        REVIEW,
        "        values[_bao_kong_name(b, a)] = _plus(value, money)",
        "        values[_bao_kong_name(b, a)] = value",
        "review: a 用宝 kong's value leaves out its kong money",
        BAO_KONG_REVIEW,
    ),
    Mutant(
        "review_bao_kong_keeps_the_bao",
        REVIEW,
        '        value = valuer.values(after, vis, d, dealer, declare=True, bao="unknown")[None]',
        "        value = valuer.values(after, vis, d, dealer, declare=True, bao=tab.bao_arg(s))[None]",
        "review: after a 用宝 kong the old bao is still taken to be the bao (no new one)",
        BAO_KONG_REVIEW,
    ),
    Mutant(
        "review_declared_claims_skipped",
        REVIEW,
        "                for o in seats:\n                    if o == s:\n",
        "                for o in seats:\n                    if o == s or tab.declared[o]:\n",
        "review: a declared seat's 明杠 on a discard is never graded",
        DECLARED_CLAIM_REVIEW,
    ),
    Mutant(
        "review_declared_claim_unlocked",
        REVIEW,
        '    lock = {"declare": locked, "bao": tab.bao_arg(o) if locked else "none"}',
        '    lock = {"declare": False, "bao": "none"}',
        "review: a declared seat's claim is valued as if his hand were free (no bao)",
        DECLARED_CLAIM_REVIEW,
    ),
    # --- the four of the mutation run that found the holes (issue 15)
    Mutant(
        "batch_ignores_declared",
        BATCH,
        'state = S.discarder_state(_truth(declared, "declared"), _truth(looked, "looked"))',
        'state = S.discarder_state(False, _truth(looked, "looked"))',
        "batch reads every discarder as undeclared (the declared column is ignored)",
    ),
    Mutant(
        "honors_not_yaojiu",
        JUDGE,
        "    for t in range(HONOR, N_KINDS):\n        ends += c[t]\n",
        "    for t in range(HONOR, N_KINDS):\n        ends += 0\n",
        "concealed honors no longer count as 幺九 for C2",
    ),
    Mutant(
        "dianpao_fan_zero",
        SCORE,
        "f += rv[RV_FAN_BASE + FAN_DIANPAO]",
        "f += 0",
        "the discarder pays no extra 点炮 fan",
    ),
    Mutant(
        "covers_all_own_share_only",
        SCORE,
        "if s != discarder and mode == DIANPAO_DISCARDER_ONLY:",
        "if s != discarder:",
        "点炮全包: the discarder pays only his own share (the others' shares are dropped)",
    ),
    # --- more rules of scoring, bao and kongs
    Mutant(
        "cap_ignored",
        SCORE,
        "if cap > 0 and f > cap:",
        "if False:",
        "cap_fan (封顶) is ignored",
    ),
    Mutant(
        "dealer_fan_wrong_seat",
        SCORE,
        "return winner == dealer or s == dealer",
        "return winner == dealer or s == (dealer + 1) % N_SEATS",
        "the 庄 fan goes to the seat after the dealer",
    ),
    Mutant(
        "cover_only_undeclared_ignored",
        SCORE,
        "if not rv[RV_COVER_ONLY_UNDECLARED] or state < DISCARDER_DECLARED:",
        "if True:",
        "cover_only_undeclared: a declared discarder still covers everyone",
    ),
    Mutant(
        "duibao_not_zimo",
        SCORE,
        "    if how != HOW_DISCARD:\n        items[FAN_ZIMO]",
        "    if how != HOW_DISCARD and how != HOW_DUIBAO:\n        items[FAN_ZIMO]",
        "a 对宝 does not score 自摸",
    ),
    Mutant(
        "chongbao_on_mobao",
        SCORE,
        "if how == HOW_DUIBAO and rv[RV_CHONGBAO_DOUBLE]:",
        "if (how == HOW_DUIBAO or how == HOW_MOBAO) and rv[RV_CHONGBAO_DOUBLE]:",
        "冲宝翻倍 doubles a 摸宝 too",
    ),
    Mutant(
        "kong_bu_ignored",
        SCORE,
        "return rv[RV_KONG_BASE + KONG_SPECIAL] + bu * rv[RV_KONG_BASE + KONG_BU]",
        "return rv[RV_KONG_BASE + KONG_SPECIAL]",
        "补 tiles on a special kong are worth nothing",
    ),
    Mutant(
        "dadan_without_1p",
        SCORE,
        "return t == ONE_S or t == ONE_P or t == HAKU",
        "return t == ONE_S or t == HAKU",
        "a kong of 幺饼 is not a 大蛋",
    ),
    Mutant(
        "mobao_first_wait",
        BAO_K,
        "if f > best_fan:",
        "if best < 0:",
        "摸宝: the bao stands for the lowest legal wait, not the best",
    ),
    Mutant(
        "mobao_tie_to_highest",
        BAO_K,
        "if f > best_fan:",
        "if f >= best_fan:",
        "摸宝: a tie between waits goes to the highest tile",
    ),
    Mutant(
        "huanbao_at_four",
        BAO_K,
        "return public[bao] >= 3",
        "return public[bao] >= 4",
        "换宝 only when four copies are public",
    ),
    # (a concealed kong counted as public cannot be seen by `ccmj bao`: it holds all four
    # copies of its kind, and the bao tile itself lies in the wall)
    Mutant(
        "special_kongs_not_public",
        "ccmj_cli/bao.py",
        "| frozenset(\n    range(L.FIRST_SPECIAL, L.MELD_JIUDAN + 1)\n)",
        "| frozenset()",
        "the player's special kongs do not count as public for 换宝",
    ),
    Mutant(
        "batch_drops_kong_money",
        BATCH,
        "amount = pay + kong  # base units",
        "amount = pay  # base units",
        "batch CSV leaves the kongs column's money out of pay_*",
    ),
    Mutant(
        "batch_json_drops_kong_money",
        BATCH,
        "total = [a + b for a, b in zip(pay[i], kong_pay, strict=True)]",
        "total = list(pay[i])",
        "batch --json leaves the kong money out of total and total_amount",
    ),
    Mutant(
        "declared_ignored",
        "ccmj_cli/scoring.py",
        "return L.DISCARDER_DECLARED if declared else L.DISCARDER_UNDECLARED",
        "return L.DISCARDER_UNDECLARED",
        "score --declared (and the batch declared column) is ignored: the discarder is undeclared",
    ),
    Mutant(
        "discarder_only_covers_all",
        SCORE,
        "if s != discarder and mode == DIANPAO_DISCARDER_ONLY:",
        "if False:",
        "dianpao discarder_only: the discarder also pays the others' shares (as 点炮全包)",
    ),
    Mutant(
        "dealer_discarder_no_dealer_fan",
        SCORE,
        "        if dealer_charged(s, winner, dealer):\n",
        "        if dealer_charged(s, winner, dealer) and s != discarder:\n",
        "a discarding dealer is not charged the 庄 fan",
    ),
    # --- the room options and the MIL 2024 rules (issue 9)
    Mutant(
        "stake_ladder_ignored",
        SCORE,
        "    if n == 0:\n        return np.int64(1) << (f - 1)",
        "    if True:\n        return np.int64(1) << (f - 1)",
        "stakes: a stake ladder is ignored (every share is 2^(fan-1))",
    ),
    Mutant(
        "dealer_dianpao_stacks_ignored",
        SCORE,
        "return s != dealer or rv[RV_DEALER_DIANPAO_STACKS] != 0",
        "return True",
        "dealer_dianpao_stacks false: a discarding dealer still pays the 点炮 step",
    ),
    Mutant(
        "looked_ignored",
        "ccmj_cli/scoring.py",
        "    if looked:\n        return L.DISCARDER_LOOKED",
        "    if False:\n        return L.DISCARDER_LOOKED",
        "score --looked (and the batch looked column) is ignored: a looked discarder is declared",
    ),
    Mutant(
        "batch_ignores_looked",
        BATCH,
        'state = S.discarder_state(_truth(declared, "declared"), _truth(looked, "looked"))',
        'state = S.discarder_state(_truth(declared, "declared"), False)',
        "batch ignores the looked column",
    ),
    Mutant(
        "cover_needs_look_ignored",
        SCORE,
        "return rv[RV_COVER_NEEDS_LOOK] != 0 and state < DISCARDER_LOOKED",
        "return False",
        "cover_needs_look: a declared discarder who had not looked is exempt from 包庄 anyway",
    ),
    Mutant(
        "haohua_rule_ignored",
        JUDGE,
        "if rv[RV_HAOHUA] == HAOHUA_WAIT_COMPLETES_QUAD:",
        "if False:",
        "haohua wait_completes_quad: a four held before the win still makes 豪华七对",
    ),
    Mutant(
        "may_declare_ignored",
        JUDGE,
        "return rv[RV_DUANYAOJIU_MAY_DECLARE] != 0 or _holds_yaojiu(own)",
        "return True",
        "duanyaojiu_may_declare false: a 断幺九 hand still declares (and looks at the bao)",
    ),
    Mutant(
        "sanfeng_four_winds_no_bu",
        MELDS,
        "base = special_base(kind, sanfeng)",
        "base = special_base(kind, sanfeng and present < 4)",
        "三风蛋: a 4-wind 旋风杠 [1234z] has no 补 (pays 1, not 3 winds + 1 补 = 2)",
    ),
    Mutant(
        "bao_change_ignored",
        BAO_K,
        "return CHANGE_MAY if rv[RV_BAO_CHANGE] else CHANGE_MUST",
        "return CHANGE_MUST",
        "bao_change optional: 换宝 is still forced (the bao is never kept)",
    ),
    Mutant(
        "no_mobao_ignored",
        BAO_K,
        "    if live <= 0:\n        return BAO_NO_MOBAO",
        "    if False:\n        return BAO_NO_MOBAO",
        "bao: 摸宝 is reported possible with no copy of the bao kind left to draw",
    ),
    Mutant(
        "xiaoji_wildcard_ignored",
        "ccmj_cli/rules.py",
        'return L.XIAOJI_ONE if o["xiaoji_wildcard"] == "one" else L.XIAOJI_ANY',
        "return L.XIAOJI_ONE",
        "xiaoji_wildcard any: 1s still stands in for one member only, never in a 幺蛋",
    ),
    Mutant(
        "xi_bu_any_honor_ignored",
        MELDS,
        "        if not xi_any:\n",
        "        if True:\n",
        "xi_bu_any_honor: a wind is still refused as a 补 tile of a 喜杠",
    ),
    Mutant(
        "one_special_kong_per_kind_ignored",
        "ccmj_cli/tiles.py",
        "    if rules.one_per_kind:\n",
        "    if False:\n",
        "one_special_kong_per_kind: a hand may hold two special kongs of one kind",
    ),
    Mutant(
        "shoubayi_ankong_ignored",
        JUDGE,
        "    if rv[RV_SHOUBAYI_ANKONG_CONCEALED]:\n        return ms[MS_SETS] - ms[MS_ANKONGS]",
        "    if False:\n        return ms[MS_SETS] - ms[MS_ANKONGS]",
        "shoubayi_ankong_concealed: a concealed kong still counts as a declared set for 手把一",
    ),
    # --- issue 19: the 幺蛋/九蛋 三色全 bug and the room rules of a second implementation
    Mutant(
        "dan_suits_physical_only",
        MELDS,
        "    if kind == MELD_YAODAN or kind == MELD_JIUDAN:\n        ms[MS_SUITS] |= 7\n",
        "",
        "三色全: a 幺蛋/九蛋 supplies only its physical tiles' suits (the bug of issue 19)",
    ),
    Mutant(
        "open_kong_always_breaks_menqing",
        JUDGE,
        "    if not rv[RV_OPEN_KONG_BREAKS_MENQING]:\n        claimed -= ms[MS_OPEN_KONGS]",
        "    if False:\n        claimed -= ms[MS_OPEN_KONGS]",
        "open_kong_breaks_menqing false: an open kong still breaks 门清",
    ),
    Mutant(
        "piaoding_never_scored",
        SCORE,
        "    if rd[RD_PIAODING]:",
        "    if False:",
        "fan.piaoding: a 手把一 飘胡 scores no 飘顶",
    ),
    Mutant(
        "piaoding_without_shoubayi",
        JUDGE,
        "out[RD_PIAODING] = 1 if out[RD_PIAO] and declared_sets(ms, rv) == 4 else 0",
        "out[RD_PIAODING] = 1 if out[RD_PIAO] else 0",
        "飘顶 scored on every 飘胡, not only a 手把一 hand's",
    ),
    Mutant(
        "xiaoji_always_suit_tile",
        JUDGE,
        "    if suits & SUIT_XIAOJI and rv[RV_XIAOJI_IS_SUIT_TILE]:",
        "    if suits & SUIT_XIAOJI:",
        "xiaoji_is_suit_tile false: a 1s in a 旋风杠/喜杠 is still a 条",
    ),
    Mutant(
        "shape_duanyaojiu_no_duanyaojiu_jia",
        JUDGE,
        "        single = not content_bits(c, ms, rv)[1]",
        "        single = False",
        "jiahu shape_duanyaojiu: a 断幺九 hand's win on its 幺九 tile is not 夹",
    ),
    Mutant(
        "shape_duanyaojiu_counts_single_wait",
        JUDGE,
        "    return rv[RV_JIAHU] == JIAHU_ANY or rv[RV_JIAHU] == JIAHU_SINGLE_WAIT",
        "    return rv[RV_JIAHU] != JIAHU_SHAPE",
        "jiahu shape_duanyaojiu: 独听 alone counts as 夹 in the waits",
    ),
    Mutant(
        "sanyaoji_kind_wrong",
        MELDS,
        "    kind = MELD_YAODAN if n == 3 else _special_kind(cnt, False)",
        "    kind = MELD_XI if n == 3 else _special_kind(cnt, False)",
        "三幺鸡: [*111s] is read as a 喜杠 (it supplies no 万 or 饼)",
    ),
    # --- the table options of the second implementation's rooms (run on their own tests)
    Mutant(
        "no_dead_wall_grows_with_kongs",
        TABLE + "wall.py",
        "if rv[RV_WALL_END] == WALL_WIN_ONLY_FOUR or tp[TP_DEAD_STACKS] == 0:",
        "if rv[RV_WALL_END] == WALL_WIN_ONLY_FOUR:",
        "dead_wall_stacks 0: kongs still keep stacks back (+1 per kong after two)",
        TABLE_TESTS,
    ),
    Mutant(
        "no_dead_wall_keeps_loose_tile",
        TABLE + "wall.py",
        "    if n == 0:\n        return g[G_TAIL] + 1",
        "    if False:\n        return g[G_TAIL] + 1",
        "dead_wall_stacks 0: a loose tile at the tail is never drawn",
        TABLE_TESTS,
    ),
    Mutant(
        "first_draw_enters_claimed_turn",
        TABLE + "claims.py",
        "if rv[RV_SPECIAL_KONG_TIMING] == SPECIAL_FIRST_TURN and ps[s, P_FIRST] != 0:",
        "if rv[RV_SPECIAL_KONG_TIMING] >= SPECIAL_FIRST_TURN and ps[s, P_FIRST] != 0:",
        "special_kong_timing first_draw: a claim before the first draw still lays out",
        TABLE_TESTS,
    ),
    Mutant(
        "first_draw_dealt_tiles_only",
        TABLE + "kongs.py",
        "    if rv[RV_SPECIAL_KONG_TIMING] == SPECIAL_DEALT:",
        "    if rv[RV_SPECIAL_KONG_TIMING] != SPECIAL_FIRST_TURN:",
        "special_kong_timing first_draw: the first drawn tile does not count",
        TABLE_TESTS,
    ),
    Mutant(
        "mobao_must_win_ignored",
        TABLE + "bao.py",
        "return rv[RV_MOBAO_MUST_WIN] != 0 and mobao_wait(rv, tb, tab, ws) >= 0",
        "return False",
        "mobao_must_win: a record may pass a drawn bao that wins",
        TABLE_TESTS,
    ),
    Mutant(
        "piaoding_only_ignored",
        TABLE + "state.py",
        "if not rv[RV_SHOUBAYI_PIAODING_ONLY] or declared_sets(ms_after, rv) != 4:",
        "if True:",
        "shoubayi_piaoding_only: a 碰 into 手把一 needs no 飘顶 tenpai",
        TABLE_TESTS,
    ),
    Mutant(
        "bao_tile_counts_stacks",
        TABLE + "bao.py",
        "pos = g[G_TAIL] - (k - 1 + j) % n",
        "pos = g[G_TAIL] - 2 * ((k - 1 + j) % n)",
        "bao_place tile: the dice count stacks, not single tiles",
        TABLE_TESTS,
    ),
    Mutant(
        "csv_items_first_six_only",
        TABLE + "settle.py",
        "        if items[i] != 0:\n            mask |= 1 << i",
        "        if items[i] != 0 and i < 6:\n            mask |= 1 << i",
        "simulate --csv items: 七对, 豪华, 冲宝, 飘顶 are not listed",
        TABLE_TESTS,
    ),
    Mutant(
        "declared_kong_pattern_ignored",
        TABLE + "bots.py",
        "    if rv[RV_DECLARED_KONG_KEEPS_PATTERN]:\n        same = same and jb == ja and pb == pa\n    return same\n\n\n@njit(cache=True)\ndef mingkong",
        "    if False:\n        same = same and jb == ja and pb == pa\n    return same\n\n\n@njit(cache=True)\ndef mingkong",
        "declared_kong_keeps_pattern: a declared 暗杠 may change a wait's 夹胡/飘胡",
        TABLE_TESTS,
    ),
    Mutant(
        "sanyaoji_never_laid",
        TABLE + "kongs.py",
        "n, bu = sanyaoji_tiles(conc, taken, cur, rv, grp, c2)  # no natural 幺蛋",
        "n, bu = 0, 0  # no natural 幺蛋",
        "sanyaoji: the simulate bots never lay three 1s out as a 三幺鸡",
        TABLE_TESTS,
    ),
    Mutant(
        "sanyaoji_record_ignored",
        TABLE + "kongs.py",
        "san = rv[RV_SANYAOJI] != 0 and rec_tile(ev, g) == ONE_S",
        "san = False",
        "sanyaoji: the referee replays a recorded 三幺鸡 as a plain 幺蛋 (and refuses it)",
        TABLE_TESTS,
    ),
    Mutant(
        "sanyaoji_not_offered",
        TABLE + "actions.py",
        "        if kind == MELD_YAODAN and not san:\n",
        "        if False:\n",
        "sanyaoji: ccmj actions never offers the 三幺鸡 [*111s]",
        TABLE_TESTS,
    ),
    Mutant(
        "bao_takes_the_last_draw",
        TABLE + "bao.py",
        "    pos = find_bao(wall, g, pond, exposed, d, rv, last_draw(g, tp, rv))",
        "    pos = find_bao(wall, g, pond, exposed, d, rv)",
        "a roll may put the bao on the one tile the wall has left to draw",
        TABLE_TESTS,
    ),
    # --- dadan_laid (a 大蛋 laid from the deal as three): caught by its own test file
    Mutant(
        "dadan_laid_any_pung",
        "ccmj_cli/tiles.py",
        "if len(ts) == 3 and len(set(ts)) == 1 and ts[0] in DADAN:",
        "if len(ts) == 3 and len(set(ts)) == 1:",
        "dadan_laid: three of any tile in round brackets are read as a laid 大蛋",
        DADAN_TESTS,
    ),
    Mutant(
        "dadan_laid_face_down",
        MELDS,
        "    elif kind == MELD_ANKONG and n == 4:",
        "    elif kind == MELD_ANKONG:",
        "dadan_laid: a 大蛋 laid as three counts as concealed tiles (shoubayi_ankong_concealed)",
        DADAN_TESTS,
    ),
    Mutant(
        "dadan_laid_never_at_the_table",
        TABLE + "kongs.py",
        "    return rv[RV_DADAN_LAID] != 0 and is_dadan_tile(t)"
        " and usable(conc, taken, s, t, rv) >= 3",
        "    return False",
        "dadan_laid: the simulate bots never lay a 大蛋 of three",
        DADAN_TESTS,
    ),
    Mutant(
        "dadan_laid_fourth_not_bu",
        TABLE + "state.py",
        "    if (ps[s, P_LAID_DADAN] >> t) & 1:\n        return MELD_ANKONG\n",
        "",
        "dadan_laid: the fourth copy of a laid 大蛋 cannot be added (补)",
        DADAN_TESTS,
    ),
    Mutant(
        "dadan_laid_fourth_paid",
        TABLE + "kongs.py",
        "        ps[cur, P_LAID_DADAN] &= ~(np.int64(1) << kt)  # (now a 大蛋 of four: no more 补)",
        "        ps[cur, P_LAID_DADAN] &= ~(np.int64(1) << kt)\n"
        "        pay_kong(kpay, cur, MELD_ANKONG, kt, 0, rv)",
        "dadan_laid: the fourth copy of a laid 大蛋 is paid again",
        DADAN_TESTS,
    ),
    # --- bao_kong (用宝补蛋或开杠): caught by its own test file
    Mutant(
        "bao_kong_never",
        TABLE + "bots.py",
        "    if not rv[RV_BAO_KONG] or b < 0 or not ps[s, P_DECLARED]:",
        "    if True:",
        "bao_kong: the bao tile is never taken for a kong",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_changes_waits",
        TABLE + "bots.py",
        "    conc[s, b] -= 1\n    return code",
        "    conc[s, b] -= 1\n    return C.OK if code == C.LOCKED_HAND else code",
        "bao_kong: a 用宝 暗杠 may change a locked hand's waits",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_no_new_bao",
        TABLE + "kongs.py",
        "        if look_at_draw(wall, dice, rv, tb, tp, ev, res, tab, ws, bots):\n"
        "            return BAO_KONG_WON",
        "        if False:\n            return BAO_KONG_WON",
        "bao_kong: no new bao is rolled (nor looked at) after a 用宝 kong",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_hole_drawn",
        TABLE + "wall.py",
        "        if g[G_HOLE + i] == pos:\n            return True",
        "        if False:\n            return True",
        "bao_kong: the emptied place of the bao is drawn and counted as left",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_record_ignored",
        TABLE + "bots.py",
        "        if not next_is(bots, g, EV_BAO_KONG, s):\n            return -1",
        "        if True:\n            return -1",
        "bao_kong: the referee never replays a recorded 用宝 kong",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_dead_bao_changed",
        TABLE + "bao.py",
        "        if wants_bao_kong(tab, ws, cur, bots, rv, tb, tp) >= 0:\n",
        "        if False:\n",
        "bao_kong: a bot asks for 换宝 of a dead bao it could take for a 加杠",
        BAO_KONG_TESTS,
    ),
    Mutant(
        "bao_kong_not_offered",
        TABLE + "actions.py",
        "    if rv[RV_BAO_KONG] and b >= 0 and looks:",
        "    if False:",
        "bao_kong: ccmj actions never offers the 用宝 kong",
        BAO_KONG_TESTS,
    ),
    # --- the expert's legal weight: caught by its own test file
    Mutant(
        "expert_discards_by_shanten",
        TABLE + "bots.py",
        "    if bots[s, K_LEGAL]:  # (sh: the legal shanten then)",
        "    if False:  # (sh: the legal shanten then)",
        "legal: the expert discards by standard shanten like the baseline",
        EXPERT_TESTS,
    ),
    Mutant(
        "expert_pungs_by_shanten",
        TABLE + "bots.py",
        "    if bots[s, K_LEGAL]:\n        ok, _dist, _v = legal_call(",
        "    if False:\n        ok, _dist, _v = legal_call(",
        "legal: the expert pungs by standard shanten like the baseline",
        EXPERT_TESTS,
    ),
)


_TABLES = """
from ccmj_cli._kernels.cache import TABLE_VERSION, _roots
from ccmj_cli._kernels.tables import tables
tables()  # built and saved in the cache folder if they are not yet
for root in _roots():
    folder = root / f"tables-v{TABLE_VERSION}"
    if (folder / "manifest.json").is_file():
        print(folder)
        break
"""


def tables_folder() -> Path:
    """The lookup tables' folder in the cache folder ($CCMJ_CACHE_DIR ...), built first if
    need be (by this checkout, unmutated, compiled: seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", _TABLES], cwd=ROOT, env=env, capture_output=True, text=True
    )
    lines = out.stdout.split()
    if out.returncode != 0 or not lines:
        raise SystemExit(f"cannot find or build the lookup tables:\n{out.stderr}")
    return Path(lines[-1])


def copy_tree(dst: Path, tables: Path):
    """The package, the tests and what they read, into ``dst``; the lookup tables into the
    copy's own cache folder ``dst/.ccmj-cache``."""
    skip = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.nbi", "*.nbc")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=skip)
        else:
            shutil.copy2(src, dst / name)
    shutil.copytree(tables, dst / CACHE / tables.name)


def apply(m: Mutant, root: Path):
    path = root / m.path
    text = path.read_text(encoding="utf-8")
    n = text.count(m.old)
    if n != 1:
        raise SystemExit(f"mutant {m.name}: its text is found {n} times in {m.path}, not once")
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")


def run_tests(root: Path, files, jit: bool, with_properties: bool):
    """(failed test ids, pytest's exit code, seconds) of the fast tests in the copy at ``root``."""
    env = dict(os.environ)
    env.pop("CCMJ_JIT", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    env["PYTHONPATH"] = str(root)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["CCMJ_CACHE_DIR"] = str(root / CACHE)  # compiled kernels (--jit) go there too
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    cmd = [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", *files]
    if not with_properties:
        cmd[4:4] = ["-m", "not hypothesis"]
    where = subprocess.run(
        [sys.executable, "-c", "import ccmj_cli; print(ccmj_cli.__file__)"],
        cwd=root, env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not where.startswith(str(root)):
        raise SystemExit(f"the copy imports ccmj_cli from {where}, not from {root}")
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", p.stdout, re.M)
    return failed, p.returncode, time.perf_counter() - t0, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run these mutants only")
    ap.add_argument("--jit", action="store_true", help="compiled kernels (slow: compiles)")
    ap.add_argument("--with-properties", action="store_true", help="count Hypothesis tests too")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    ap.add_argument("--show", type=int, default=5, metavar="N", help="failed tests listed (5)")
    args = ap.parse_args()
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:32} {m.path:30} {m.what}")
        return 0
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    unknown = set(args.only or ()) - {m.name for m in MUTANTS}
    if unknown:
        raise SystemExit(f"unknown mutant(s): {', '.join(sorted(unknown))} (see --list)")
    files = list(FAST_TESTS) + (list(PROPERTY_TESTS) if args.with_properties else [])
    mode = "compiled" if args.jit else "interpreted (NUMBA_DISABLE_JIT=1)"
    print(f"tests: {' '.join(files)}; kernels {mode}", flush=True)
    missed = []
    t_start = time.perf_counter()
    runs = ([None] if not args.no_baseline else []) + chosen
    tables = tables_folder()
    for m in runs:
        with tempfile.TemporaryDirectory(prefix="ccmj-mutant-") as tmp:
            root = Path(tmp)
            copy_tree(root, tables)
            if m is not None:
                apply(m, root)
            mine = files if m is None else (list(m.tests) or files)
            if m is None:  # the baseline runs every test a chosen mutant runs
                mine = files + sorted({t for c in chosen for t in c.tests} - set(files))
            failed, code, secs, out = run_tests(root, mine, args.jit, args.with_properties)
        label = "baseline (no mutant)" if m is None else m.name
        if m is None:
            if code != 0:
                print(out)
                raise SystemExit("the unmutated copy fails its tests: fix that first")
            print(f"{label:32} all pass ({secs:.0f} s)", flush=True)
            continue
        if code not in (0, 1):  # 2+: interrupted, collection error, usage error
            print(out)
            raise SystemExit(f"mutant {m.name}: pytest exited {code} (the mutant broke the run?)")
        if failed:
            print(f"{label:32} caught by {len(failed)} test(s) ({secs:.0f} s): {m.what}")
            for t in failed[: args.show]:
                print(f"    {t}")
            if len(failed) > args.show:
                print(f"    ... and {len(failed) - args.show} more")
        else:
            missed.append(m.name)
            print(f"{label:32} NOT CAUGHT ({secs:.0f} s): {m.what}")
        sys.stdout.flush()
    took = _duration(time.perf_counter() - t_start)
    if missed:
        print(f"\n{len(missed)} mutant(s) no test caught: {', '.join(missed)} ({took})")
        return 1
    print(f"\nevery mutant ({len(chosen)}) was caught ({took}, {len(runs)} runs)")
    return 0


def _duration(secs: float) -> str:
    m, s = divmod(round(secs), 60)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"took {m} min {s:02d} s, load average {load:.1f}"


if __name__ == "__main__":
    sys.exit(main())
