"""No false takeovers: a group of two under load (writes and reads on both members,
receivers coming and going on the active one) keeps its active member. A member busy
answering is not stalled: it keeps renewing its lease, nobody ends its sessions, the
generation stays as it was. (The figures under the benchmarks' full load:
bench/groupload.py, BENCHMARKS.md.)"""

import pytest

from tests.support.cluster import Cluster, Host
from tests.support.load import Load

#: the default lease time (TILEWALL_GROUP_LEASE_MS)
LEASE_S = 5.0
LOAD_S = 18.0


def _sample(host: Host, name: str, **labels: str) -> float:
    return host.metrics()[(name, tuple(sorted(labels.items())))]


@pytest.mark.timeout(240)
def test_a_group_under_load_keeps_its_active_host(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second")
    assert first.role() == "active" and second.role() == "standby"
    second.api  # noqa: B018  (logged in: the load's clients use the hosts' sessions)
    generation = first.group()["generation"]
    assert second.group()["generation"] == generation
    before = first.metrics()

    load = Load([first, second], receivers_on=first)
    load.run(LOAD_S)

    # no takeover: the same active member, the same generation, nothing ended
    assert first.role() == "active" and second.role() == "standby"
    for host in (first, second):
        assert host.group()["generation"] == generation
        assert _sample(host, "tilewall_group_generation") == generation
        assert _sample(host, "tilewall_group_takeovers_total", how="stalled") == 0
    assert _sample(first, "tilewall_group_takeovers_total", how="free") == 1
    assert _sample(second, "tilewall_group_takeovers_total", how="free") == 0

    # under a load that was real: writes answered on both members, receivers came and
    # went (how much, the machine decides: a few dozen each on two busy CPUs, thousands
    # on quiet ones)
    for host in (first, second):
        answered = load.answers[host.name]
        print(f"{host.name}: answers by status {dict(answered)}")
        assert answered[200] >= 10, answered
    print(f"receivers welcomed {load.welcomed} times, {load.receiver_failures} failures")
    assert load.welcomed >= 10

    # the active member kept renewing its lease under the load, each time before it
    # ran out (the histogram of the lease's age at renewal, between the two scrapes)
    after = first.metrics()

    def renewed(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after[key] - before.get(key, 0.0)

    renewals = renewed("tilewall_group_lease_age_seconds_count")
    in_time = renewed("tilewall_group_lease_age_seconds_bucket", le=str(LEASE_S))
    lapses = renewed("tilewall_group_lease_lapses_total")
    print(
        f"lease: {renewals:.0f} renewals under load, {in_time:.0f} of them before the "
        f"lease ran out ({LEASE_S:.0f} s); {lapses:.0f} lapses"
    )
    assert renewals >= LOAD_S / 2
    assert in_time == renewals
