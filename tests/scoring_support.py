"""Glue between the scoring reference (naive_scoring.py) and ccmj's answers, for the tests.

``reference_score`` / ``reference_bao`` take the same text arguments as ``ccmj_cli.scoring.score``
and ``ccmj_cli.bao.bao`` and answer from the reference; ``assert_score`` / ``assert_bao`` /
``assert_batch_row`` / ``assert_batch_json`` compare one of ccmj's answers with the reference's,
field by field. Only the notation parser (``ccmj_cli.tiles``) is shared with the product: it
says what a bracket forms under the variant's meld options (``meld_rules`` below reads them
from the options itself); the reference counts the 补 tiles of each special kong on its own.
"""

import naive_scoring as NS

from ccmj_cli import tiles as T

SEATS = NS.SEATS


def meld_rules(opts) -> T.MeldRules:
    """The notation parser's meld options from the variant's: 三风蛋, 幺鸡 (off, one 小鸡飞蛋, or
    the wildcard of ``xiaoji_wildcard: any``), 喜杠 补 with any honor, one kong of each kind,
    三幺鸡 (``sanyaoji``: ``[*111s]``), the 大蛋 laid from the deal (``dadan_laid``: ``(777z)``)."""
    if not opts["xiaoji_feidan"]:
        xiaoji = T.XIAOJI_OFF
    else:
        xiaoji = T.XIAOJI_ONE if opts["xiaoji_wildcard"] == "one" else T.XIAOJI_ANY
    return T.MeldRules(opts["sanfeng_dan"], xiaoji, opts["xi_bu_any_honor"],
                       opts["one_special_kong_per_kind"], opts["sanyaoji"],
                       opts["dadan_laid"])  # fmt: skip


def _parse(text: str, opts):
    return T.parse_hand(text, meld_rules(opts))


def ref_melds(melds) -> tuple:
    return tuple(NS.Meld(m.name, tuple(m.tiles)) for m in melds)


def ref_hand(text: str, drawn: int, opts) -> NS.Hand:
    """The reference's hand before the win from MPSZ text (13-tile form, or the complete form
    holding ``drawn``, which is taken out)."""
    h = _parse(text, opts)
    c = [int(x) for x in h.concealed]
    if sum(c) % 3 == 2:
        c[drawn] -= 1
    return NS.Hand(tuple(c), ref_melds(h.melds))


def ref_kongs(text: str | None, opts) -> list:
    """``--kongs`` text as (seat, meld) pairs."""
    out = []
    for item in (text or "").split(","):
        if not item.strip():
            continue
        seat, _, melds = item.partition(":")
        for m in _parse(melds, opts).melds:
            out.append((SEATS.index(seat.strip().upper()), NS.Meld(m.name, tuple(m.tiles))))
    return out


def options(v) -> dict:
    """A Variant's options as the reference reads them."""
    return v.to_dict()


def reference_score(hand, win=None, how="self", seat="S", discarder=None, bao=None, base=1,
                    kongs=None, declared=False, rules=None,
                    looked=False) -> NS.Expected:  # fmt: skip
    """``ccmj_cli.scoring.score``'s arguments, answered by the reference (``rules``: a Variant;
    ``base`` only scales the amounts: ``Expected.amounts(base)``)."""
    opts = options(rules)
    drawn = T.tile_index(bao if how in ("mobao", "duibao") and bao else win)
    h = ref_hand(hand, drawn, opts)
    d = SEATS.index(discarder) if discarder else None
    others = ref_kongs(kongs, opts)
    return NS.score(h, drawn, how, SEATS.index(seat), d, declared, others, opts, looked)


def reference_bao(hand, bao_tile, visible=None, seat="S", rules=None) -> NS.BaoExpected:
    opts = options(rules)
    h = ref_hand(hand, -1, opts)
    vis = [0] * NS.N
    for t in T.parse_tiles(visible) if visible else []:
        vis[t] += 1
    return NS.bao(h, T.tile_index(bao_tile), vis, SEATS.index(seat), opts)


