"""The table engine: one Changchun hand at a table of four, one module per phase.

``driver`` sequences a hand; ``wall``, ``claims``, ``kongs``, ``bao`` and ``settle`` hold the
table rules, each in the phase it belongs to; ``bots`` makes every decision a bot makes;
``state`` and ``layout`` are the state arrays and their slots. The hand judgment the phases ask
(legal win, waits, fan, payments) is the hand kernels' one level up.
"""
