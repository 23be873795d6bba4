"""In a group of hosts only the active member pulls live streams: a standby turns
viewers away to the active member, and when the active member dies the new one opens the
stream for the receivers that come to it."""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support.cluster import Cluster, wait_for
from tests.support.live_publish import Seen, collect, udp_ts, viewer
from tests.support.pgserver import PostgresServer
from tests.support.topology import unique

pytestmark = pytest.mark.live


@pytest.fixture
def cluster(postgres_server: PostgresServer, postgres_url: str, tmp_path):
    made = Cluster(postgres_server, postgres_url, tmp_path)
    try:
        yield made
    finally:
        made.stop_all()


def _token(host) -> str:
    assert host.api is not None  # logs in (again after a restart)
    return str(host.token)


def _frames(n: int):
    return lambda seen: len(seen.frames) >= n


def _members(cluster):
    """A group of two started: its active member and its standby."""
    first, second = cluster.start("first", "second")
    active = cluster.active()
    return active, second if active is first else first


def _camera(host, name: str, url: str, *params: tuple[str, str]) -> str:
    """An RTSP Streamer source of ``url`` (and ``params``) made on ``host``: its id."""
    values = [("URL", url), *params]
    body = {
        "sourceName": unique(name),
        "sourceType": "RTSP Streamer",
        "params": [{"type": "", "paramName": n, "paramValue": v} for n, v in values],
    }
    answer = host.api.post("/sources", json=body)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["sourceId"])


async def test_only_the_active_member_relays_and_the_next_one_takes_over(cluster):
    active, standby = _members(cluster)
    with udp_ts("h264") as camera:
        source_id = _camera(active, "Gate", camera.url)
        wait_for(lambda: source_id in str(standby.api.get("/sources").json()))

        async with viewer(standby.address, source_id, _token(standby)) as socket:
            seen = Seen()
            with pytest.raises(ConnectionClosed) as closed:
                await collect(socket, seen, lambda s: False, timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4002
            assert seen.states() == ["failed"] and "standby" in seen.texts[0]["message"]

        async with viewer(active.address, source_id, _token(active)) as socket:
            await collect(socket, Seen(), _frames(10))
        active.kill()
        now_active = cluster.active()
        assert now_active is standby
        async with viewer(standby.address, source_id, _token(standby)) as socket:
            seen = await collect(socket, Seen(), _frames(10), timeout=30)
            assert seen.frames[0].key


def _state(host, source_id: str) -> str:
    answer = host.api.get(f"/sources/{source_id}/status")
    return str(answer.json()["state"]) if answer.status_code == 200 else ""


async def test_a_source_kept_open_is_opened_by_the_next_active_member(cluster):
    """Keep Open is a duty of the active member: the standby holds nothing open, and the
    member that takes over opens the kept source before anyone shows it."""
    active, standby = _members(cluster)
    with udp_ts("h264") as camera:
        source_id = _camera(active, "Kept gate", camera.url, ("Keep Open", "true"))
        wait_for(lambda: _state(active, source_id) == "live", timeout=30)
        assert active.api.get(f"/sources/{source_id}/status").json()["viewers"] == 0
        assert _state(standby, source_id) != "live"

        active.kill()
        assert cluster.active() is standby
        # opened by the new active member, with nobody showing it
        wait_for(lambda: _state(standby, source_id) == "live", timeout=30)
        assert standby.api.get(f"/sources/{source_id}/status").json()["viewers"] == 0
        async with viewer(standby.address, source_id, _token(standby)) as socket:
            seen = await collect(socket, Seen(), _frames(3), timeout=30)
        assert seen.states()[0] == "live" and seen.frames[0].key
