"""The live path of a host, assembled in one place: the relays of its live sources,
their fragmented-MP4 remux, and the ingest of screen shares and of kiosk devices'
captures feeding the relays."""

from dataclasses import dataclass

from tilewall.host.content.live import SHARE_SCHEME
from tilewall.host.content.screens import AGENT_SCHEME
from tilewall.host.host import Host
from tilewall.live.agentcapture import AgentCaptures
from tilewall.live.feeds import LiveRelays
from tilewall.live.fmp4 import Fmp4Feeds
from tilewall.live.latency import DelayPolicy
from tilewall.live.share import ShareIngests


@dataclass(frozen=True)
class LiveServices:
    relays: LiveRelays
    fmp4: Fmp4Feeds
    shares: ShareIngests
    captures: AgentCaptures


def live_services(host: Host, delays: DelayPolicy) -> LiveServices:
    """The live path of ``host``, wired to it and run as duties of its group's active
    member (a standby relays nothing and takes no shares)."""
    relays = LiveRelays(
        host.sources,
        host.core.clock,
        delays,
        serving=lambda: host.hostgroup.serving,
    )
    host.sources.feeds = relays
    shares = ShareIngests(host.shares, host.core.clock, delays)
    relays.makers[SHARE_SCHEME] = shares.feed
    # kiosk devices' capture devices: frames their agents send
    captures = AgentCaptures(host.core.clock, delays)
    relays.makers[AGENT_SCHEME] = captures.feed
    host.hostgroup.add_duty("live streams", relays.start, relays.stop)
    host.hostgroup.add_duty("screen shares", host.shares.clear_stale, shares.stop)
    return LiveServices(relays, Fmp4Feeds(relays), shares, captures)