def _seat_dict(values) -> dict:
    return dict(zip(SEATS, values, strict=True))


def _name(t):
    return None if t is None else T.tile_name(t)


def item_tuples(fan_items) -> tuple:
    """(name, fan, seats) of each listed item, from ScoreResult or JSON fan items."""
    out = []
    for i in fan_items:
        if isinstance(i, dict):
            out.append((i["name"], i["fan"], tuple(i["seats"])))
        else:
            out.append((i.name, i.fan, tuple(i.seats)))
    return tuple(out)


def _meld_tiles(text: str) -> list[int]:
    return sorted(T.parse_tiles(text.strip("[]()").lstrip("*")))  # ([*111s]: 三幺鸡)


def kong_tuples(lines) -> list:
    """(seat, sorted tiles, value) of kong lines (ScoreResult, JSON, or the reference's)."""
    out = []
    for x in lines:
        if isinstance(x, dict):
            out.append((x["seat"], _meld_tiles(x["meld"]), x["value"]))
        elif isinstance(x, tuple):
            seat, meld, value = x
            out.append((SEATS[seat], sorted(meld.tiles), value))
        else:
            out.append((x.seat, _meld_tiles(x.meld), x.value))
    return out


def assert_score(r, e: NS.Expected, base: int = 1, fan_cap=None, context=""):
    """A ScoreResult (or its ``to_dict()``, or a batch JSON line) against the reference."""
    d = r if isinstance(r, dict) else r.to_dict()
    where = f"{context} reference={e}"
    assert d["legal"] == e.legal, where
    assert tuple(d["reasons"]) in e.reasons, where
    assert d["win"] == _name(e.win), where
    assert d["stands_for"] == _name(e.stands_for), where
    assert item_tuples(d["fan_items"]) in e.items, where
    assert d["fan_by_seat"] == _seat_dict(e.fan_by_seat), where
    assert d["payments"] == _seat_dict(e.payments), where
    assert d["kong_payments"] == _seat_dict(e.kong_payments), where
    assert kong_tuples(d["kongs"]) == kong_tuples(e.kong_lines), where
    assert d["total"] == _seat_dict(e.total), where
    assert d["base"] == base and d["total_amount"] == _seat_dict(e.amounts(base)), where
    assert d["fan_cap"] == fan_cap, where
    assert sum(d["total"].values()) == 0, where


def assert_batch_row(row: dict, e: NS.Expected, base: int = 1, context=""):
    """One row of ``ccmj batch`` CSV output against the reference."""
    where = f"{context} row={row} reference={e}"
    assert row["error"] == "", where
    assert row["legal"] == ("true" if e.legal else "false"), where
    assert tuple(row["reasons"].split(";") if row["reasons"] else ()) in e.reasons, where
    assert row["stands_for"] == (_name(e.stands_for) or ""), where
    items = tuple(
        (name, int(fan)) for name, fan in (x.split(":") for x in row["fan_items"].split())
    )
    assert items in {tuple((n, f) for n, f, _ in it) for it in e.items}, where
    assert [int(row[f"fan_{s}"]) for s in SEATS] == list(e.fan_by_seat), where
    assert [int(row[f"pay_{s}"]) for s in SEATS] == list(e.amounts(base)), where


def assert_bao(r, e: NS.BaoExpected, fan_cap=None, context=""):
    """A BaoResult against the reference."""
    where = f"{context} reference={e}"
    assert r.can_look == e.can_look and r.reason == e.reason, where
    assert r.outcome == e.outcome, where
    assert r.stands_for == _name(e.stands_for), where
    assert (r.live, r.public) == (e.live, e.public), where
    assert (r.must_change, r.may_change) == (e.must_change, e.may_change), where
    assert (r.score is None) == (e.score is None), where
    if e.score is not None:
        assert_score(r.score, e.score, fan_cap=fan_cap, context=context)
