"""Shares and a host that stops without ending them: a real ``tilewall serve`` process,
killed (SIGKILL: no shutdown, as a crash or a power cut) while a share plays on a
display and on a zone of a wall, and started again. What each target played before the
share is kept with the host's state, so the host that starts again gives it back and
deletes the share that no sharer sends to any more."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.server import ServerProcess, running
from tests.support.sharer import Sharer, new_display, playing
from tests.support.sources import WEB, source_body
from tests.support.topology import unique, wall_body
from tests.support.waiting import wait_until

pytestmark = pytest.mark.live


@pytest.fixture
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "share-restart")


def _web_source(host: Any, name: str) -> str:
    body = source_body(WEB, unique(name), URL="https://example.org/timetable")
    return str(host.ok("POST", "/sources", json=body)["sourceId"])


async def _shown(host: Any, target: str, target_id: str) -> Sharer:
    """A share to the target, its first frames sent: shown there."""
    sharer = Sharer(host.url)
    assert sharer.start(host.api, target, target_id).status_code == 201
    await sharer.connect()
    await sharer.send(15)
    return sharer


async def test_a_host_killed_during_shares_gives_their_targets_back_what_they_played(
    host: ServerProcess,
) -> None:
    display = new_display(host)
    timetable = _web_source(host, "Timetable")
    host.ok("PUT", f"/displays/{display}/switch", params={"destinationSourceId": timetable})
    tiles = [new_display(host) for _ in range(2)]
    wall = host.ok("POST", "/videowalls", json=wall_body(unique("Wall"), tiles))
    body = {"zoneName": unique("All"), "videowallId": wall["id"], "displayIds": tiles}
    zone = host.ok("POST", "/zones", json=body)["zoneId"]
    menu = _web_source(host, "Menu")
    host.ok("PUT", f"/zones/{zone}/switch", params={"destinationSourceId": menu})
    zone_before = host.ok("GET", f"/zones/{zone}")

    shares = [await _shown(host, "display", str(display)), await _shown(host, "zone", zone)]
    assert playing(host, display) == shares[0].source_id
    assert [playing(host, t) for t in tiles] == [shares[1].source_id] * 2

    host.kill()
    host.start()

    # the host gives them back as it starts taking shares (a duty of the active member)
    wait_until(lambda: playing(host, display) == timetable, 30, 0.2, "the timetable back")
    assert [playing(host, t) for t in tiles] == [menu] * 2
    assert host.ok("GET", f"/zones/{zone}") == zone_before  # the same timeline, not a new one
    assert host.ok("GET", "/shares")["shares"] == []
    sources = {s["sourceId"] for s in host.ok("GET", "/sources")["sources"]}
    assert not {s.source_id for s in shares} & sources
    for sharer in shares:
        await sharer.close()

    # nothing is given back twice: a later restart leaves what operators chose since
    host.ok("PUT", f"/displays/{display}/switch", params={"destinationSourceId": menu})
    host.kill()
    host.start()
    assert playing(host, display) == menu
