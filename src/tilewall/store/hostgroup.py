"""The group's coordination on PostgreSQL: which member of a group of hosts on one
database is active, and how a standby follows the active member's writes.

- **Active**: the member holding a session advisory lock on its own link
  (:mod:`tilewall.store.hostgroup_link`). Standbys try the lock every 250 ms; the member
  that gets it bumps the group's generation (which fences out every later write of the
  member before it, :mod:`tilewall.store.hostgroup_sql`), loads the whole state, and only
  then opens its writes. The active member checks its link every 250 ms; a failure (or
  its link closing) makes it step down at once: its store refuses writes before
  anything else happens.
- **Lease**: the active member also renews a lease every second, and a standby that
  finds it run out (the member stalled, its session alive) ends the stalled member's
  database sessions and takes over (:mod:`tilewall.store.hostgroup_lease`).
- **Standby**: it ``LISTEN``s for committed writes and reads what they changed from the
  log of writes; after a lost link, or when the announcement was missed, its heartbeat
  sees the revision ahead and it catches up from the log (or reloads everything when
  the log no longer reaches back to it: :mod:`tilewall.store.hostgroup_follow`).
- **Handover** (failback): a returning primary asks for the active role in the group's
  state; the active member sees it, steps down, releases the lock and leaves the
  primary a few seconds to take it.
"""

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tilewall.host.errors import NotActive
from tilewall.host.hostgroup.members import GroupStatus, Role
from tilewall.host.ports import GroupEvents
from tilewall.store import hostgroup_sql
from tilewall.store.health import describe
from tilewall.store.hostgroup_follow import Follower
from tilewall.store.hostgroup_lease import LEASE_S, Lease, end_stalled
from tilewall.store.hostgroup_link import Link, takeover_of
from tilewall.store.postgres import Fence, PostgresStore

log = logging.getLogger(__name__)

TICK_S = 0.25
HEARTBEAT_S = 1.0
#: after handing over, leave the new member this long to take the lock
HANDOVER_HOLD_S = 10.0
RECONNECT_S = (0.25, 2.0)
#: how often the active member forgets long-gone members and old log entries
TIDY_S = 60.0


