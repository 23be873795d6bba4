"""Devices refused a locked station (a replacement device, say), and re-pairing a
station to the newest of them: unlock and lock as one change, the station's new key
bound to that device. tilewall extensions."""

from datetime import UTC, datetime

import msgspec
from litestar import get, put

from tilewall.api.common import extension
from tilewall.api.resources.network import ReceiverDevice, device
from tilewall.host.host import Host

TAGS = ["Receiver devices"]


class Refused(msgspec.Struct):
    """A connection asking for ``seatId`` without its key: from ``ip``, since ``since``
    (ISO 8601, UTC); ``role`` "page" (a receiver page) or "agent" (its kiosk agent)."""

    seatId: str
    ip: str
    role: str
    since: str
    sinceMs: int


class RefusedList(msgspec.Struct):
    refused: list[Refused]


@extension(
    get,
    "/refusals",
    TAGS,
    "Devices refused a locked station",
    description="The connections, open now, that asked for a locked station without "
    "its key, newest first for each station.",
)
async def list_refusals(host: Host) -> RefusedList:
    found = host.stations.refusals.all()
    return RefusedList(
        [Refused(r.seat_id, r.ip, r.role, _iso(r.since_ms), r.since_ms) for r in found]
    )


@extension(
    put,
    "/network/{ip:str}/repair",
    TAGS,
    "Re-pair a receiver device to the screen that asks for it",
    403,
    404,
    409,
    description="Locks the station to the device it refused most recently (unlock and "
    "lock as one change): that device becomes the station at once, with a new key; the "
    "device that held it is refused from then on. 409 when no other device asks for it.",
)
async def repair_device(host: Host, ip: str) -> ReceiverDevice:
    return device(host, await host.stations.repair(ip))


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds")


ROUTES = [list_refusals, repair_device]
