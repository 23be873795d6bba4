"""The demo belongs to the group: only the active host runs its virtual receivers (and
seeds the demo once); a standby shows who is online at the active host; after a
takeover the new active host runs them."""

import pytest

from tests.support.cluster import Cluster, Host, wait_for


def online(host: Host) -> list[int]:
    displays = host.api.get("/displays").json()["displays"]
    return sorted(d["displayId"] for d in displays if d["isOnline"])


@pytest.mark.timeout(180)
def test_only_the_active_host_runs_the_demo(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second", extra=("--demo",))
    shown = wait_for(lambda: len(online(first)) == 6 and online(first), timeout=10)
    # the standby shows the same, and seeded nothing of its own
    wait_for(lambda: online(second) == shown, timeout=5)
    assert len(first.api.get("/presets").json()["presets"]) == len(
        second.api.get("/presets").json()["presets"]
    )
    stations = first.api.get("/network").json()["network"]
    assert len(stations) == 7

    first.kill()
    assert cluster.active() is second
    wait_for(lambda: online(second) == shown, timeout=10)
    assert len(second.api.get("/network").json()["network"]) == 7  # the same seats, again
