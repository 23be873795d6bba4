"""The active member's lease: how a group notices an active host that stalled.

An active member's database session, and with it its advisory lock, outlives the
member when the member freezes (a paused VM, a storage hang, a machine swapping, an
event loop stuck in a blocking call): the kernel still answers for the stopped process.
So being active is also a lease the member must keep renewing: it stamps
``group_state.lease_ms`` (the row that carries the generation) with the database's clock
every :data:`RENEW_S`. A standby that finds the stamp older than the lease time (judged
by the database's clock, never a host's) ends the stalled member's database sessions,
which frees its lock, and takes over with a new generation, which fences out every
later write of the stalled member.

The stalled member may see its own stall: its event loop was late. It then stops
writing at once, and writes again only once it has renewed its lease (if it was
replaced meanwhile, the renewal fails and it steps down). Between renewals it counts
its lease as held for only :data:`HELD_PART` of the lease time from the moment it sent
the last renewal, inside what the database grants it, so a stall it did not see (its
watchdog had no turn yet) refuses writes too.
"""

import asyncio
import bisect
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from tilewall.host.hostgroup.members import LEASE_AGE_BUCKETS_MS, LeaseRecord
from tilewall.store.hostgroup_link import Link

log = logging.getLogger(__name__)

#: how often the active member renews its lease
RENEW_S = 1.0
#: the lease time unless configured (TILEWALL_GROUP_LEASE_MS): five renewals, so that a
#: member busy for a few seconds (a loaded machine, a long garbage collection) keeps
#: its role, while a frozen one is replaced within this plus about a second
LEASE_S = 5.0
#: the part of the lease time a member counts its lease as held after it sent a renewal
#: (less than all of it: the database counts from when the renewal arrived)
HELD_PART = 0.8
#: an event loop late by this part of the lease time has stalled
STALL_PART = 0.5
#: how often the watchdog looks at the event loop
WATCH_S = 0.1


class Lease:
    """This member's view of its lease: when it must renew, whether it still holds it."""

    def __init__(self, lease_s: float = LEASE_S) -> None:
        self.lease_s = lease_s
        self._sent = 0.0
        self._held_until = 0.0
        self._ages = [0] * (len(LEASE_AGE_BUCKETS_MS) + 1)
        self.record = LeaseRecord(self.lease_ms)

    @property
    def lease_ms(self) -> int:
        return int(self.lease_s * 1000)

    def due(self) -> bool:
        return time.monotonic() - self._sent >= RENEW_S

    def sending(self) -> float:
        """A renewal is sent now; the instant to give :meth:`renewed`."""
        self._sent = time.monotonic()
        return self._sent

    def renewed(self, sent: float, age_ms: int | None = None) -> None:
        """The renewal sent at ``sent`` succeeded; ``age_ms``: the age the lease had
        reached when it was renewed (database clock), None for a new lease."""
        self._held_until = sent + self.lease_s * HELD_PART
        if age_ms is None:
            return
        self._ages[bisect.bisect_left(LEASE_AGE_BUCKETS_MS, age_ms)] += 1
        record = self.record
        self.record = replace(
            record,
            ages=tuple(self._ages),
            age_sum_ms=record.age_sum_ms + age_ms,
            age_max_ms=max(record.age_max_ms, age_ms),
        )

    def took_over(self, stalled: bool) -> None:
        """This member took over: after ending a ``stalled`` member's sessions, or not."""
        record = self.record
        if stalled:
            self.record = replace(record, took_stalled=record.took_stalled + 1)
        else:
            self.record = replace(record, took_free=record.took_free + 1)

    def lapse(self) -> None:
        """Hold the lease no longer (until the next renewal), and renew it at once."""
        self._held_until = 0.0
        self._sent = 0.0

    def held(self) -> bool:
        return time.monotonic() < self._held_until

    async def watch(self, active: Callable[[], bool], wake: Callable[[], None]) -> None:
        """The watchdog: when the event loop was late by more than :data:`STALL_PART` of
        the lease while this member is ``active``, let the lease lapse and ``wake`` the
        member to renew it."""
        loop = asyncio.get_running_loop()
        limit = self.lease_s * STALL_PART
        while True:
            before = loop.time()
            await asyncio.sleep(WATCH_S)
            late = loop.time() - before - WATCH_S
            if late > limit and active():
                log.warning(
                    "group: the event loop stalled for %.1f s: writes wait until this host "
                    "has renewed its lease as the active host",
                    late,
                )
                self.lapse()
                self.record = replace(self.record, lapses=self.record.lapses + 1)
                wake()


async def end_stalled(link: Link, lease: Lease) -> bool:
    """If the active member's lease ran out, end its database sessions (which frees
    its lock); whether this member then got the lock."""
    stalled = await link.stalled(lease.lease_ms)
    if stalled is None:
        return False
    ended = await link.end_sessions(stalled.backends)
    log.warning(
        "group: the active member %s has not renewed its lease for %.1f s: "
        "%d of its database sessions ended, taking over",
        stalled.member_id,
        stalled.late_ms / 1000,
        ended,
    )
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:  # the server frees the lock as the session ends
        if await link.try_lock():
            return True
        await asyncio.sleep(0.05)
    return False
