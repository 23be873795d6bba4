"""Machine settings under /system: host name, time zone, network interfaces, partner
access and how receivers are assigned."""

from typing import Annotated

import msgspec
from litestar import get, put

from tilewall.api.common import errors
from tilewall.host.host import Host
from tilewall.host.machine.facts import InterfaceUpdate, NetworkInterface
from tilewall.host.machine.settings import TimeZone

TAGS = ["System"]


class HostNameOut(msgspec.Struct):
    hostName: str


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"


class HostNameIn(msgspec.Struct):
    #: RFC 1123: dot-separated labels of letters, digits and inner hyphens
    hostName: Annotated[
        str, msgspec.Meta(max_length=64, pattern=rf"^\s*{_LABEL}(?:\.{_LABEL})*\s*$")
    ]


class CurrentZone(msgspec.Struct):
    timezone: str
    #: minutes east of UTC, now (daylight saving included)
    offset: int


class TimeZoneOut(msgspec.Struct):
    currentTimeZone: CurrentZone
    availableTimeZones: list[str]


class TimeZoneIn(msgspec.Struct):
    timezone: Annotated[
        str,
        msgspec.Meta(min_length=1, description="A zone name from availableTimeZones."),
    ]


class PartnerAccess(msgspec.Struct):
    partnerAccess: bool


class AssignmentOut(msgspec.Struct):
    autoAssign: bool
    autoInherit: bool


class AssignmentIn(msgspec.Struct):
    autoAssign: bool | None = None
    autoInherit: bool | None = None


_SIMULATED = (
    " With host management off (the default) the change is kept by tilewall and the "
    "machine is left alone."
)


@get("/system/hostname", tags=TAGS, summary="Host name", responses=errors())
async def get_hostname(host: Host) -> HostNameOut:
    return HostNameOut(host.machine_settings.host_name())


@put(
    "/system/hostname",
    tags=TAGS,
    summary="Change the host name",
    description="Letters, digits and inner hyphens in dot-separated labels (RFC 1123), "
    "at most 64 characters." + _SIMULATED,
    responses=errors(503),
)
async def put_hostname(host: Host, data: HostNameIn) -> HostNameOut:
    return HostNameOut(await host.machine_settings.set_host_name(data.hostName))


def _zones(zone: TimeZone) -> TimeZoneOut:
    return TimeZoneOut(CurrentZone(zone.current, zone.offset_minutes), zone.available)


@get(
    "/system/timezone",
    tags=TAGS,
    summary="Time zone and the zones available",
    description=(
        "`currentTimeZone.offset` is the zone's offset from UTC now, in minutes east of "
        "UTC, daylight saving included: Europe/Berlin in winter is 60, "
        "America/New_York in winter -300, Asia/Kolkata 330."
    ),
    responses=errors(),
)
async def get_timezone(host: Host) -> TimeZoneOut:
    return _zones(host.machine_settings.time_zone())


@put(
    "/system/timezone",
    tags=TAGS,
    summary="Change the time zone",
    description="An IANA zone name from availableTimeZones; others answer 400." + _SIMULATED,
    responses=errors(503),
)
async def put_timezone(host: Host, data: TimeZoneIn) -> TimeZoneOut:
    return _zones(await host.machine_settings.set_time_zone(data.timezone))


@get(
    "/system/networkinterfaces",
    tags=TAGS,
    summary="Network interfaces",
    description="500 with a message while an earlier update is still being applied.",
    responses=errors(500),
)
async def get_interfaces(host: Host) -> list[NetworkInterface]:
    return await host.machine_settings.network_interfaces()


@put(
    "/system/networkinterfaces",
    tags=TAGS,
    status_code=204,
    summary="Change one network interface",
    description=(
        "The body is validated at once (400 with a message when it cannot be parsed or "
        "makes no sense: unknown interface, bad address, gateway outside the subnet, "
        "DHCP client and server at once). The change is then applied in the background; "
        "until it is done GET answers 500. An update that fails within the first second "
        f"answers 500 with the reason; 204 means accepted, not yet in effect.{_SIMULATED}"
    ),
    responses=errors(500),
)
async def put_interface(host: Host, data: InterfaceUpdate) -> None:
    await host.machine_settings.update_network_interface(data)


@get(
    "/system/partneraccess",
    tags=TAGS,
    summary="Whether a support partner may access the host",
    responses=errors(),
)
async def get_partner_access(host: Host) -> PartnerAccess:
    return PartnerAccess(host.machine.partner_access())


@put(
    "/system/partneraccess",
    tags=TAGS,
    summary="Allow or forbid partner access",
    description="Forbidding it also stops remote control (/system/vpn) if it runs.",
    responses=errors(503),
)
async def put_partner_access(host: Host, data: PartnerAccess) -> PartnerAccess:
    return PartnerAccess(await host.machine.set_partner_access(data.partnerAccess))


_ASSIGNMENT_DOC = (
    "`autoAssign`: a receiver the host has never seen is locked to it as soon as it says "
    "hello (within the licence's station count); a station unlocked by an operator stays "
    "unlocked. `autoInherit`: a receiver the host has never seen that connects from the "
    "address of exactly one locked station that is offline replaces it on that seat: it "
    "takes over its display id, what it plays, its walls, zones and mirror groups, and "
    "the old station is left unlocked."
)


@get(
    "/system/receiverdeviceassignmentsettings",
    tags=TAGS,
    summary="Receiver assignment settings",
    description=_ASSIGNMENT_DOC,
    responses=errors(),
)
async def get_assignment(host: Host) -> AssignmentOut:
    a = host.stations.assignment()
    return AssignmentOut(a.auto_assign, a.auto_inherit)


@put(
    "/system/receiverdeviceassignmentsettings",
    tags=TAGS,
    summary="Change receiver assignment settings",
    description=_ASSIGNMENT_DOC + " A field left out keeps its value.",
    responses=errors(),
)
async def put_assignment(host: Host, data: AssignmentIn) -> AssignmentOut:
    a = await host.stations.set_assignment(data.autoAssign, data.autoInherit)
    return AssignmentOut(a.auto_assign, a.auto_inherit)


ROUTES = [
    get_hostname,
    put_hostname,
    get_timezone,
    put_timezone,
    get_interfaces,
    put_interface,
    get_partner_access,
    put_partner_access,
    get_assignment,
    put_assignment,
]
