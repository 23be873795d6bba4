"""Receiver devices on the network: list, read, lock, unlock, reset. ``{ip}`` is the
receiver's address as the host sees it, or its seat id when several share an address."""

from typing import Annotated, Any

import msgspec
from litestar import get, put

from tilewall.api.common import EXTENSION_TAG, Extension, errors
from tilewall.host.errors import NotFound
from tilewall.host.host import Host
from tilewall.host.model import Station

TAGS = ["Receiver devices"]


class DeviceId(msgspec.Struct):
    value: str


class DeviceItem(msgspec.Struct):
    id: DeviceId
    type: str
    vid: str
    pid: str
    manufacturer: str
    model: str
    serial: str


class ReceiverDevice(msgspec.Struct):
    seatId: str
    name: str
    location: str
    ip: str
    mac: str
    status: str
    devices: list[DeviceItem]
    model: str
    firmware: str
    isOnline: bool
    displayId: int | None = None


class NetworkList(msgspec.Struct):
    network: list[ReceiverDevice]


class Identity(msgspec.Struct, forbid_unknown_fields=True):
    """What operators call a receiver; an absent field is kept."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=r"\S")] | None = None
    location: Annotated[str, msgspec.Meta(max_length=256)] | None = None


class UsbDevices(msgspec.Struct):
    devices: list[dict[str, Any]]


def shape(station: Station, online: bool) -> ReceiverDevice:
    devices = []
    if station.screen is not None:
        devices.append(
            DeviceItem(
                DeviceId(f"{station.seat_id}:display"),
                "DISPLAY",
                "",
                "",
                "",
                f"{station.screen.width}x{station.screen.height}",
                "",
            )
        )
    return ReceiverDevice(
        station.seat_id,
        station.name,
        station.location,
        station.ip,
        station.mac,
        "CONNECTED" if station.locked else "AVAILABLE",
        devices,
        station.model,
        station.firmware,
        online,
        station.display_id if station.locked else None,
    )


def _device(host: Host, station: Station) -> ReceiverDevice:
    return shape(station, host.stations.is_online(station.seat_id))


@get("/network", tags=TAGS, summary="List receiver devices", responses=errors())
async def list_network(host: Host) -> NetworkList:
    stations = sorted(host.state.stations.values(), key=lambda s: s.seat_id)
    return NetworkList([_device(host, s) for s in stations])


@get(
    "/network/devices/{seatId:str}",
    tags=TAGS,
    summary="USB devices of a seat",
    responses=errors(404),
)
async def usb_devices(host: Host, seatId: str) -> UsbDevices:
    station = host.stations.station(seatId)
    if not station.usb_devices:
        raise NotFound(f"no devices found on seat {station.seat_id!r}")
    return UsbDevices(list(station.usb_devices))


@get("/network/{ip:str}", tags=TAGS, summary="Read a receiver device", responses=errors(404, 409))
async def get_device(host: Host, ip: str) -> ReceiverDevice:
    return _device(host, host.stations.station(ip))


@put(
    "/network/{ip:str}/reset",
    tags=TAGS,
    summary="Reset (reload) a receiver device",
    responses=errors(404, 409),
)
async def reset_device(host: Host, ip: str) -> ReceiverDevice:
    return _device(host, host.stations.reset_station(ip))


@put(
    "/network/{ip:str}/lock",
    tags=TAGS,
    summary="Lock a receiver device to this host",
    responses=errors(403, 404, 409),
)
async def lock_device(host: Host, ip: str) -> ReceiverDevice:
    return _device(host, await host.stations.lock(ip))


@put(
    "/network/{ip:str}/unlock",
    tags=TAGS,
    summary="Unlock a receiver device",
    responses=errors(404, 409),
)
async def unlock_device(host: Host, ip: str) -> ReceiverDevice:
    return _device(host, await host.stations.unlock(ip))


@put(
    "/network/{ip:str}",
    tags=[EXTENSION_TAG, *TAGS],
    summary="Name a receiver device and say where it is",
    description="Sets `name` (1 to 256 characters) and `location` (up to 256); "
    "a field left out is kept.",
    responses=errors(404, 409),
    operation_class=Extension,
)
async def set_device_identity(
    host: Host,
    ip: str,
    data: Identity,
) -> ReceiverDevice:
    return _device(host, await host.stations.set_identity(ip, data.name, data.location))


ROUTES = [
    list_network,
    usb_devices,
    get_device,
    set_device_identity,
    reset_device,
    lock_device,
    unlock_device,
]
