"""The Dask path: a LocalCluster with two worker processes gives the single-process result.

Needs the `dask` extra (`pip install '.[test,dask]'`); skipped cleanly when Dask is missing.
"""

import pytest

pytest.importorskip("dask.distributed")

from ccmj_cli import simulate as SIM  # noqa: E402


def test_local_cluster_equals_single_process(monkeypatch):
    monkeypatch.setattr(SIM, "CHUNK_SESSIONS", 2)  # several tasks spread over the two workers
    local = SIM.simulate(hands=64, seed=21, threads=1)
    dist = SIM.simulate(hands=64, seed=21, scheduler="local", workers=2)
    assert (dist.counts == local.counts).all()
    d = dist.to_dict()
    assert d["scheduler"] == "local" and d["hands"] == 64
