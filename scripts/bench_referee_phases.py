"""Where `ccmj referee LOG` spends its time, phase by phase, in one process: reading the log
(``referee._log_batches``), the replay (the scripted engine, ``referee_pieces``) on one thread
and on all, then the whole check (read, replay, verdicts and their JSON). Prints wall and CPU
seconds (all threads) of each, hands per CPU-second, and the machine's load.

    python scripts/bench_referee_phases.py LOG
"""

import os
import sys
import time

import numpy as np


def timed(label, fn, hands):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    w, c = time.perf_counter() - w, time.process_time() - c
    print(f"{label:28s} {w:7.2f} s wall {c:7.2f} s CPU  ({hands / c:,.0f} hands per CPU-second)")
    return out


def main():
    import numba

    from ccmj_cli import referee as R
    from ccmj_cli._kernels.table import layout as TL
    from ccmj_cli._kernels.table.referee import STOP_COLS, referee_pieces
    from ccmj_cli._kernels.tables import tables
    from ccmj_cli._kernels.useful import useful_tables
    from ccmj_cli.output import to_json

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    rec = R.load_record(sys.argv[1])
    batches = list(R._log_batches(rec.path, 8192))
    n = sum(len(b.numbers) for b in batches)
    timed("read the log", lambda: list(R._log_batches(rec.path, 8192)), n)
    tb, ut = tables(), useful_tables()
    top = numba.config.NUMBA_NUM_THREADS
    b = batches[0]
    res = np.zeros((len(b.numbers), TL.R_LEN), np.int64)
    stop = np.zeros((len(b.numbers), STOP_COLS), np.int64)
    referee_pieces(b.walls, b.dices, b.dealers, b.recs, b.offs, b.lens, rec.rv, tb, ut, rec.tp,
                   res, stop, 1)  # fmt: skip  (loads the compiled engine)

    def replay(threads):
        numba.set_num_threads(threads)
        for b in batches:
            k = len(b.numbers)
            res = np.zeros((k, TL.R_LEN), np.int64)
            stop = np.zeros((k, STOP_COLS), np.int64)
            referee_pieces(b.walls, b.dices, b.dealers, b.recs, b.offs, b.lens, rec.rv, tb, ut,
                           rec.tp, res, stop, 4 * threads)  # fmt: skip

    timed("replay, 1 thread", lambda: replay(1), n)
    timed(f"replay, {top} threads", lambda: replay(top), n)
    timed("all: read, replay, JSON", lambda: [to_json(v) for v in rec.verdicts()], n)


if __name__ == "__main__":
    main()
