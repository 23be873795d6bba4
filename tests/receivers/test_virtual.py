"""Virtual receivers through the hub, without a browser or a socket."""

import asyncio

from tests.support.fakes import FakeHost, FakeMedia
from tilewall.host.memory import Event
from tilewall.host.model import Geometry, Monitor, Timeline, VideoWall, Zone
from tilewall.host.render.overlays import AlertOverlay, OverlaySwitches
from tilewall.receivers.hub import Hub
from tilewall.receivers.session import Limits
from tilewall.receivers.virtual import VirtualReceiver

from .test_render import signage


def wall(host: FakeHost) -> None:
    host.media = FakeMedia({"pics/a b.png": None, "pics/c.jpg": None, "intro.mp4": 2000})
    host.state.sources["sig"] = signage()
    host.state.walls["w"] = VideoWall(
        "w",
        "Wall",
        Geometry(200, 100, 100, 50),
        [Monitor(1, Geometry(100, 100, 50, 50)), Monitor(2, Geometry(100, 100, 150, 50))],
    )
    timeline = Timeline("sig", "playing", welcome=False, anchor_ms=host.now_ms())
    host.state.zones["z"] = Zone("z", "Zone", "w", [1, 2], timeline=timeline)


async def test_virtual_receivers_of_a_zone_show_the_same_item() -> None:
    host = FakeHost()
    wall(host)
    hub = Hub(host)
    await hub.start()
    receivers = [VirtualReceiver(hub, seat, clock=host.now_ms) for seat in ("v1", "v2")]
    try:
        for receiver in receivers:
            await receiver.connect()
        host.lock("v1", 1)
        host.lock("v2", 2)
        for receiver in receivers:
            await receiver.wait_for(lambda r: r.state is not None and r.state.role == "tile")
            assert receiver.offset_ms == 0
        for step_ms in (0, 4000, 6500, 12_100):
            host.clock.advance(step_ms)
            shown = [r.showing() for r in receivers]
            assert shown[0] == shown[1]
        assert shown[0].item == "intro.mp4" and shown[0].position_ms == 600  # 22600 % 12000 - 10000
        await receivers[0].report_status()
        status = hub.status("v1")
        assert status is not None and status.item == "intro.mp4"
        assert hub.acked_rev("v1") == hub.rev("v1") == receivers[0].rev

        host.overlay = OverlaySwitches(
            alert=AlertOverlay("Drill", "GREEN_LEVEL", host.now_ms() + 60_000)
        )
        host.publish(Event(None))
        await receivers[1].wait_for(lambda r: r.state.overlays.alert is not None)  # type: ignore[union-attr]
        await hub.reset(["v2"])
        await receivers[1].wait_for(lambda r: r.resets == 1)
    finally:
        for receiver in receivers:
            await receiver.disconnect()
        await hub.stop()
    assert host.online == {"v1": False, "v2": False}


async def test_unresponsive_virtual_receiver_goes_offline() -> None:
    host = FakeHost()
    hub = Hub(host, Limits(ping_interval_s=0.05, offline_after_s=0.3))
    await hub.start()
    receiver = VirtualReceiver(hub, "quiet")
    try:
        await receiver.connect()
        await asyncio.sleep(0.5)
        assert hub.online("quiet")
        receiver.responsive = False
        await receiver.wait_for(lambda r: r.closed, timeout=3)
        assert not hub.online("quiet")
        assert host.online["quiet"] is False
    finally:
        await receiver.disconnect()
        await hub.stop()
