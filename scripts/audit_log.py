"""Audit ``ccmj simulate --log`` files: replay every hand event by event, apart from the table
engine, and judge every win and every passed win chance through ``ccmj check`` / ``ccmj score``.

    python scripts/audit_log.py m.jsonl [more.jsonl ...] [--rules mil2024] [--show 20]

Each hand is rebuilt from its wall and dealer (the deal: 13 tiles each counter-clockwise from
the dealer, then his 14th) and its events, in plain Python; the engine's state is never read.
A departure is reported (and the exit code is 1) when

- a seat's concealed count is not 13 - 3 * sets (+1 between a draw or claim and his discard),
  whatever its melds; a replacement draw follows anything but a kong, a 补 or a special kong of
  more than three tiles (docs/rules.md §2);
- a 补 is made by the dealer in his first turn, or in a first turn entered by a claim (a special
  kong laid out then holds its base only: §7, §8);
- the bao is rolled or looked at with no draw following (§6: the look is at a draw; after a
  用宝 kong, bao_kong, the draw is its replacement from the tail);
- a 用宝 kong where the rules have none, or of a tile that is not the bao the seat has seen;
- a win is not legal by ``ccmj check``, or its payments differ from ``ccmj score``'s (the
  dealer's seat turned to E, the discarder's 报听 and look as the events show them);
- a legal win is missed: on a draw (自摸, 摸宝 on the bao's kind), at a look (对宝), on a
  discard (the nearest counter-clockwise seat that can win must), on a 加杠 or 补 (抢杠胡).
  Seats whose bots pass discard wins (the ``pass_win`` knob) are left out of that last check.

A structural pre-check (four sets and a pair, or seven pairs) picks the tiles worth asking
``check`` about; it accepts every complete hand, so it only saves time.
"""

import argparse
import json
import re
import sys
from functools import lru_cache

import numpy as np

from ccmj_cli import hand as H
from ccmj_cli import scoring as SC
from ccmj_cli import tiles as T
from ccmj_cli._kernels import layout as L
from ccmj_cli._kernels.table import layout as TL
from ccmj_cli._kernels.melds import special_base
from ccmj_cli.rules import load_variant

SEATS = ("E", "S", "W", "N")
HOW = ("self", "discard", "mobao", "duibao")
KONG_EVENTS = (TL.EV_MINGKONG, TL.EV_ANKONG, TL.EV_JIAGANG, TL.EV_BU, TL.EV_BAO_KONG)
BAO_EVENTS = (TL.EV_BAO, TL.EV_BAO_CHANGE, TL.EV_NO_BAO, TL.EV_LOOK)


# ------------------------------------------------------------------ structural pre-check
@lru_cache(maxsize=None)
def _suit_sets(c: tuple) -> bool:
    """Do the counts of one suit (9) split into chows and pungs."""
    i = next((k for k, n in enumerate(c) if n), None)
    if i is None:
        return True
    if c[i] >= 3 and _suit_sets(c[:i] + (c[i] - 3,) + c[i + 1 :]):
        return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        d = list(c)
        for k in range(i, i + 3):
            d[k] -= 1
        return _suit_sets(tuple(d))
    return False


def _sets_only(c) -> bool:
    if any(c[t] % 3 for t in range(27, 34)):
        return False
    return all(_suit_sets(tuple(c[9 * g : 9 * g + 9])) for g in range(3))


@lru_cache(maxsize=1 << 16)
def maybe_complete(c: tuple) -> bool:
    """3k+2 concealed counts that are four sets and a pair (or seven pairs): a superset of the
    hands ``check`` can call legal."""
    if sum(c) == 14 and all(n % 2 == 0 for n in c):
        return True
    for t in range(34):
        if c[t] >= 2:
            d = list(c)
            d[t] -= 2
            if _sets_only(d):
                return True
    return False


# ------------------------------------------------------------------ the hand, as check reads it
_GROUP = re.compile(r"[\[(]([^\])]*)[\])]")


def final_melds(text: str) -> list[list[int]]:
    """The tiles of each meld of a final hand text, in order."""
    return [T.parse_tiles(m.lstrip(T.SANYAOJI_MARK)) for m in _GROUP.findall(text)]  # ([*111s])


