"""What tests of the host on fake ports share: a web source's params, a locked display,
and a snapshot of everything the host holds in memory."""

import msgspec

from tilewall.host.host import Host
from tilewall.host.model import Param

WEB = "Web Browser"


def web(url: str = "https://example.org/") -> list[Param]:
    return [Param("URL", "URL", url)]


def snapshot(host: Host) -> bytes:
    """Everything the host holds in memory, encoded, for before/after comparisons."""
    state = host.core.state
    return msgspec.json.encode(
        [
            {k: v for k, v in sorted(state.collection(kind).items())}
            for kind in ("station", "display", "wall", "zone", "mirror", "source", "preset")
        ]
        + [state.settings, state.mapping_generation]
    )


async def locked_display(host: Host, seat: str) -> int:
    await host.stations.hello(seat, "192.0.2.1", name=seat)
    station = await host.stations.lock(seat)
    assert station.display_id is not None
    return station.display_id
