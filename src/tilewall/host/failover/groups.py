"""Failover: this host's membership of a failover group, in the interface's two forms.

A host is in at most one group: a version 1 group (``failover_v1``: group name and the
member systems) or a version 2 group (``failover_v2``: peer address and shared
password). The failover network settings (``failover_network``) say which interface
and peer the failover link uses. All three are this member's own settings (kept with
the member, not in the group's shared state); none of them changes mapping data.

A failover group is real: its members are hosts on one PostgreSQL database, one of
them active (see :mod:`tilewall.host.hostgroup.membership`). Joining checks that: the peer
(version 2) or every other system (version 1) must be a member registered in this
host's database, else the request answers 409 saying the hosts do not share one.
"""

import ipaddress
from typing import Protocol
from urllib.parse import urlsplit

import msgspec

from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.hostgroup.members import GroupStatus, MemberInfo
from tilewall.host.hostgroup.membership import Policy
from tilewall.host.machine.facts import SYSTEM_ID_SETTING
from tilewall.host.machine.slot import MachineSlot
from tilewall.host.ports import GroupCoordination
from tilewall.host.state import Core

V1 = "failover_v1"
V2 = "failover_v2"
NETWORK = "failover_network"
#: this host's stable system id, generated on first need
SYSTEM_ID = SYSTEM_ID_SETTING

MAX_SYSTEMS = 2
MAX_GRACE_S = 86_400
MAX_TEXT = 255


class System(msgspec.Struct):
    hostname: str
    system_id: str


class GroupV1(msgspec.Struct):
    name: str
    systems: list[System]
    autofailback: bool = False
    grace_s: int = 0
    hostname_switching: bool = False


class GroupV2(msgspec.Struct):
    name: str
    peer_ip: str
    password: str
    primary: bool = False
    auto_failover: bool = True
    auto_failback: bool = False
    grace_s: int = 0
    hostname_switching: bool = False
    interface: str = ""


class NetworkSettings(msgspec.Struct):
    #: blank means the system default
    interface: str = ""
    auto_discover_peer: bool = True
    peer_ip: str = ""


def _text(value: str, field: str, required: bool = True) -> str:
    value = value.strip()
    if required and not value:
        raise Invalid(f"{field} must not be empty")
    if len(value) > MAX_TEXT:
        raise Invalid(f"{field} must be at most {MAX_TEXT} characters")
    if any(ord(c) < 32 for c in value):
        raise Invalid(f"{field} must not contain control characters")
    return value


def _grace(value: int, field: str) -> int:
    if not 0 <= value <= MAX_GRACE_S:
        raise Invalid(f"{field} must be between 0 and {MAX_GRACE_S} seconds")
    return value


def _ip(value: str, field: str, allow_empty: bool) -> str:
    value = value.strip()
    if not value and allow_empty:
        return ""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise Invalid(f"{field} must be an IP address, not {value!r}") from None


def split_peer(value: str) -> tuple[str, int | None]:
    """``IP``, ``IP:PORT`` or ``[IPv6]:PORT`` as (address, port or None); Invalid
    naming peerIP otherwise."""
    value = value.strip()
    host, port = value, None
    if value.startswith("["):
        inside, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise Invalid(f"peerIP must be an IP address, optionally with :PORT, not {value!r}")
        host, port_text = inside, rest[1:] if rest else ""
        port = _port(port_text, value) if rest else None
    elif value.count(":") == 1:
        host, port_text = value.split(":")
        port = _port(port_text, value)
    return _ip(host, "peerIP", allow_empty=False), port


def _port(text: str, value: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise Invalid(f"peerIP's port must be 1 to 65535, not {value!r}")
    return int(text)


def _peer_text(address: str, port: int | None) -> str:
    if port is None:
        return address
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def _where(member: MemberInfo) -> tuple[str, int]:
    parts = urlsplit(member.address)
    return parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)


SHARED_DATABASE = (
    "the members of a failover group keep their state in one PostgreSQL database: "
    "start each of them with the same --database postgresql://..."
)


def _interface(value: str, field: str) -> str:
    value = value.strip()
    if len(value) > 64 or any(c.isspace() or c == "/" for c in value):
        raise Invalid(f"{field} must be an interface name (blank for the system default)")
    return value


class PolicyListener(Protocol):
    async def policy_changed(self) -> None:
        """This member's failover settings changed."""
        ...


