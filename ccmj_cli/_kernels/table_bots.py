"""The baseline table bots (decisions only; the engine in ``table.py`` applies them).

Every rule judgment goes through the shared kernels: discards via ``policy.choose_discard``,
legality and waits via ``judge``. The bot's own logic is only *whether to act*:

- discard: ``policy.choose_discard`` (minimise shanten, ties by live useful tiles / legal waits);
- 吃/碰 (knob K_CALL): 1 = call when the best discard after the call leaves a lower shanten than
  the hand has now, 2 = when it does not raise it; never a call that leaves a tenpai with no
  legal wait or a 手把一 (single tile) hand that can no longer be 飘胡;
- 杠/补 (knob K_KONG): when the hand without the kong tiles is no worse (shanten) than after the
  best discard; a declared (报听) hand only when its legal waits stay the same;
- 报听 (knob K_DECLARE): as soon as a discard leaves the hand tenpai (a live legal wait);
- special kongs (knob K_SPECIAL): every one the starting hand holds;
- 胡: always, whenever the judgment says the win is legal.
"""

import numpy as np

from .jit import compiled_njit as njit
from .judge import W_LEGAL, judge_waits
from .layout import MS_CHOWS, MS_SETS, N_KINDS
from .policy import choose_discard, discard_value
from .shape import shanten


@njit(cache=True)
def legal_mask(c, ms, own, rv, tb, buf):
    """Bitmask of the legal waits of 3k+1 concealed tiles (live or not)."""
    judge_waits(c, ms, own, rv, tb, buf)
    m = np.int64(0)
    for t in range(N_KINDS):
        if buf[t, W_LEGAL]:
            m |= np.int64(1) << t
    return m


@njit(cache=True)
def best_after_discard(c, ms, own, unseen, rv, tb, buf):
    """(shanten, live) the 3k+2 tiles ``c`` leave after the policy's discard."""
    d = choose_discard(c, ms, own, unseen, rv, tb)
    c[d] -= 1
    own[d] -= 1
    sh, live = discard_value(c, ms, own, unseen, rv, tb, buf)
    c[d] += 1
    own[d] += 1
    return sh, live


@njit(cache=True)
def accept_call(level, sh_before, sh_after, live_after, ms_after):
    """The K_CALL rule for a chow or pung, given what the hand is worth before and after."""
    if level == 0:
        return False
    if sh_after == 0 and live_after == 0:
        return False  # a tenpai with no legal live wait
    if ms_after[MS_SETS] == 4 and ms_after[MS_CHOWS] > 0:
        return False  # 手把一 that can no longer be 飘胡
    if level == 1:
        return sh_after < sh_before
    return sh_after <= sh_before


@njit(cache=True)
def shanten_without(c, t, n, tb):
    """Shanten of ``c`` with n copies of t removed (restored afterwards)."""
    c[t] -= n
    sh = shanten(c, tb)
    c[t] += n
    return sh
