"""``ccmj batch`` as a user runs it: the whole command, from the shell, warm, on generated files.

    python scripts/bench_batch_cli.py                      # 100k rows: plain, mix, wins; 3 runs
    python scripts/bench_batch_cli.py --rows 1000000 --sets mix --runs 1
    python scripts/bench_batch_cli.py --json               # the same, with --json
    python scripts/bench_batch_cli.py --write DIR          # only write the input files

Input sets (each row distinct unless said otherwise):

- ``plain``: wins in plain MPSZ (sets + a pair, tiles in shuffled order), every way of winning;
- ``mix``: the row mix of ``examples/wins.csv`` with distinct hands: declared melds (chows,
  pungs, open and concealed kongs, special kongs with 补 tiles), Chinese honor and suit names,
  ``kongs`` cells for other seats, ``declared`` / ``looked``, 摸宝 and 对宝 wins, illegal hands,
  and one bad row in eight (a bad tile, a fifth copy, an invalid meld, the winner's seat in
  ``kongs``, ...);
- ``wins``: ``examples/wins.csv``'s eight rows resampled (every hand text repeats: a cache keyed
  on the text would make this figure, so ``mix`` is the honest one).

Each run is ``ccmj batch FILE`` as a subprocess, stdout to /dev/null, after one warm-up run (the
compiled kernels and tables loaded from the cache); it prints the min and median rows/s over the
runs (start-up included), rows per CPU-second of the child (its user + system time, median;
steadier than wall time on a shared machine), its peak resident memory, and the load average.
``scripts/bench_batch.py`` is the in-process figure (the warm-up excluded).
"""

import argparse
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEATS = "ESWN"
SUITS = "mpsz"
HONOR_ZH = "东南西北白发中"
SUIT_ZH = {"m": "万", "p": "饼", "s": "条"}
SPECIAL = {"xuanfeng": (27, 28, 29, 30), "xi": (31, 32, 33), "yaodan": (0, 9, 18),
           "jiudan": (8, 17, 26)}  # fmt: skip
COLUMNS = ["hand", "win", "how", "seat", "from", "bao", "base", "kongs", "declared", "looked"]


