"""The rules of guests' share codes and of shares on a host with a clock that moves only
when told to: a code stops working when its time is up, and a host that starts again
finds screen-share sources without a sharer and deletes them."""

import pytest

from tests.support.domain import locked_display
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
