"""The rules of guests' share codes and of shares on a host with a clock that moves only
when told to: a code stops working when its time is up, and a host that starts again
finds screen-share sources without a sharer, gives their targets back what they played
and deletes them."""

import pytest

from tests.support.domain import WEB, locked_display, web
from tilewall.host.clock import ManualClock
from tilewall.host.content import catalogue
from tilewall.host.errors import Forbidden
from tilewall.host.host import Host
from tilewall.host.playback.shares import Shares, ShareTarget


async def test_a_code_works_only_while_it_is_shown(host: Host, clock: ManualClock) -> None:
    display = await locked_display(host, "guest-seat")
    codes = host.shares.codes
    shown = await codes.show(display, minutes=1)
    assert codes.check(shown.code, "10.0.0.9", display) == display
    clock.advance(61_000)
    assert codes.shown(display) is None
    with pytest.raises(Forbidden):
        codes.check(shown.code, "10.0.0.9", display)
    assert host.descriptions.describe("guest-seat").overlays.share_code is None


async def test_a_restarted_host_deletes_the_shares_it_no_longer_takes(host: Host) -> None:
    display = await locked_display(host, "share-seat")
    share = await host.shares.start(ShareTarget("display", str(display)), "admin", False)
    assert host.sources.get(share.id).type == catalogue.SCREEN_SHARE
    # what a host that starts again has: the state, and no shares in memory
    again = Shares(
        host.core, host.sources, host.playback, host.topology, host.stations, host.shares.codes
    )
    await again.clear_stale()
    assert share.id not in host.state.sources


async def test_a_restarted_host_gives_a_shares_target_back_what_it_played(host: Host) -> None:
    display = await locked_display(host, "restore-seat")
    page = await host.sources.create("Timetable", WEB, web())
    target = host.playback.for_display(host.state.displays[display])
    await host.playback.switch(target, page)
    before = host.state.displays[display].timeline
    share = await host.shares.start(ShareTarget("display", str(display)), "admin", False)
    await host.shares.show(share.id)
    assert host.state.displays[display].timeline.assigned_source_id == share.id
    again = Shares(
        host.core, host.sources, host.playback, host.topology, host.stations, host.shares.codes
    )
    await again.clear_stale()
    assert host.state.displays[display].timeline == before
    assert share.id not in host.state.sources
    assert "share_restores" not in host.state.settings  # given back once
