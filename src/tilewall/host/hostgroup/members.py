"""The values that cross the group's coordination port: the members of a group of hosts
on one database, which of them is active, and the changes a standby follows.

A *member* is one host process on the group's database, named by a stable member id
(kept in its data directory). Exactly one member is *active*: the database says which
(see :class:`~tilewall.host.ports.GroupCoordination`); every other member is a *standby*.
"""

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tilewall.host.access.roles import Account


class Role(StrEnum):
    #: a host on its own store (SQLite): no group, always serving
    SOLO = "solo"
    #: a member of a group, not (yet) active: it follows the active member's changes
    STANDBY = "standby"
    #: the member of its group that serves writes, drives receivers and runs timers
    ACTIVE = "active"


@dataclass(frozen=True, slots=True)
class MemberInfo:
    """One member as registered in the group's database."""

    member_id: str
    #: where the member serves, ``http://HOST:PORT``
    address: str
    host_name: str
    system_id: str
    role: Role
    #: when the member took its current role (ms since the epoch, database clock)
    since_ms: int
    started_ms: int
    #: when the member last said it is alive (database clock)
    seen_ms: int
    #: whether it said so recently enough to count as alive
    alive: bool
    #: what the member publishes of its failover settings (group name, primary, ...)
    details: dict[str, Any] = field(default_factory=dict)
    #: the seats whose receivers are connected to it (only the active member has any)
    online: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Takeover:
    """A member became active: when, which member, and which member was active before
    (None when none was)."""

    at_ms: int
    member_id: str
    previous: str | None


#: the active member renews its lease every second; one this late (by the database's
#: clock) may have stalled: writes forwarded to it are given up, receivers held
LEASE_LATE_MS = 2500
#: after its lease runs out, a stalled member is replaced within about this long
TAKEOVER_MS = 2000

#: the upper bounds (ms) of the buckets that count the lease's renewals by the age the
#: lease had reached (renewed every second: a healthy group's fall in the first ones)
LEASE_AGE_BUCKETS_MS = (1000, 1100, 1250, 1500, 2000, 2500, 3000, 4000, 5000, 7500, 10000)


@dataclass(frozen=True, slots=True)
class LeaseRecord:
    """What one member did with the group's lease since it started: the figures that
    tell a takeover a stall caused from one it should not have made."""

    #: the lease time: a lease this old is run out and its member stalled
    lease_ms: int
    #: takeovers this member made of a free lock (the group's start, an active member
    #: gone or stepped down) and after ending a stalled active member's sessions
    took_free: int = 0
    took_stalled: int = 0
    #: times its watchdog saw its own event loop stall while active (its lease lapsed
    #: until renewed)
    lapses: int = 0
    #: renewals it made, counted by the age (database clock) of the lease they replaced,
    #: one count per bucket of :data:`LEASE_AGE_BUCKETS_MS` and one beyond the last
    ages: tuple[int, ...] = (0,) * (len(LEASE_AGE_BUCKETS_MS) + 1)
    age_sum_ms: int = 0
    age_max_ms: int = 0

    @property
    def renewals(self) -> int:
        return sum(self.ages)


@dataclass(frozen=True, slots=True)
class GroupStatus:
    """The group as this member last saw it."""

    member_id: str
    members: tuple[MemberInfo, ...] = ()
    active_member: str | None = None
    active_since_ms: int | None = None
    #: bumped by every change of active member; writes of an older one are refused
    generation: int = 0
    #: the last change this member committed or followed
    revision: int = 0
    last_takeover: Takeover | None = None
    #: the database's identity: its cluster's system identifier and the database's name
    database: str = ""
    #: whether this member's link to the database is up
    connected: bool = False
    #: how long before this member last looked the active member had renewed its lease
    #: (database clock; None before any member was active)
    lease_age_ms: int | None = None
    #: this member's takeovers and lease renewals since it started
    lease: LeaseRecord | None = None

    def member(self, member_id: str | None) -> MemberInfo | None:
        return next((m for m in self.members if m.member_id == member_id), None)

    def active_late(self) -> bool:
        """Whether the active member's lease is late: it may have stalled."""
        return self.lease_age_ms is not None and self.lease_age_ms > LEASE_LATE_MS

    @property
    def active(self) -> MemberInfo | None:
        return self.member(self.active_member)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything the host keeps durably, as of ``revision``."""

    revision: int
    documents: dict[str, dict[str, bytes]]
    users: dict[str, Account]
    #: (token hash, user, keep logged in, created ms)
    sessions: list[tuple[str, str, bool, int]]


#: a session as stored: (user, keep logged in, created ms)
SessionRow = tuple[str, bool, int]


@dataclass(frozen=True, slots=True)
class ChangeBatch:
    """What changed up to ``revision``, as it is now in the database: each document,
    user and session named with its current value, None where it is gone."""

    revision: int
    documents: dict[tuple[str, str], bytes | None] = field(default_factory=dict)
    users: dict[str, Account | None] = field(default_factory=dict)
    sessions: dict[str, SessionRow | None] = field(default_factory=dict)