class Seat:
    def __init__(self):
        self.conc = np.zeros(34, np.int64)
        self.melds: list[list] = []  # [kind, tiles]
        self.declared = False
        self.looked = -1  # the bao version he last looked at
        self.discarded = False  # his first discard turn is over
        self.drew = False  # he has drawn from the wall (the head or the tail)
        self.claimed_first = False  # his first turn was entered by a claim

    def text(self, minus: int = -1) -> str:
        c = self.conc.copy()
        if minus >= 0:
            c[minus] -= 1
        parts = [T.format_tiles(c.astype(np.uint8))] if c.sum() else []
        parts += [T.laid_meld_text(int(k), ts) for k, ts in self.melds]  # ([*111s]: a 三幺鸡)
        return "".join(parts)

    def own(self, t: int) -> int:
        return int(self.conc[t]) + sum(ts.count(t) for _, ts in self.melds)


class Audit:
    """The departures found in one log (``problems``) and what was judged (``counts``)."""

    def __init__(self, v, bots, show: int = 20):
        self.v = v
        self.rv = np.asarray(v.vector, np.int64)
        self.passes = [bool(bots[s][TL.K_PASS_WIN]) for s in range(4)]
        self.problems: list[str] = []
        self.counts = {"hands": 0, "wins": 0, "chances": 0, "checks": 0, "scores": 0}
        self._check = lru_cache(maxsize=1 << 16)(self._check_uncached)

    def _check_uncached(self, text: str, tile: int) -> bool:
        self.counts["checks"] += 1
        return H.check(text, T.tile_name(tile), self.v).legal

    def legal(self, seat: Seat, tile: int, minus: int = -1) -> bool:
        """``check``: is seat's hand (less ``minus``) + tile a legal win."""
        if seat.own(tile) - (1 if minus == tile else 0) >= 4:
            return False
        c = seat.conc.copy()
        if minus >= 0:
            c[minus] -= 1
        c[tile] += 1
        if not maybe_complete(tuple(int(x) for x in c)):
            return False
        return self._check(seat.text(minus), tile)

    def legal_waits(self, seat: Seat, minus: int = -1) -> list[int]:
        return [w for w in range(34) if self.legal(seat, w, minus)]

    # -------------------------------------------------------------- one hand
    def hand(self, rec: dict) -> None:
        self.counts["hands"] += 1
        k = rec["hand"]
        wall = [T.tile_index(t) for t in rec["wall"]]
        dealer = SEATS.index(rec["dealer"])
        events = rec["events"]
        seats = [Seat() for _ in range(4)]
        for j in range(4):
            s = (dealer + j) % 4
            for t in wall[13 * j : 13 * j + 13]:
                seats[s].conc[t] += 1
        seats[dealer].conc[wall[52]] += 1
        finals = {s: final_melds(rec["final"][SEATS[s]]) for s in range(4)}
        bus = {s: [] for s in range(4)}  # (kind, tile) of every 补, in order
        for e in events:
            if e[0] == TL.EV_BU:
                bus[e[1]].append((e[3], e[2]))
            elif e[0] == TL.EV_BAO_KONG and e[3] == 2:  # a 用宝 补 (b: the special kong's kind)
                bus[e[1]].append((e[4], e[2]))
        sanfeng = bool(self.rv[L.RV_SANFENG])
        first_turn_timing = self.rv[L.RV_SPECIAL_KONG_TIMING] == TL.SPECIAL_FIRST_TURN
        first_draw_timing = self.rv[L.RV_SPECIAL_KONG_TIMING] == TL.SPECIAL_FIRST_DRAW

        def bad(i, what):
            self.problems.append(f"hand {k} event {i + 1}: {what}")

        holder = dealer  # the seat holding 3k+2 tiles (between his draw or claim and discard)
        drawn = wall[52]
        bao, bao_ver = -1, 0
        self_chance(self, seats, dealer, drawn, bao, bao_ver, events, 0, bad, start=True)
        prev = -1
        discard = None  # (src, tile, declared with it)
        for i, e in enumerate(events):
            kind, s, t, a, b = e
            if discard is not None and kind not in (TL.EV_DECLARE, *BAO_EVENTS):
                self.discard_chance(seats, discard, events, i, bad, dealer, rec)
                discard = None
            if kind in (TL.EV_DRAW, TL.EV_TAIL):
                if kind == TL.EV_TAIL and prev not in KONG_EVENTS and not (
                    prev == TL.EV_SPECIAL and events[i - 1][4] > 3
                ):
                    bad(i, f"{SEATS[s]}'s replacement draw follows no kong (event {prev})")
                seats[s].conc[t] += 1
                seats[s].drew = True
                holder, drawn = s, t
                self.invariant(seats, holder, i, bad)
                self_chance(self, seats, s, t, bao, bao_ver, events, i + 1, bad)
            elif kind in (TL.EV_DISCARD, TL.EV_PASS):
                seats[s].conc[t] -= 1
                seats[s].discarded = True
                holder = -1
                self.invariant(seats, holder, i, bad)
                if kind == TL.EV_DISCARD:
                    discard = [s, t, False]
            elif kind == TL.EV_DECLARE:
                seats[s].declared = True
                if discard is not None and discard[0] == s:
                    discard[2] = True
            elif kind in (TL.EV_CHOW, TL.EV_PUNG, TL.EV_MINGKONG):
                if kind == TL.EV_CHOW:
                    tiles = [a, a + 1, a + 2]
                    for x in tiles:
                        if x != t:
                            seats[s].conc[x] -= 1
                    seats[s].melds.append([L.MELD_CHOW, tiles])
                else:
                    n = 3 if kind == TL.EV_PUNG else 4
                    seats[s].conc[t] -= n - 1
                    seats[s].melds.append([L.MELD_PUNG if n == 3 else L.MELD_KONG, [t] * n])
                if not seats[s].discarded and first_turn_timing:
                    seats[s].claimed_first = True
                holder = s
                if kind != TL.EV_MINGKONG:
                    self.invariant(seats, holder, i, bad)
            elif kind == TL.EV_ANKONG:
                seats[s].conc[t] -= 4
                seats[s].melds.append([L.MELD_ANKONG, [t] * 4])
            elif kind in (TL.EV_JIAGANG, TL.EV_BU):
                self.rob_chance(seats, s, t, -1, events, i, bad)
                if self.no_bu_turn(seats[s], s, dealer) and kind == TL.EV_BU:
                    bad(i, f"{SEATS[s]} makes a 补 in a turn that allows none")
                seats[s].conc[t] -= 1
                if kind == TL.EV_JIAGANG:
                    m = next(m for m in seats[s].melds if m[0] == L.MELD_PUNG and m[1][0] == t)
                    m[0], m[1] = L.MELD_KONG, [t] * 4
                else:
                    m = next(m for m in seats[s].melds  # (a laid 大蛋's 4th: its own tile)
                             if m[0] == a and (a != L.MELD_ANKONG or m[1][0] == t))  # fmt: skip
                    m[1].append(t)
            elif kind == TL.EV_BAO_KONG:
                # 用宝 (bao_kong): the bao tile, from the wall, for a kong at the look
                if not self.rv[L.RV_BAO_KONG]:
                    bad(i, f"{SEATS[s]} takes the bao for a kong, which the rules do not allow")
                if not seats[s].declared or t != bao or seats[s].looked != bao_ver:
                    bad(i, f"{SEATS[s]} takes {T.tile_name(t)} for a kong: not the bao he saw")
                if a == 0:
                    seats[s].conc[t] -= 3
                    seats[s].melds.append([L.MELD_ANKONG, [t] * 4])
                elif a == 1:
                    m = next(m for m in seats[s].melds if m[0] == L.MELD_PUNG and m[1][0] == t)
                    m[0], m[1] = L.MELD_KONG, [t] * 4
                else:
                    m = next(m for m in seats[s].melds  # (a laid 大蛋's 4th: its own tile)
                             if m[0] == b and (b != L.MELD_ANKONG or m[1][0] == t))  # fmt: skip
                    m[1].append(t)
                bao, bao_ver = -1, bao_ver + 1
                self.counts["bao_kongs"] = self.counts.get("bao_kongs", 0) + 1
            elif kind == TL.EV_KONG_ROBBED:
                seats[b].conc[t] -= 1
                holder = -1
                if a == 0:
                    self.rob_chance(seats, b, t, -1, events, i, bad)
            elif kind == TL.EV_ROB_PUNG:
                seats[s].conc[t] -= 2
                seats[s].melds.append([L.MELD_PUNG, [t] * 3])
                holder = s
                self.invariant(seats, holder, i, bad)
            elif kind == TL.EV_SPECIAL:
                idx = len(seats[s].melds)
                tiles = list(finals[s][idx]) if idx < len(finals[s]) else []
                if a == L.MELD_ANKONG:  # a 大蛋 laid as three (dadan_laid): its 4th is a 补
                    tiles = tiles[:3]
                    if not self.rv[L.RV_DADAN_LAID] or t not in T.DADAN or tiles != [t] * 3:
                        bad(i, f"{SEATS[s]} lays out three {T.tile_name(t)} as a 大蛋: not allowed")
                elif not any(m[0] == a for m in seats[s].melds):  # the 补 go onto the first
                    for kk, bt in bus[s]:
                        if kk == a and bt in tiles:
                            tiles.remove(bt)
                if len(tiles) != b:
                    bad(i, f"{SEATS[s]}'s special kong: {b} tiles, the final hand shows {tiles}")
                    return
                if seats[s].discarded:
                    bad(i, f"{SEATS[s]} lays out a special kong after his first turn")
                if first_draw_timing and s != dealer and not seats[s].drew:
                    bad(i, f"{SEATS[s]} lays out a special kong before his first draw (first_draw)")
                if b > special_base(a, sanfeng) and self.no_bu_turn(seats[s], s, dealer):
                    bad(i, f"{SEATS[s]}'s special kong holds a 补 in a turn that allows none")
                for x in tiles:
                    seats[s].conc[x] -= 1
                seats[s].melds.append([a, tiles])
                if b == 3:
                    self.invariant(seats, holder, i, bad)
            elif kind == TL.EV_BAO:
                bao, bao_ver = t, bao_ver + 1
                self.draw_follows(events, i, s, bad, "the bao is rolled")
            elif kind in (TL.EV_BAO_CHANGE, TL.EV_NO_BAO):
                bao, bao_ver = -1, bao_ver + 1
            elif kind == TL.EV_LOOK:
                seats[s].looked = bao_ver
                self.draw_follows(events, i, s, bad, f"{SEATS[s]} looks at the bao")
                self.counts["chances"] += 1
                won = self.next_win(events, i) == (s, L.HOW_DUIBAO)
                if self.legal(seats[s], t) and not won:
                    bad(i, f"{SEATS[s]} misses 对宝 on {T.tile_name(t)}: {seats[s].text()}")
            elif kind == TL.EV_WIN:
                self.win(seats, e, i, bad, dealer, rec, drawn, bao, bao_ver, discard_state)
                return
            elif kind == TL.EV_HUANG:
                return
            if kind not in BAO_EVENTS:  # (a 换宝 may come between a kong and its draw)
                prev = kind

    # -------------------------------------------------------------- checks
    def no_bu_turn(self, seat: Seat, s: int, dealer: int) -> bool:
        return (s == dealer and not seat.discarded) or (seat.claimed_first and not seat.discarded)

    def invariant(self, seats, holder, i, bad):
        for s, seat in enumerate(seats):
            want = 13 - 3 * len(seat.melds) + (1 if s == holder else 0)
            if int(seat.conc.sum()) != want:
                bad(i, f"{SEATS[s]} holds {int(seat.conc.sum())} concealed tiles with "
                    f"{len(seat.melds)} sets (13 - 3 x sets{' + 1' if s == holder else ''} = "
                    f"{want}): {seat.text()}")  # fmt: skip

    def draw_follows(self, events, i, s, bad, what):
        """A roll or look must be for a draw: the next event past the bao's own is a draw of
        the seat (or his 对宝); a 换宝 roll (s = -1): the hand is not drawn (荒庄) before any
        further draw."""
        # (a 用宝 kong at the look: the draw is its replacement from the tail)
        rest = [e for e in events[i + 1 :] if e[0] not in BAO_EVENTS or e[1] != s]
        j = i - 1  # (or a roll after one: the new bao's)
        while j >= 0 and events[j][0] in BAO_EVENTS:
            j -= 1
        konged = j >= 0 and events[j][0] == TL.EV_BAO_KONG and events[j][1] == s
        while rest and rest[0][0] == TL.EV_BAO_KONG and rest[0][1] == s:
            konged = True
            rest = rest[1:]
        if s < 0:  # (a win may end the hand first: a draw was left, it was not needed)
            if rest and rest[-1][0] == TL.EV_HUANG and not any(
                e[0] in (TL.EV_DRAW, TL.EV_TAIL) for e in rest
            ):
                bad(i, f"{what} (换宝) with no draw left")
            return
        nxt = rest[0] if rest else None
        if nxt is not None and nxt[0] == TL.EV_HUANG and self.bao_took_the_last_tile(events, i):
            return
        if nxt is None or not (
            (nxt[0] == TL.EV_DRAW and nxt[1] == s)
            or (konged and nxt[0] == TL.EV_TAIL and nxt[1] == s)
            or (nxt[0] == TL.EV_WIN and nxt[1] == s and nxt[3] == L.HOW_DUIBAO)
        ):
            bad(i, f"{what} with no draw after it")

    def bao_took_the_last_tile(self, events, i) -> bool:
        """With no dead wall (dead_wall_stacks 0) the bao can land on the one tile left, which
        stays in the wall: the roll (and the look) had a draw to come, and then there is none —
        the hand is drawn. True when the wall held exactly that one tile (136 - 53 dealt - every
        draw from the head or the tail before event i)."""
        if self.v.dead_wall_stacks != 0:
            return False
        taken = sum(1 for e in events[:i] if e[0] in (TL.EV_DRAW, TL.EV_TAIL))
        return 136 - 53 - taken == 1

    @staticmethod
    def next_win(events, i):
        n = events[i + 1] if i + 1 < len(events) else None
        return (n[1], n[3]) if n is not None and n[0] == TL.EV_WIN else None

    def discard_chance(self, seats, discard, events, i, bad, dealer, rec):
        """On a discard: the nearest counter-clockwise seat that can win (and does not pass
        wins) must; ``events[i]`` is the first event after the discard's own."""
        src, d, _ = discard
        can = [
            (src + j) % 4 for j in range(1, 4)
            if not self.passes[(src + j) % 4] and self.legal(seats[(src + j) % 4], d)
        ]  # fmt: skip
        self.counts["chances"] += 3
        e = events[i]
        won = e[0] == TL.EV_WIN and e[3] == L.HOW_DISCARD
        if can and not (won and e[1] == can[0]):
            bad(i, f"{SEATS[can[0]]} misses the win on {SEATS[src]}'s {T.tile_name(d)}: "
                f"{seats[can[0]].text()}")  # fmt: skip

    def rob_chance(self, seats, src, t, _unused, events, i, bad):
        """A 加杠 / 补 tile that stood (or was robbed by 碰): nobody could rob it by 胡."""
        self.counts["chances"] += 3
        for j in range(1, 4):
            o = (src + j) % 4
            if not self.passes[o] and self.legal(seats[o], t):
                bad(i, f"{SEATS[o]} misses 抢杠胡 on {SEATS[src]}'s {T.tile_name(t)}: "
                    f"{seats[o].text()}")  # fmt: skip
                return

    def win(self, seats, e, i, bad, dealer, rec, drawn, bao, bao_ver, discard_state):
        _, s, t, how, src = e
        seat = seats[s]
        self.counts["wins"] += 1
        if how == L.HOW_DISCARD:
            hand, ok = seat.text(), self.legal(seat, t)
        elif how == L.HOW_DUIBAO:
            hand, ok = seat.text(), self.legal(seat, bao)
        elif how == L.HOW_SELF:
            hand, ok = seat.text(drawn), self.legal(seat, t, drawn)
        else:  # 摸宝: the drawn bao-kind tile stands for a legal wait
            hand, ok = seat.text(drawn), bool(self.legal_waits(seat, drawn))
        if not ok:
            bad(i, f"{SEATS[s]}'s {HOW[how]} win on {T.tile_name(t)} is not legal by check: {hand}")
            return
        # the payments, by ccmj score, with the dealer's seat as E
        rot = [SEATS[(x - dealer) % 4] for x in range(4)]
        declared = looked = False
        if how == L.HOW_DISCARD:
            declared, looked = discard_state(seats, src, bao, bao_ver, rec, self.rv)
        r = SC.score(
            hand, win=T.tile_name(bao if how in (L.HOW_MOBAO, L.HOW_DUIBAO) else t), how=HOW[how],
            seat=rot[s], discarder=rot[src] if src >= 0 else None,
            bao=T.tile_name(bao) if how in (L.HOW_MOBAO, L.HOW_DUIBAO) else None,
            declared=declared, looked=looked, rules=self.v,
        )  # fmt: skip
        self.counts["scores"] += 1
        res = rec["result"]
        got = {SEATS[x]: res["payout"][SEATS[x]] - res["kong_money"][SEATS[x]] for x in range(4)}
        want = {SEATS[x]: r.payments[rot[x]] for x in range(4)}
        if not r.legal or got != want:
            bad(i, f"{SEATS[s]}'s win ({HOW[how]}, {hand} + {T.tile_name(t)}) pays {got}, "
                f"ccmj score says {want} ({r.reasons})")  # fmt: skip


