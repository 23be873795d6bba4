"""Receiver devices on the network: list, read, lock, unlock, reset. ``{ip}`` is the
receiver's address as the host sees it, or its seat id when several share an address."""

from typing import Annotated, Any

import msgspec
from litestar import get, put

from tilewall.api.common import errors, extension
from tilewall.api.read_cache import EncodedOnce, Key, encoded_route, state_revision
from tilewall.host.host import Host
from tilewall.host.model import Station
from tilewall.host.topology.agents import AgentInfo

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


class PowerStatus(msgspec.Struct):
    """The last time the agent switched its screen: ``result`` done or failed."""

    state: str
    result: str
    method: str
    message: str
    atMs: int


class AgentStatus(msgspec.Struct):
    """The kiosk agent beside the receiver page (a tilewall extension)."""

    online: bool
    version: str
    #: how it switches the screen: cec, ddc, dpms, command or none
    power: str
    serialPort: str
    browser: bool
    lastPower: PowerStatus | None = None


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
    #: null while no agent is connected
    agent: AgentStatus | None = None


class NetworkList(msgspec.Struct):
    network: list[ReceiverDevice]


class Identity(msgspec.Struct, forbid_unknown_fields=True):
    """What operators call a receiver; an absent field is kept."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=256, pattern=r"\S")] | None = None
    location: Annotated[str, msgspec.Meta(max_length=256)] | None = None


class UsbDevices(msgspec.Struct):
    devices: list[dict[str, Any]]


def _agent(info: AgentInfo | None) -> AgentStatus | None:
    if info is None:
        return None
    last = info.power_result
    return AgentStatus(
        True,
        info.version,
        info.power,
        info.serial_port,
        info.browser,
        None
        if last is None
        else PowerStatus(
            last.state, "done" if last.ok else "failed", last.method, last.message, last.at_ms
        ),
    )


def _item(item: dict[str, Any]) -> DeviceItem:
    text = {k: str(item.get(k, "")) for k in ("vid", "pid", "manufacturer", "model", "serial")}
    return DeviceItem(DeviceId(str(item.get("id", ""))), str(item.get("type", "")), **text)


def shape(station: Station, online: bool, agent: AgentInfo | None = None) -> ReceiverDevice:
    """``agent``: what the station's agent reports (its monitor from the EDID, its
    media devices), which stands for the page's screen size when there is one."""
    devices = [_item(item) for item in agent.items] if agent else []
    if station.screen is not None and not any(d.type == "DISPLAY" for d in devices):
        devices.insert(
            0,
            DeviceItem(
                DeviceId(f"{station.seat_id}:display"),
                "DISPLAY",
                "",
                "",
                "",
                f"{station.screen.width}x{station.screen.height}",
                "",
            ),
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
        _agent(agent),
    )


def device(host: Host, station: Station) -> ReceiverDevice:
    return shape(
        station,
        host.stations.is_online(station.seat_id),
        host.agents.connected.get(station.seat_id),
    )


def network_list(host: Host) -> NetworkList:
    stations = sorted(host.state.stations.values(), key=lambda s: s.seat_id)
    return NetworkList([device(host, s) for s in stations])


def _network_key(host: Host) -> Key:
    """Liveness and agents connecting are announced; device lists an agent reports
    move ``agents.reports``."""
    return (state_revision(host), host.agents.reports)


NETWORK = EncodedOnce(network_list, _network_key)
list_network = encoded_route(
    "/network", NETWORK, NetworkList, "list_network", "List receiver devices", TAGS
)


@get(
    "/network/devices/{seatId:str}",
    tags=TAGS,
    summary="USB devices of a seat",
    responses=errors(404),
)
async def usb_devices(host: Host, seatId: str) -> UsbDevices:
    """The udev devices (usb, input, tty, drm, sound) its kiosk agent reports; 404 while
    the seat has no agent connected."""
    return UsbDevices(host.agents.usb_devices(seatId))


@get("/network/{ip:str}", tags=TAGS, summary="Read a receiver device", responses=errors(404, 409))
async def get_device(host: Host, ip: str) -> ReceiverDevice:
    return device(host, host.stations.station(ip))


@put(
    "/network/{ip:str}/reset",
    tags=TAGS,
    summary="Reset (reload) a receiver device",
    responses=errors(404, 409),
)
async def reset_device(host: Host, ip: str) -> ReceiverDevice:
    return device(host, host.stations.reset_station(ip))


@put(
    "/network/{ip:str}/lock",
    tags=TAGS,
    summary="Lock a receiver device to this host",
    responses=errors(403, 404, 409),
)
async def lock_device(host: Host, ip: str) -> ReceiverDevice:
    return device(host, await host.stations.lock(ip))


@put(
    "/network/{ip:str}/unlock",
    tags=TAGS,
    summary="Unlock a receiver device",
    responses=errors(404, 409),
)
async def unlock_device(host: Host, ip: str) -> ReceiverDevice:
    return device(host, await host.stations.unlock(ip))


@extension(
    put,
    "/network/{ip:str}",
    TAGS,
    "Name a receiver device and say where it is",
    404,
    409,
    description="Sets `name` (1 to 256 characters) and `location` (up to 256); "
    "a field left out is kept.",
)
async def set_device_identity(
    host: Host,
    ip: str,
    data: Identity,
) -> ReceiverDevice:
    return device(host, await host.stations.set_identity(ip, data.name, data.location))


ROUTES = [
    list_network,
    usb_devices,
    get_device,
    set_device_identity,
    reset_device,
    lock_device,
    unlock_device,
]
