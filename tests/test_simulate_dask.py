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


def test_tcp_scheduler_address_equals_single_process(monkeypatch):
    from dask.distributed import LocalCluster

    monkeypatch.setattr(SIM, "CHUNK_SESSIONS", 3)
    local = SIM.simulate(hands=48, seed=8, threads=1)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        addr = cluster.scheduler_address
        assert addr.startswith("tcp://")
        dist = SIM.simulate(hands=48, seed=8, scheduler=addr)
    assert (dist.counts == local.counts).all()


def test_unreachable_scheduler_is_a_usage_error():
    from ccmj_cli.errors import UsageError

    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        SIM.simulate(hands=4, seed=1, scheduler="tcp://127.0.0.1:9")