class PostgresHostGroup:
    """Implements :class:`tilewall.host.ports.GroupCoordination` over a
    :class:`PostgresStore` (whose writes it fences)."""

    def __init__(
        self, store: PostgresStore, member_id: str, address: str, lease_s: float = LEASE_S
    ) -> None:
        self._store = store
        self._member_id = member_id
        self._address = address
        self._host_name: Callable[[], str] = lambda: ""
        self._system_id = ""
        self._details: dict[str, Any] = {}
        self._events: GroupEvents | None = None
        self._status = GroupStatus(member_id)
        self._generation: int | None = None
        self._hold_until = 0.0
        self._follower = Follower(store, lambda: self._generation is None)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._duties: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()
        self._stopping = False
        self._link: Link | None = None
        self._handover_wanted = False
        self._look_now = False
        self._looked = asyncio.Event()
        self._failing = False
        self._tidied = 0.0
        self._published: frozenset[str] | None = None
        self._presence: frozenset[str] = frozenset()
        self._lease = Lease(lease_s)
        self._recorded: frozenset[int] = frozenset()
        self._watchdog: asyncio.Task[None] | None = None
        self._member_key = b""
        store.fence = Fence(member_id, self._refusal, held=self._lease.held)

    def identify(self, system_id: str, host_name: Callable[[], str]) -> None:
        """What this member registers besides its address (known once the host is built)."""
        self._system_id = system_id
        self._host_name = host_name

    # --- GroupCoordination ------------------------------------------------------------------

    @property
    def member_id(self) -> str:
        return self._member_id

    @property
    def member_key(self) -> bytes:
        return self._member_key

    def status(self) -> GroupStatus:
        return replace(self._status, revision=self._store.revision, lease=self._lease.record)

    async def fresh_status(self) -> GroupStatus:
        looked = self._looked
        self._look_now = True
        self._wake.set()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(3):
                await looked.wait()
        return self.status()

    async def start(self, events: GroupEvents) -> None:
        self._events = events
        self._follower.events = events
        self._member_key = await self._store.member_key()
        snapshot = await self._store.snapshot()
        await events.replaced(snapshot)
        self._store.advance(snapshot.revision)
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), name="group-member")
        self._watchdog = loop.create_task(
            self._lease.watch(lambda: self._generation is not None, self._wake.set),
            name="group-watchdog",
        )

    async def settled(self, timeout_s: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                await self._settled.wait()

    async def stop(self) -> None:
        self._stopping = True
        if self._generation is not None:
            await self._step_down("the host is stopping")
        for task in (self._task, self._duties, self._watchdog):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self._follower.close()
        with contextlib.suppress(Exception):
            await hostgroup_sql.leave(self._store.engine, self._member_id)

    async def publish(self, details: dict[str, Any]) -> None:
        self._details = dict(details)
        self._look_now = True
        self._wake.set()

    async def request_handover(self) -> None:
        self._handover_wanted = True
        self._wake.set()

    async def wait_revision(self, revision: int, timeout_s: float) -> bool:
        if revision > self._follower.wanted:
            self._follower.want(revision)
        return await self._store.wait_revision(revision, timeout_s)

    # --- the member's loop ----------------------------------------------------------------

    async def _run(self) -> None:
        delay = RECONNECT_S[0]
        while not self._stopping:
            reason = "the host is stopping"
            try:
                self._link = await Link.open(self._store.url, self._member_id)
                delay = RECONNECT_S[0]
                await self._serve(self._link)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                reason = f"its link to the database failed ({describe(error)})"
                if self._status.connected or not self._failing:
                    log.warning("group: %s", reason)
                self._failing = True
            finally:
                link, self._link = self._link, None
                if link is not None:
                    link.close()
                self._status = replace(self._status, connected=False)
            if self._generation is not None:
                await self._step_down(reason)
            if self._stopping:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_S[1])

    async def _serve(self, link: Link) -> None:
        await link.listen(hostgroup_sql.CHANGES, self._on_change)
        await link.listen(hostgroup_sql.EVENTS, self._on_event)
        database = await link.database()
        await link.register(
            self._address, self._host_name(), self._system_id, Role.STANDBY, self._details
        )
        self._status = replace(self._status, database=database, connected=True)
        self._failing = False
        log.info("group: member %s at %s on %s", self._member_id, self._address, database)
        await self._look(link)
        beat = 0.0
        while True:
            if self._generation is not None:
                await self._check_active(link)
            elif self._may_contend():
                if await link.try_lock():
                    await self._take_over(link, stalled=False)
                elif await end_stalled(link, self._lease):
                    await self._take_over(link, stalled=True)
            if self._generation is not None and self._events is not None:
                seats = self._events.presence()
                if seats != self._published:
                    await link.publish_presence(seats)
                    self._published = seats
            if self._handover_wanted and self._generation is None:
                self._handover_wanted = False
                await link.ask_handover()
            if time.monotonic() - beat >= HEARTBEAT_S:
                beat = time.monotonic()
                if not await link.heartbeat(self._host_name(), self._details):
                    await link.register(
                        self._address,
                        self._host_name(),
                        self._system_id,
                        self._role(),
                        self._details,
                    )
                await self._look(link)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TICK_S):
                    await self._wake.wait()

    def _role(self) -> Role:
        return Role.ACTIVE if self._generation is not None else Role.STANDBY

    def _may_contend(self) -> bool:
        if self._stopping or time.monotonic() < self._hold_until or self._events is None:
            return False
        return self._events.may_take_over()

    async def _look(self, link: Link) -> None:
        """Read the group's state and members; follow, and tell the host of changes."""
        row = await link.state()
        members = await link.members(row["active_member"])
        before = self._status
        self._status = replace(
            before,
            members=members,
            active_member=row["active_member"],
            active_since_ms=row["active_since_ms"],
            generation=int(row["generation"]),
            last_takeover=takeover_of(row),
            lease_age_ms=None
            if row["lease_ms"] is None
            else int(row["now_ms"]) - int(row["lease_ms"]),
        )
        active = self._status.active
        if active is not None and active.alive and active.member_id != self._member_id:
            self._settled.set()
        online = active.online if active is not None and active.alive else frozenset()
        if self._generation is None and online != self._presence and self._events is not None:
            self._presence = online
            self._events.presence_changed(online)
        if self._generation is None and int(row["revision"]) > self._store.revision:
            self._follower.want(int(row["revision"]))
        if self._generation is not None and time.monotonic() - self._tidied > TIDY_S:
            self._tidied = time.monotonic()
            await link.forget_the_long_gone()
            await hostgroup_sql.prune_log(self._store.engine)
        if _shape(before) != _shape(self._status) and self._events is not None:
            self._events.changed()
        looked, self._looked = self._looked, asyncio.Event()
        looked.set()

    # --- becoming active, and stepping down -------------------------------------------------

    async def _take_over(self, link: Link, stalled: bool) -> None:
        assert self._events is not None
        self._follower.stop()
        await self._record_backends(link, always=True)
        sent = self._lease.sending()
        generation = await link.take_over()
        self._lease.renewed(sent)
        self._lease.took_over(stalled)
        await link.set_role(Role.ACTIVE)
        self._published = None
        self._presence = frozenset()
        snapshot = await self._store.snapshot()
        self._generation = generation
        await self._events.activated(snapshot)
        self._store.advance(snapshot.revision)
        assert self._store.fence is not None
        self._store.fence.generation = generation
        log.info("group: active, generation %d", generation)
        await self._look(link)
        self._duties = asyncio.get_running_loop().create_task(
            self._open(self._events), name="group-duties"
        )

    async def _open(self, events: GroupEvents) -> None:
        try:
            await events.writes_open()
        finally:
            self._settled.set()

    async def _record_backends(self, link: Link, always: bool = False) -> None:
        backends = frozenset(self._store.backends.values())
        if always or backends != self._recorded:
            await link.record_backends(backends)
            self._recorded = backends

    async def _check_active(self, link: Link) -> None:
        assert self._generation is not None
        if self._lease.due():
            sent = self._lease.sending()
            age_ms = await link.renew(self._generation)
            if age_ms is None:
                await self._step_down("another member took over (this host had stalled)")
                await link.unlock()
                return
            self._lease.renewed(sent, age_ms)
            await self._record_backends(link)
        row = await link.state()
        if int(row["generation"]) != self._generation:
            await self._step_down("another member took over")
            await link.unlock()
            return
        target = row["handover_to"]
        if target is None or target == self._member_id:
            return
        member = self._status.member(target)
        if member is None or not member.alive:
            await link.drop_handover(target)
            return
        self._hold_until = time.monotonic() + HANDOVER_HOLD_S
        await self._step_down(f"handing over to {member.address}")
        await link.unlock()
        await link.set_role(Role.STANDBY)

    async def _step_down(self, reason: str) -> None:
        """Refuse writes at once, then let the host stop its duties."""
        if self._store.fence is not None:
            self._store.fence.generation = None
        if self._generation is None:
            return
        self._generation = None
        duties, self._duties = self._duties, None
        if duties is not None and not duties.done():
            # duties that are starting finish starting (their writes are refused now),
            # so that stopping them finds each one whole
            with contextlib.suppress(TimeoutError, Exception):
                async with asyncio.timeout(10):
                    await asyncio.shield(duties)
        if self._events is not None:
            await self._events.deactivated(reason)
        self._follower.kick()

    def _refusal(self) -> NotActive:
        if self._generation is not None:
            return NotActive(
                "this host stalled and has not yet renewed its lease as the active host "
                "of its group: nothing was changed; retry in a few seconds"
            )
        active = self._status.active
        if active is not None and active.member_id != self._member_id and active.alive:
            return NotActive(
                f"this host is a standby of its group; the active host is {active.address}"
            )
        return NotActive(
            "this host is not the active host of its group and no active host is known "
            "yet: nothing was changed; retry in a few seconds"
        )

    # --- what the active member announces (a standby follows: hostgroup_follow) ----------

    def _on_change(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            revision = int(json.loads(payload)["r"])
        except (ValueError, KeyError, TypeError):
            return
        self._follower.want(revision)

    def _on_event(self, _conn: Any, _pid: int, _channel: str, _payload: str) -> None:
        self._look_now = True
        self._wake.set()


def _shape(status: GroupStatus) -> tuple[Any, ...]:
    """What of the group the host is told about when it changes."""
    return (
        status.active_member,
        tuple((m.member_id, m.address, m.alive, m.details.get("primary")) for m in status.members),
    )
