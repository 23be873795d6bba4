"""The database goes away (its server restarted, the members' connections cut): the
hosts stop acting as active at once and recover by themselves, without a restart of
their own, with nothing acknowledged lost."""

from functools import partial

import pytest

from tests.support.cluster import Cluster, wait_for, web_source
from tests.support.writes import check_fenced, write_log


def _tilewall_backends(cluster: Cluster) -> str:
    name = cluster.database.rsplit("/", 1)[1]
    return (
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )


@pytest.mark.timeout(180)
def test_connections_cut_by_the_server_the_hosts_recover(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second")
    assert first.api.post("/sources", json=web_source("before")).status_code == 200
    second.api  # noqa: B018
    for round_ in range(3):
        cut = cluster.server.psql(_tilewall_backends(cluster))
        assert int(cut) >= 2
        # one of them is active again, and serves writes; both follow
        active = cluster.active()
        name = f"after cut {round_}"
        wait_for(partial(active.creates_source, name), timeout=10)
        for host in (first, second):
            wait_for(partial(host.has_source, name), timeout=5)
    assert first.proc is not None and second.proc is not None  # neither restarted
    check_fenced(write_log(cluster.server, cluster.database))


@pytest.mark.timeout(240)
def test_the_database_restarted_the_hosts_recover(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second")
    assert first.api.post("/sources", json=web_source("before")).status_code == 200
    second.api  # noqa: B018
    cluster.server.stop("fast")
    try:
        # no member writes while the database is away (nothing can be acknowledged);
        # the group's view follows when the member's own link notices (its next tick)
        for host in (first, second):
            answer = host.api.post("/sources", json=web_source("while away"))
            assert answer.status_code == 503, answer.text
            wait_for(host.is_standby, timeout=5)
        # reads go on from memory
        assert first.source_names() == ["before"]
    finally:
        cluster.server.start()
    active = cluster.active()
    wait_for(partial(active.creates_source, "back"), timeout=15)
    for host in (first, second):
        wait_for(partial(host.lists_sources, ["back", "before"]), timeout=5)
    check_fenced(write_log(cluster.server, cluster.database))