def discard_state(seats, src, bao, bao_ver, rec, rv):
    """(declared, looked) of a discarder as ``ccmj score`` takes them, from the events: a 报听
    made with the very discard counts unless dealin_declaration_counts is false."""
    seat = seats[src]
    if not seat.declared:
        return False, False
    if rec.get("_declared_with_discard") == src and not rv[L.RV_DEALIN_DECLARATION_COUNTS]:
        return False, False
    return True, bao >= 0 and seat.looked == bao_ver


def self_chance(audit, seats, s, t, bao, bao_ver, events, i, bad, start=False):
    """On a draw (and the dealer's 14th tile): a legal 自摸, or 摸宝 with the bao's kind drawn
    by a declared seat that has seen the bao, must be taken: the next event is his win."""
    seat = seats[s]
    audit.counts["chances"] += 1
    nxt = events[i] if i < len(events) else None
    won = nxt is not None and nxt[0] == TL.EV_WIN and nxt[1] == s
    if won:
        return
    if audit.legal(seat, t, t):
        bad(i - 1 if not start else 0, f"{SEATS[s]} misses 自摸 on {T.tile_name(t)}: "
            f"{seat.text(t)}")  # fmt: skip
    elif seat.declared and bao >= 0 and t == bao and seat.looked == bao_ver:
        if audit.legal_waits(seat, t):
            bad(i - 1, f"{SEATS[s]} misses 摸宝 on {T.tile_name(t)}: {seat.text(t)}")


