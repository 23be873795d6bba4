"""Failover groups (version 1 and version 2) and the failover network settings.

The version 2 group's password is write-only: GET answers it as an empty string.
"""

from collections.abc import Callable
from typing import Annotated

import msgspec
from litestar import delete, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.types import AnyCallable

from tilewall.api.common import Done, Method, documented, errors
from tilewall.host.failover.groups import GroupV1, GroupV2, NetworkSettings, System
from tilewall.host.host import Host

TAGS = ["Failover"]
V1_PATH = "/failover-group"
V2_PATH = "/failover-group-v2"
NETWORK_PATH = "/failover-group-network-settings"


#: not blank, at most 255 characters, no control characters
Text = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=255, pattern=r"^[^\x00-\x1f]*[^\s\x00-\x1f][^\x00-\x1f]*$"
    ),
]
#: seconds, up to a day
Grace = Annotated[int, msgspec.Meta(ge=0, le=86_400)]
#: an interface name, blank for the system default
Interface = Annotated[str, msgspec.Meta(max_length=64, pattern=r"^\s*[^\s/]*\s*$")]
_ADDRESS = [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}]
IP = Annotated[
    str,
    msgspec.Meta(
        description="An IPv4 or IPv6 address.", extra_json_schema={"extra": {"one_of": _ADDRESS}}
    ),
]
#: an address, blank for none, or null to keep the one set
OptionalIP = Annotated[
    str | None,
    msgspec.Meta(
        description="An IPv4 or IPv6 address, or blank for none; null keeps the one set.",
        extra_json_schema={
            "extra": {"one_of": [*_ADDRESS, {"type": "string", "maxLength": 0}, {"type": "null"}]}
        },
    ),
]


class SystemIn(msgspec.Struct):
    hostname: Text
    systemID: Annotated[Text, msgspec.Meta(description="Distinct within the group.")]


class SystemOut(msgspec.Struct):
    hostname: str
    systemID: str
    isLocalHost: bool


class GroupV1In(msgspec.Struct):
    groupname: Text
    systems: Annotated[list[SystemIn], documented(min_items=1, max_items=2)]
    autofailback: bool = False
    autofailbackGracePeriodInSeconds: Grace = 0
    hostnameSwitching: bool = False


class GroupV1Out(msgspec.Struct):
    groupname: str
    systems: list[SystemOut]
    autofailback: bool
    autofailbackGracePeriodInSeconds: int
    hostnameSwitching: bool


class GroupV2In(msgspec.Struct):
    groupName: Text
    peerIP: IP
    password: Annotated[str, msgspec.Meta(min_length=1, max_length=1024)]
    primary: bool = False
    autoFailover: bool = True
    autoFailback: bool = False
    autoFailbackGraceSeconds: Grace = 0
    useHostNameSwitching: bool = False
    failoverInterface: Interface = ""


class GroupV2Out(msgspec.Struct):
    groupName: str
    primary: bool
    autoFailover: bool
    autoFailback: bool
    autoFailbackGraceSeconds: int
    useHostNameSwitching: bool
    failoverInterface: str
    peerIP: str
    #: never the stored password: always empty
    password: str = ""


class NetworkIn(msgspec.Struct):
    failoverInterface: Interface | None = None
    autoDiscoverPeer: bool | None = None
    peerIP: OptionalIP = None


class NetworkOut(msgspec.Struct):
    failoverInterface: str
    availableInterfaces: list[str]
    autoDiscoverPeer: bool
    peerIP: str


def _failover(
    method: Method, path: str, summary: str, *codes: int, description: str | None = None
) -> Callable[[AnyCallable], HTTPRouteHandler]:
    """An operation of the failover resources: tagged Failover, documenting its refusals
    ``codes``; a POST or a DELETE answers 200."""
    status = None if method is get else 200
    return method(
        path,
        status_code=status,
        tags=TAGS,
        summary=summary,
        description=description,
        responses=errors(*codes),
    )


def _left(group: GroupV1 | GroupV2) -> Done:
    return Done(f"left failover group {group.name!r}")


def _v1(host: Host, group: GroupV1) -> GroupV1Out:
    return GroupV1Out(
        group.name,
        [SystemOut(s.hostname, s.system_id, host.failover.is_local(s)) for s in group.systems],
        group.autofailback,
        group.grace_s,
        group.hostname_switching,
    )


def _v2(group: GroupV2) -> GroupV2Out:
    return GroupV2Out(
        group.name,
        group.primary,
        group.auto_failover,
        group.auto_failback,
        group.grace_s,
        group.hostname_switching,
        group.interface,
        group.peer_ip,
    )


def _network(host: Host, settings: NetworkSettings) -> NetworkOut:
    return NetworkOut(
        settings.interface,
        host.failover.available_interfaces(),
        settings.auto_discover_peer,
        settings.peer_ip,
    )


@_failover(get, V1_PATH, "Read the failover group (version 1)", 404)
async def get_group_v1(host: Host) -> GroupV1Out:
    return _v1(host, host.failover.group_v1())


@_failover(
    post,
    V1_PATH,
    "Create and join a failover group (version 1); both members send the same request",
    409,
    description="The systems of a group have distinct systemIDs: 400 otherwise.",
)
async def join_group_v1(host: Host, data: GroupV1In) -> GroupV1Out:
    group = await host.failover.join_v1(
        GroupV1(
            data.groupname,
            [System(s.hostname, s.systemID) for s in data.systems],
            data.autofailback,
            data.autofailbackGracePeriodInSeconds,
            data.hostnameSwitching,
        )
    )
    return _v1(host, group)


@_failover(delete, V1_PATH, "Leave the failover group (version 1)", 404)
async def leave_group_v1(host: Host) -> Done:
    return _left(await host.failover.leave_v1())


@_failover(get, V2_PATH, "Read the failover group (version 2); the password is answered empty", 404)
async def get_group_v2(host: Host) -> GroupV2Out:
    return _v2(host.failover.group_v2())


@_failover(
    post,
    V2_PATH,
    "Create and join a failover group (version 2); a reboot is recommended after",
    409,
)
async def join_group_v2(host: Host, data: GroupV2In) -> GroupV2Out:
    group = await host.failover.join_v2(
        GroupV2(
            name=data.groupName,
            peer_ip=data.peerIP,
            password=data.password,
            primary=data.primary,
            auto_failover=data.autoFailover,
            auto_failback=data.autoFailback,
            grace_s=data.autoFailbackGraceSeconds,
            hostname_switching=data.useHostNameSwitching,
            interface=data.failoverInterface,
        )
    )
    return _v2(group)


@_failover(delete, V2_PATH, "Leave the failover group (version 2)", 404)
async def leave_group_v2(host: Host) -> Done:
    return _left(await host.failover.leave_v2())


@_failover(get, NETWORK_PATH, "Read the failover network settings", 404)
async def get_network(host: Host) -> NetworkOut:
    return _network(host, host.failover.network())


@_failover(
    post,
    NETWORK_PATH,
    "Change the failover network settings (fields left out keep their values); "
    "a reboot makes the change take effect",
)
async def set_network(host: Host, data: NetworkIn) -> NetworkOut:
    settings = await host.failover.set_network(
        data.failoverInterface, data.autoDiscoverPeer, data.peerIP
    )
    return _network(host, settings)


ROUTES = [
    get_group_v1,
    join_group_v1,
    leave_group_v1,
    get_group_v2,
    join_group_v2,
    leave_group_v2,
    get_network,
    set_network,
]
