"""A cut between one host and the database: its role may no longer log in and its
sessions are ended, while the other host keeps its own. The cut host stops acting as
active at once, the other takes over, writes go on through it (the cut host forwards
them), nothing acknowledged is lost, and the cut host catches up once it may log in
again."""

import threading
import time
from functools import partial

import pytest

from tests.support.cluster import Cluster, Host, wait_for
from tests.support.writes import Stream, check_fenced, write_log


def _has_all(host: Host, names: set[str]) -> bool:
    return names <= set(host.source_names())


def _as_role(cluster: Cluster, role: str) -> str:
    """The cluster's database URL for ``role``, a superuser made for it (so that either
    member may end the other's sessions, as members with one role can)."""
    cluster.server.psql(f"CREATE ROLE {role} LOGIN SUPERUSER")
    user = cluster.database.split("://", 1)[1].split("@", 1)[0]
    return cluster.database.replace(f"://{user}@", f"://{role}@", 1)


@pytest.mark.timeout(240)
def test_one_host_cut_from_the_database_in_a_stream_of_writes(cluster: Cluster) -> None:
    # roles are the server's: named after this test's database
    cut_role = f"first_{cluster.database.rsplit('/', 1)[1]}"
    first = cluster.host("first", database=_as_role(cluster, cut_role)).start()
    second = cluster.host("second", database=_as_role(cluster, f"second_{cut_role}")).start()
    wait_for(lambda: first.role() == "active" and second.role() == "standby", timeout=15)
    ids = {h.name: h.group()["memberId"] for h in (first, second)}
    second.api  # noqa: B018

    stream = Stream([first, second])
    writer = threading.Thread(target=stream.run, args=(time.monotonic() + 120,))
    writer.start()
    wait_for(lambda: len(stream.acked) >= 20, timeout=30)
    cut_at = time.monotonic()
    cluster.server.psql(f"ALTER ROLE {cut_role} NOLOGIN")
    ended = cluster.server.psql(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        f"WHERE usename = '{cut_role}'"
    )
    assert int(ended) >= 1
    try:
        wait_for(lambda: second.role() == "active", timeout=15, every=0.1)
        took = time.monotonic() - cut_at
        wait_for(lambda: len(stream.after(cut_at)) >= 10, timeout=60)
        print(f"cut: the other host active {took:.2f} s after the cut")
        # its writes were refused from the moment its link failed (check_fenced below);
        # the role it reports follows once it has stepped down, which a loaded machine
        # can finish after the other host's first writes (duties still starting finish
        # starting first: up to 10 s)
        first.becomes("standby", timeout=12)
        print(f"cut: the cut host a standby {time.monotonic() - cut_at:.2f} s after the cut")
    finally:
        cluster.server.psql(f"ALTER ROLE {cut_role} LOGIN")
    stream.stop.set()
    writer.join(30)

    log = write_log(cluster.server, cluster.database)
    writers = check_fenced(log)
    assert list(writers.values()) == [ids["first"], ids["second"]]
    created = {key for row in log for kind, key in row["changed"] if kind == "source"}
    assert {a.source_id for a in stream.acked} <= created
    acked = {a.name for a in stream.acked}
    for host in (first, second):
        wait_for(partial(_has_all, host, acked), timeout=30)
    print(f"writes: {len(stream.acked)} acknowledged, {stream.refused} refused, {len(log)} logged")