class Failover:
    def __init__(
        self, core: Core, machine: MachineSlot, coordination: GroupCoordination | None
    ) -> None:
        #: this member's own settings (not the group's shared state)
        self._core = core
        self._machine = machine
        #: the group of hosts on this database; None for a host on its own store
        self._coordination = coordination
        self._listener: PolicyListener | None = None

    def report_to(self, listener: PolicyListener) -> None:
        """Tell ``listener`` of every change of the failover settings; set once.

        The host's group of hosts asks this service for its :meth:`policy`, and this
        service tells the group when the policy changed: the two need each other, so the
        group is built with :meth:`policy` and handed here once it exists.
        """
        if self._listener is not None:
            raise RuntimeError("the failover settings already report to a listener")
        self._listener = listener

    def policy(self) -> Policy:
        """What this member's failover settings say about taking the active role."""
        settings = self._core.state.settings
        if settings.get(V2) is not None:
            v2 = msgspec.convert(settings[V2], GroupV2)
            return Policy(
                True,
                v2.name,
                v2.primary,
                v2.auto_failover,
                v2.auto_failback,
                v2.grace_s,
                v2.hostname_switching,
            )
        if settings.get(V1) is not None:
            v1 = msgspec.convert(settings[V1], GroupV1)
            primary = bool(v1.systems) and self.is_local(v1.systems[0])
            return Policy(
                True, v1.name, primary, True, v1.autofailback, v1.grace_s, v1.hostname_switching
            )
        return Policy()

    async def _announce(self) -> None:
        if self._listener is not None:
            await self._listener.policy_changed()

    async def _shared_group(self) -> GroupStatus:
        if self._coordination is None:
            raise Conflict(
                "this host keeps its state in a database of its own (SQLite); " + SHARED_DATABASE
            )
        return await self._coordination.fresh_status()

    async def _check_peer(self, peer_ip: str) -> None:
        """The peer must be another member registered in this host's database."""
        status = await self._shared_group()
        address, port = split_peer(peer_ip)
        for member in status.members:
            host, member_port = _where(member)
            if host != address or port not in (None, member_port):
                continue
            if member.member_id != status.member_id:
                return
            if port is not None:
                raise Invalid(f"peerIP {peer_ip!r} is this host itself; name the other member")
        raise Conflict(
            f"no host at {peer_ip} is a member of this host's database "
            f"({status.database}): the hosts do not share one database; {SHARED_DATABASE}"
        )

    async def _check_systems(self, group: GroupV1) -> None:
        status = await self._shared_group()
        known = {m.system_id for m in status.members}
        for system in group.systems:
            if self.is_local(system) or system.system_id in known:
                continue
            raise Conflict(
                f"system {system.system_id!r} ({system.hostname}) is not a member of this "
                f"host's database ({status.database}): the hosts do not share one "
                f"database; {SHARED_DATABASE}"
            )

    # this host

    def local_system_id(self) -> str | None:
        """This host's system id, or None before one was needed."""
        raw = self._core.state.settings.get(SYSTEM_ID)
        return raw if isinstance(raw, str) and raw else None

    async def system_id(self) -> str:
        """This host's stable system id (the one GET /system reports), made if needed."""
        return await self._machine.adapters.facts.system_id()

    async def replace_system_id(self, system_id: str) -> None:
        """Give this host another system id (a second member of a group on one machine)."""
        async with self._core.change() as tx:
            tx.put_setting(SYSTEM_ID, system_id)

    # version 1

    def group_v1(self) -> GroupV1:
        raw = self._core.state.settings.get(V1)
        if raw is None:
            raise NotFound(self._not_member(1, V2, "/failover-group-v2"))
        return msgspec.convert(raw, GroupV1)

    def _not_member(self, version: int, other: str, other_path: str) -> str:
        if self._core.state.settings.get(other) is not None:
            return (
                f"not in a version {version} failover group: the host is in a version "
                f"{3 - version} group (see {other_path})"
            )
        return "not in a failover group"

    def is_local(self, system: System) -> bool:
        return system.system_id == self.local_system_id()

    def _check_v1(self, group: GroupV1) -> GroupV1:
        name = _text(group.name, "groupname")
        if not group.systems:
            raise Invalid("systems must name at least one system")
        if len(group.systems) > MAX_SYSTEMS:
            raise Invalid(f"systems may name at most {MAX_SYSTEMS} systems")
        systems: list[System] = []
        seen: set[str] = set()
        for i, system in enumerate(group.systems):
            hostname = _text(system.hostname, f"systems[{i}].hostname")
            system_id = _text(system.system_id, f"systems[{i}].systemID")
            if system_id in seen:
                raise Invalid(f"systems[{i}].systemID {system_id!r} is given twice")
            seen.add(system_id)
            systems.append(System(hostname, system_id))
        grace = _grace(group.grace_s, "autofailbackGracePeriodInSeconds")
        return GroupV1(name, systems, group.autofailback, grace, group.hostname_switching)

    async def join_v1(self, group: GroupV1) -> GroupV1:
        """Create and join a version 1 group; sending the same request again is harmless.

        The group need not list this host's system id: it is kept, and no system of it
        is then this host.
        """
        checked = self._check_v1(group)
        await self.system_id()
        if self._core.state.settings.get(V2) is not None:
            raise Conflict("the host is already in a version 2 failover group; leave it first")
        await self._check_systems(checked)
        async with self._core.change() as tx:
            if self._core.state.settings.get(V2) is not None:
                raise Conflict("the host is already in a version 2 failover group; leave it first")
            tx.put_setting(V1, checked)
        await self._announce()
        return checked

    async def leave_v1(self) -> GroupV1:
        async with self._core.change() as tx:
            group = self.group_v1()
            tx.put_setting(V1, None)
        await self._announce()
        return group

    # version 2

    def group_v2(self) -> GroupV2:
        raw = self._core.state.settings.get(V2)
        if raw is None:
            raise NotFound(self._not_member(2, V1, "/failover-group"))
        return msgspec.convert(raw, GroupV2)

    def _check_v2(self, group: GroupV2) -> GroupV2:
        if not group.password:
            raise Invalid("password must not be empty")
        if len(group.password) > 1024:
            raise Invalid("password must be at most 1024 characters")
        return GroupV2(
            name=_text(group.name, "groupName"),
            peer_ip=_peer_text(*split_peer(group.peer_ip)),
            password=group.password,
            primary=group.primary,
            auto_failover=group.auto_failover,
            auto_failback=group.auto_failback,
            grace_s=_grace(group.grace_s, "autoFailbackGraceSeconds"),
            hostname_switching=group.hostname_switching,
            interface=_interface(group.interface, "failoverInterface"),
        )

    async def join_v2(self, group: GroupV2) -> GroupV2:
        """Create and join a version 2 group; refused while the host is in any group."""
        checked = self._check_v2(group)
        self._refuse_when_joined()
        await self._check_peer(checked.peer_ip)
        async with self._core.change() as tx:
            self._refuse_when_joined()
            tx.put_setting(V2, checked)
        await self._announce()
        return checked

    def _refuse_when_joined(self) -> None:
        settings = self._core.state.settings
        if settings.get(V2) is not None:
            raise Conflict("the host is already in a failover group; leave it first")
        if settings.get(V1) is not None:
            raise Conflict("the host is already in a version 1 failover group; leave it first")

    async def leave_v2(self) -> GroupV2:
        async with self._core.change() as tx:
            group = self.group_v2()
            tx.put_setting(V2, None)
        await self._announce()
        return group

    # failover network settings

    def available_interfaces(self) -> list[str]:
        try:
            return list(self._machine.adapters.facts.interface_names())
        except Exception:  # a machine without the facility still answers
            return []

    def network(self) -> NetworkSettings:
        return self._core.setting(NETWORK, NetworkSettings, NetworkSettings())

    async def set_network(
        self,
        interface: str | None = None,
        auto_discover_peer: bool | None = None,
        peer_ip: str | None = None,
    ) -> NetworkSettings:
        """Change the given settings; the others keep their values."""
        current = self.network()
        new = NetworkSettings(
            interface=current.interface
            if interface is None
            else _interface(interface, "failoverInterface"),
            auto_discover_peer=current.auto_discover_peer
            if auto_discover_peer is None
            else auto_discover_peer,
            peer_ip=current.peer_ip if peer_ip is None else _ip(peer_ip, "peerIP", True),
        )
        async with self._core.change() as tx:
            tx.put_setting(NETWORK, new)
        return new
