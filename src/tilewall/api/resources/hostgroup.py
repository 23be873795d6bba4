"""The group of hosts this host belongs to (a tilewall extension): its members, which is
active and since when, and the last takeover. Every member answers it, for itself."""

import msgspec
from litestar import get

from tilewall.api.common import extension
from tilewall.host.host import Host
from tilewall.host.hostgroup.members import MemberInfo

TAGS = ["Failover"]


class MemberOut(msgspec.Struct):
    memberId: str
    address: str
    hostName: str
    systemId: str
    role: str
    sinceMs: int
    startedMs: int
    seenMs: int
    alive: bool
    local: bool
    groupName: str
    primary: bool


class TakeoverOut(msgspec.Struct):
    atMs: int
    memberId: str
    address: str
    previousMemberId: str | None
    previousAddress: str | None


class GroupOut(msgspec.Struct):
    #: solo (a host on its own store), active or standby
    role: str
    memberId: str | None = None
    database: str = ""
    connected: bool = False
    generation: int = 0
    revision: int = 0
    activeMemberId: str | None = None
    activeAddress: str | None = None
    activeSinceMs: int | None = None
    lastTakeover: TakeoverOut | None = None
    members: list[MemberOut] = msgspec.field(default_factory=list)


def _member(member: MemberInfo, me: str) -> MemberOut:
    details = member.details
    return MemberOut(
        member.member_id,
        member.address,
        member.host_name,
        member.system_id,
        str(member.role),
        member.since_ms,
        member.started_ms,
        member.seen_ms,
        member.alive,
        member.member_id == me,
        str(details.get("groupName") or ""),
        bool(details.get("primary")),
    )


def group_of(host: Host) -> GroupOut:
    status = host.hostgroup.status()
    if status is None:
        return GroupOut(str(host.hostgroup.role))
    active = status.active
    takeover = status.last_takeover
    shown = None
    if takeover is not None:
        to = status.member(takeover.member_id)
        before = status.member(takeover.previous)
        shown = TakeoverOut(
            takeover.at_ms,
            takeover.member_id,
            to.address if to else "",
            takeover.previous,
            before.address if before else None,
        )
    return GroupOut(
        role=str(host.hostgroup.role),
        memberId=status.member_id,
        database=status.database,
        connected=status.connected,
        generation=status.generation,
        revision=status.revision,
        activeMemberId=status.active_member,
        activeAddress=active.address if active else None,
        activeSinceMs=status.active_since_ms,
        lastTakeover=shown,
        members=[_member(m, status.member_id) for m in status.members],
    )


@extension(
    get,
    "/group",
    TAGS,
    "The group of hosts on this host's database: members, the active one, takeovers",
)
async def get_group(host: Host) -> GroupOut:
    return group_of(host)


ROUTES = [get_group]
