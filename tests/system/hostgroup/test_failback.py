"""autoFailback: a primary that comes back takes over again after the grace period, or
stays a standby when autoFailback is false."""

import time

import pytest

from tests.support.cluster import Cluster, Host, wait_for, web_source
from tests.support.writes import check_fenced, write_log
from tests.system.hostgroup.test_failover_ops import v2

GRACE_S = 2


def _form(cluster: Cluster, failback: bool, switching: bool = False) -> tuple[Host, Host]:
    primary, other = cluster.start("primary", "other")
    for host, peer, is_primary in ((primary, other, True), (other, primary, False)):
        body = v2(
            peer,
            is_primary,
            autoFailback=failback,
            autoFailbackGraceSeconds=GRACE_S,
            useHostNameSwitching=switching,
        )
        answer = host.api.post("/failover-group-v2", json=body)
        assert answer.status_code == 200, answer.text
    return primary, other


@pytest.mark.timeout(180)
def host_name(host: Host) -> str:
    return str(host.api.get("/system/hostname").json()["hostName"])


def test_a_returning_primary_takes_over_after_the_grace_period(cluster: Cluster) -> None:
    own = host_name(cluster.start("probe")[0])
    cluster.hosts.pop().stop()
    primary, other = _form(cluster, failback=True, switching=True)
    # host-name switching (simulated: no host management): the active host has the
    # group's name
    wait_for(lambda: host_name(primary) == "lobby", timeout=5)
    assert host_name(other) == own
    primary.kill()
    assert cluster.active() is other
    wait_for(lambda: host_name(other) == "lobby", timeout=5)
    assert (
        other.api.post("/sources", json=web_source("while the primary was away")).status_code == 200
    )

    primary.start()
    assert "while the primary was away" in primary.source_names()
    wait_for(lambda: primary.role() == "active", timeout=GRACE_S + 8)
    wait_for(lambda: other.role() == "standby", timeout=5)
    view = primary.group()
    # it was back (registered as a member again) for the grace period first: times of
    # the database's clock
    me = next(m for m in view["members"] if m["local"])
    took = (view["lastTakeover"]["atMs"] - me["startedMs"]) / 1000
    print(f"failback: the primary active again {took:.2f} s after its return (grace {GRACE_S} s)")
    assert GRACE_S <= took < GRACE_S + 5
    assert view["lastTakeover"]["memberId"] == view["memberId"]
    assert view["lastTakeover"]["previousAddress"] == other.address
    assert host_name(primary) == "lobby"
    wait_for(lambda: host_name(other) == own, timeout=5)  # given back
    assert primary.api.post("/sources", json=web_source("after failback")).status_code == 200
    wait_for(lambda: "after failback" in other.source_names(), timeout=2)
    check_fenced(write_log(cluster.server, cluster.database))


@pytest.mark.timeout(180)
def test_without_autofailback_the_primary_stays_a_standby(cluster: Cluster) -> None:
    primary, other = _form(cluster, failback=False)
    primary.kill()
    assert cluster.active() is other
    primary.start()
    time.sleep(GRACE_S + 3)
    assert primary.role() == "standby"
    assert other.role() == "active"