def name(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def grouped(tiles, zh: bool = False) -> str:
    """MPSZ text of ``tiles`` grouped by suit (sorted), honors as 东南西北白发中 when ``zh``."""
    out = []
    for s in range(4):
        ds = sorted(t for t in tiles if t // 9 == s)
        if not ds:
            continue
        if s == 3 and zh:
            out.append("".join(HONOR_ZH[t - 27] for t in ds))
        else:
            out.append("".join(str(t % 9 + 1) for t in ds) + SUITS[s])
    return "".join(out)


def loose(tiles, rng: random.Random, zh: bool = False) -> str:
    """The tiles in the order given, one suit letter per run of a suit (as people type)."""
    out = []
    for t in tiles:
        if t >= 27 and zh:
            out.append(("", HONOR_ZH[t - 27]))
            continue
        suit = SUITS[t // 9]
        if zh and suit in SUIT_ZH and rng.random() < 0.3:
            suit = SUIT_ZH[suit]
        if out and out[-1][1] == suit and suit:
            out[-1] = (out[-1][0] + str(t % 9 + 1), suit)
        else:
            out.append((str(t % 9 + 1), suit))
    return "".join(d + s for d, s in out)


def fits(used, tiles) -> bool:
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(used[t] + n <= 4 for t, n in need.items())


def take(used, tiles):
    for t in tiles:
        used[t] += 1


def _set(rng: random.Random, used, special_ok: bool):
    """One set that fits: (kind, tiles)."""
    for _ in range(50):
        r = rng.random()
        if special_ok and r < 0.12:
            kind = rng.choice(list(SPECIAL))
            tiles = list(SPECIAL[kind])
            for _ in range(rng.choice((0, 0, 1, 2))):  # 补 tiles
                tiles.append(rng.choice(SPECIAL[kind]))
            rng.shuffle(tiles)
        elif r < 0.5:
            t = rng.randrange(34)
            kind, tiles = "pung", [t] * 3
        else:
            s, k = rng.randrange(3), rng.randrange(7)
            kind, tiles = "chow", [s * 9 + k + i for i in range(3)]
        if fits(used, tiles):
            take(used, tiles)
            return kind, tiles
    return None


def meld_text(kind: str, tiles, rng: random.Random, zh: bool) -> str:
    if kind == "concealed_kong":
        return f"({grouped(tiles)})"
    if kind in SPECIAL:
        return "[" + (loose(tiles, rng, zh) if rng.random() < 0.5 else
                      "".join(name(t) for t in tiles)) + "]"  # fmt: skip
    return f"[{grouped(tiles, zh)}]"


def complete_hand(rng: random.Random, melds_p: float, zh: bool):
    """(hand text, winning tile, tiles used) of a complete hand built from sets + a pair, some
    sets declared (special kongs always are)."""
    while True:
        used = [0] * 34
        slots = [_set(rng, used, melds_p > 0) for _ in range(4)]
        if None in slots:
            continue
        pairs = [t for t in range(34) if used[t] <= 2]
        pair = rng.choice(pairs)
        take(used, [pair, pair])
        concealed, melds = [pair, pair], []
        for kind, tiles in slots:
            if kind in SPECIAL or rng.random() < melds_p:
                if kind == "pung" and used[tiles[0]] == 3 and rng.random() < 0.4:
                    kind = rng.choice(("kong", "concealed_kong"))
                    tiles = tiles + [tiles[0]]
                    used[tiles[0]] += 1
                melds.append((kind, tiles))
            else:
                concealed += tiles
        win = concealed.pop(rng.randrange(len(concealed)))
        full = rng.random() < 0.3
        if full:
            concealed.append(win)  # the 14-tile form
        rng.shuffle(concealed)
        text = grouped(concealed, zh) if rng.random() < 0.5 else loose(concealed, rng, zh)
        text += "".join(meld_text(k, ts, rng, zh) for k, ts in melds)
        return text, win, used, full


def random_hand(rng: random.Random, zh: bool):
    """13 random tiles (mostly not a win), some as a declared pung."""
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    tiles = wall[:14]
    win = tiles.pop()
    used = [0] * 34
    take(used, tiles + [win])
    return loose(tiles, rng, zh), win, used, False


def other_kongs(rng: random.Random, used, winner: int) -> str:
    items = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        seat = rng.choice([s for s in range(4) if s != winner])
        melds = []
        for _ in range(rng.choice((1, 1, 2))):
            if rng.random() < 0.35:
                kind = rng.choice(list(SPECIAL))
                tiles = list(SPECIAL[kind]) + [rng.choice(SPECIAL[kind])] * rng.choice((0, 1))
                rng.shuffle(tiles)
            else:
                t = rng.randrange(34)
                kind, tiles = rng.choice(("kong", "concealed_kong")), [t] * 4
            if fits(used, tiles):
                take(used, tiles)
                melds.append(meld_text(kind, tiles, rng, False))
        if melds:
            items.append(f"{SEATS[seat]}:{''.join(melds)}")
    return ",".join(items)


BAD = (
    lambda h, r: dict(h, win="4x"),
    lambda h, r: dict(h, hand=h["hand"] + "q"),
    lambda h, r: dict(h, hand="1111m" + h["hand"]),  # a fifth copy, or a wrong tile count
    lambda h, r: dict(h, hand=h["hand"] + "[124m]"),  # not a meld
    lambda h, r: dict(h, kongs=f"{h['seat']}:(9999m)"),  # the winner's own seat
    lambda h, r: dict(h, kongs="E:[123m]" if h["seat"] != "E" else "W:[123m]"),  # not a kong
    lambda h, r: dict(h, seat="Q"),
    lambda h, r: dict(h, base="x"),
    lambda h, r: dict(h, hand=h["hand"] + "[5555m"),
    lambda h, r: dict(h, how="discard", **{"from": ""}),
    lambda h, r: dict(h, declared="maybe"),
    lambda h, r: dict(h, hand=h["hand"][:-2] if len(h["hand"]) > 4 else "1m"),
)


def mix_row(rng: random.Random, k: int) -> dict:
    """Row ``k`` of the mix: the kind of ``examples/wins.csv``'s row k % 8, a distinct hand."""
    kind = k % 8 if rng.random() < 0.8 else rng.randrange(8)
    zh = kind == 6 or rng.random() < 0.15
    if kind == 4 or rng.random() < 0.15:
        text, win, used, full = random_hand(rng, zh)
    else:
        text, win, used, full = complete_hand(rng, 0.6 if kind == 5 else 0.3, zh)
    seat = rng.randrange(4)
    row = {c: "" for c in COLUMNS}
    row.update(hand=text, seat=SEATS[seat], base=str(rng.choice((1, 1, 2, 5, 10))))
    how = ("mobao", "mobao", "duibao", "discard", "self", "self", "discard", None)[kind]
    if how is None:
        how = rng.choice(("self", "discard", "mobao", "duibao"))
    row["how"] = how
    if how in ("mobao", "duibao"):
        # (a 14-tile hand holds the drawn bao: it is the tile the hand was won on)
        bao = win if how == "duibao" or full or rng.random() < 0.3 else rng.randrange(34)
        row["bao"] = name(bao)
        if rng.random() < 0.5 and how == "duibao":
            row["win"] = name(bao)
    else:
        row["win"] = name(win)
    if how == "discard":
        row["from"] = rng.choice([s for s in SEATS if s != SEATS[seat]])
        if rng.random() < 0.5:
            row["declared"] = rng.choice(("1", "0", "yes", "true", ""))
        if rng.random() < 0.2:
            row["looked"] = rng.choice(("1", "0"))
    if kind == 3 or rng.random() < 0.2:
        row["kongs"] = other_kongs(rng, used, seat)
    if kind == 7:
        row = rng.choice(BAD)(row, rng)
    return row


def plain_row(rng: random.Random) -> dict:
    text, win, _, full = complete_hand(rng, 0.0, False)
    seat = rng.randrange(4)
    how = rng.choice(("self", "discard", "discard", "mobao", "duibao"))
    row = {"hand": text, "win": name(win), "how": how, "seat": SEATS[seat], "from": "",
           "bao": "", "base": str(rng.choice((1, 2, 5)))}  # fmt: skip
    if how == "discard":
        row["from"] = rng.choice([s for s in SEATS if s != SEATS[seat]])
    elif how == "duibao":
        row["bao"] = row["win"]
    elif how == "mobao":
        row["bao"], row["win"] = name(win if full else rng.randrange(34)), ""
    return row


def write_set(kind: str, n: int, path: Path, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8", newline="") as f:
        if kind == "wins":
            lines = (ROOT / "examples" / "wins.csv").read_text(encoding="utf-8").splitlines()
            f.write(lines[0] + "\n")
            body = lines[1:]
            f.writelines(body[rng.randrange(len(body))] + "\n" for _ in range(n))
            return
        cols = COLUMNS if kind == "mix" else COLUMNS[:7]
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        make = (lambda k: mix_row(rng, k)) if kind == "mix" else (lambda k: plain_row(rng))
        for k in range(n):
            row = make(k)
            w.writerow([row.get(c, "") for c in cols])


def run_once(path: Path, extra: list[str]) -> tuple[float, float, int, int]:
    """(seconds, CPU seconds, peak RSS in KB, exit code) of one ``ccmj batch`` run."""
    cmd = [sys.executable, "-m", "ccmj_cli", "batch", str(path), *extra]
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return dt, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, p.returncode


def count_rows(path: Path) -> int:
    with open(path, encoding="utf-8", newline="") as f:
        return sum(1 for _ in csv.reader(f)) - 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--sets", default="plain,mix,wins")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", metavar="DIR", help="write the input files there and stop")
    args = ap.parse_args()
    folder = Path(args.write) if args.write else Path(tempfile.mkdtemp(prefix="ccmj-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    extra = ["--json"] if args.json else []
    for kind in args.sets.split(","):
        path = folder / f"{kind}-{args.rows}.csv"
        if not path.exists():
            write_set(kind, args.rows, path, args.seed)
        if args.write:
            print(path)
            continue
        n = count_rows(path)
        run_once(path, extra)  # warm-up: nothing timed is a first load
        times, cpus, rss = [], [], []
        for _ in range(args.runs):
            dt, cpu, kb, code = run_once(path, extra)
            if code not in (0, 4):
                sys.exit(f"ccmj batch {path} exited {code}")
            times.append(dt)
            cpus.append(cpu)
            rss.append(kb)
        rates = sorted(n / t for t in times)
        print(
            f"{kind:5s} {n:>9,} rows{' --json' if args.json else ''}: "
            f"min {rates[0]:>9,.0f}  median {statistics.median(rates):>9,.0f} rows/s "
            f"({min(times):.2f}-{max(times):.2f} s; {n / statistics.median(cpus):,.0f} rows per "
            f"CPU-s), peak RSS {max(rss) / 1024:.0f} MB, "
            f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    if not args.write:
        for p in folder.glob("*.csv"):
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