def audit_log(path: str, rules: str | None = None, show: int = 20) -> Audit:
    with open(path, encoding="utf-8") as f:
        header = json.loads(f.readline())
        v = load_variant(rules or header["rules"])
        if [int(x) for x in v.vector] != header["rv"]:
            raise SystemExit(f"{path}: the rules given are not the ones the log was written with")
        audit = Audit(v, header["bots"], show)
        for line in f:
            if line.strip():
                rec = json.loads(line)
                _mark_declaring_discards(rec)
                audit.hand(rec)
    return audit


def _mark_declaring_discards(rec: dict) -> None:
    """Note in ``rec`` the seat whose 报听 came with the discard that was won on (if any)."""
    ev = rec["events"]
    for i, e in enumerate(ev):
        if e[0] == TL.EV_WIN and e[3] == L.HOW_DISCARD:
            j = i - 1
            while j >= 0 and ev[j][0] in BAO_EVENTS:
                j -= 1
            if j >= 0 and ev[j][0] == TL.EV_DECLARE and ev[j][1] == e[4]:
                rec["_declared_with_discard"] = e[4]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--rules", help="the variant (default: the one the log names)")
    ap.add_argument("--show", type=int, default=20, help="departures to print per log")
    args = ap.parse_args(argv)
    found = 0
    for path in args.logs:
        a = audit_log(path, args.rules, args.show)
        c = a.counts
        print(f"{path}: {c['hands']} hands, {c['wins']} wins judged, {c['chances']} win chances, "
              f"{c['checks']} checks, {c['scores']} scores"
              + (f", {c['bao_kongs']} 用宝 kongs" if c.get("bao_kongs") else "")
              + f": {len(a.problems)} departures")  # fmt: skip
        for p in a.problems[: args.show]:
            print("  " + p)
        found += len(a.problems)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
