"""The host as a member of a group of hosts on one database.

Exactly one member of a group is active, chosen by the database through the group's
coordination (:class:`~tilewall.host.ports.GroupCoordination`); the others are hot
standbys. This service holds the rules of a member's life:

- a standby takes in every change the active member commits (``followed``), so its
  reads are current; it writes nothing of the group's state;
- a member that becomes active installs the whole committed state first, and only once
  its writes are open starts its *duties*: driving receivers, running timers, the demo's
  virtual receivers, host-name switching; a member that stops being active stops them
  at once, in the reverse order;
- failback: a standby that is its failover group's primary, with automatic failback,
  asks the active member to hand over once it has been back for the grace period;
- a member whose failover settings turn automatic failover off does not contend for
  the active role unless it is the primary.

A host on its own store (SQLite) has no coordination: it is ``SOLO`` and always serves.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from tilewall.host import audit
from tilewall.host.access.accounts import Accounts
from tilewall.host.hostgroup.members import ChangeBatch, GroupStatus, Role, Snapshot
from tilewall.host.ports import GroupCoordination
from tilewall.host.state import Core

log = logging.getLogger(__name__)

Duty = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Policy:
    """What this member's failover settings say about taking the active role."""

    in_group: bool = False
    group_name: str = ""
    primary: bool = False
    auto_failover: bool = True
    auto_failback: bool = False
    grace_s: int = 0
    hostname_switching: bool = False


class Presence(Protocol):
    """The seats whose receivers are connected to this member (the host's stations)."""

    @property
    def online(self) -> set[str]: ...

    def replace_online(self, seats: frozenset[str]) -> None:
        """These seats are online, no other."""
        ...


@dataclass
class _Duty:
    name: str
    start: Duty
    stop: Duty
    #: run when this member's failover settings change while the duty runs
    refresh: Duty | None = None
    running: bool = False


class HostGroup:
    """This member's role in its group, its duties, and failback."""

    def __init__(
        self,
        core: Core,
        accounts: Accounts,
        coordination: GroupCoordination | None,
        policy: Callable[[], Policy],
        presence: Presence,
    ) -> None:
        self._presence = presence
        self._core = core
        self._accounts = accounts
        self.coordination = coordination
        self._policy = policy
        self.role = Role.SOLO if coordination is None else Role.STANDBY
        self._duties: list[_Duty] = []
        self._switch = asyncio.Lock()
        self._failback: asyncio.Task[None] | None = None
        self._listeners: list[Callable[[], None]] = []

    # --- what the rest of the host asks ----------------------------------------------

    @property
    def serving(self) -> bool:
        """Whether this host writes the group's state, drives receivers, runs timers."""
        return self.role is not Role.STANDBY

    @property
    def member_id(self) -> str | None:
        return None if self.coordination is None else self.coordination.member_id

    @property
    def member_key(self) -> bytes:
        """The members' secret (b"" for a host on its own store)."""
        return b"" if self.coordination is None else self.coordination.member_key

    def status(self) -> GroupStatus | None:
        """The group as this member sees it; None for a host on its own store."""
        return None if self.coordination is None else self.coordination.status()

    async def fresh_status(self) -> GroupStatus | None:
        """:meth:`status` as the database says it is now."""
        return None if self.coordination is None else await self.coordination.fresh_status()

    def active_address(self) -> str | None:
        """The address of the active member, if one is known."""
        status = self.status()
        active = status.active if status else None
        return active.address if active else None

    def add_duty(self, name: str, start: Duty, stop: Duty, refresh: Duty | None = None) -> None:
        """Run ``start`` whenever this member starts serving, ``stop`` when it stops
        (and ``refresh`` when its failover settings change meanwhile)."""
        self._duties.append(_Duty(name, start, stop, refresh))

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` when the members, the active one or this role change."""
        self._listeners.append(listener)

    async def wait_revision(self, revision: int, timeout_s: float) -> bool:
        """Wait until this member has taken in ``revision`` (read-your-writes for a
        write it forwarded to the active member)."""
        if self.coordination is None:
            return True
        return await self.coordination.wait_revision(revision, timeout_s)

    # --- life -------------------------------------------------------------------------

    async def start(self, settle_s: float = 15.0) -> None:
        """Start: a solo host serves at once; a member joins its group and waits (at
        most ``settle_s``) until some member is active."""
        if self.coordination is None:
            await self._start_duties()
            return
        await self.coordination.start(self)
        await self.coordination.settled(settle_s)

    async def stop(self) -> None:
        self._cancel_failback()
        if self.coordination is not None:
            await self.coordination.stop()
        await self._stop_duties()

    async def policy_changed(self) -> None:
        """This member's failover settings changed: publish them and re-check failback."""
        if self.coordination is None:
            return
        policy = self._policy()
        await self.coordination.publish(
            {
                "groupName": policy.group_name,
                "primary": policy.primary,
                "autoFailover": policy.auto_failover,
                "autoFailback": policy.auto_failback,
                "graceSeconds": policy.grace_s,
                "inGroup": policy.in_group,
            }
        )
        self._check_failback()
        async with self._switch:
            for duty in self._duties:
                if duty.running and duty.refresh is not None:
                    try:
                        await duty.refresh()
                    except Exception:
                        log.exception("could not refresh %s", duty.name)

    # --- GroupEvents: what the coordination tells this member --------------------------

    async def activated(self, snapshot: Snapshot) -> None:
        async with self._switch:
            await self._install(snapshot)
            self._presence.replace_online(frozenset())  # its receivers say hello to it now
            self.role = Role.ACTIVE
            self._cancel_failback()
        log.info("this host is the active member of its group (revision %d)", snapshot.revision)
        self._changed()

    async def writes_open(self) -> None:
        async with self._switch:
            if self.role is Role.ACTIVE:
                with self._acting("failover: take over"):
                    await self._start_duties()

    async def deactivated(self, reason: str) -> None:
        async with self._switch:
            was = self.role
            self.role = Role.STANDBY
            if was is Role.ACTIVE:
                log.warning("this host is no longer active in its group: %s", reason)
            with self._acting("failover: step down"):
                await self._stop_duties()
        self._changed()
        self._check_failback()

    async def followed(self, batch: ChangeBatch) -> None:
        if self.role is Role.ACTIVE:
            return  # its own changes are in memory already
        await self._core.absorb(batch.documents)
        self._accounts.absorb(batch.users, batch.sessions)

    async def replaced(self, snapshot: Snapshot) -> None:
        if self.role is Role.ACTIVE:
            return
        await self._install(snapshot)

    def may_take_over(self) -> bool:
        policy = self._policy()
        return policy.primary or policy.auto_failover

    def changed(self) -> None:
        self._changed()
        self._check_failback()

    def presence(self) -> frozenset[str]:
        return frozenset(self._presence.online)

    def presence_changed(self, seats: frozenset[str]) -> None:
        if self.role is Role.STANDBY:
            self._presence.replace_online(seats)

    # --- internals --------------------------------------------------------------------

    def _acting(self, operation: str) -> contextlib.AbstractContextManager[None]:
        """What the duties change as a member of a group takes or gives up the active
        role is failover's doing (a solo host's, its own)."""
        if self.coordination is None:
            return contextlib.nullcontext()
        return audit.acting(audit.Actor(audit.FAILOVER), operation)

    async def _install(self, snapshot: Snapshot) -> None:
        await self._core.replace(snapshot.documents)
        self._accounts.replace(snapshot.users, snapshot.sessions)

    async def _start_duties(self) -> None:
        for duty in self._duties:
            if duty.running:
                continue
            try:
                await duty.start()
                duty.running = True
            except Exception:
                log.exception("could not start %s", duty.name)

    async def _stop_duties(self) -> None:
        for duty in reversed(self._duties):
            if not duty.running:
                continue
            duty.running = False
            try:
                await duty.stop()
            except Exception:
                log.exception("could not stop %s", duty.name)

    def _changed(self) -> None:
        # the consoles show the role and the active member: their streams follow the revision
        self._core.notify(frozenset())
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:
                log.exception("group listener failed")

    def _check_failback(self) -> None:
        """Start the failback timer when this member is a returning primary."""
        policy = self._policy()
        status = self.status()
        wanted = (
            self.role is Role.STANDBY
            and policy.in_group
            and policy.primary
            and policy.auto_failback
            and status is not None
            and status.active_member not in (None, status.member_id)
        )
        if not wanted:
            self._cancel_failback()
        elif self._failback is None or self._failback.done():
            self._failback = asyncio.get_running_loop().create_task(
                self._fail_back(policy.grace_s), name="group-failback"
            )

    async def _fail_back(self, grace_s: int) -> None:
        log.info("primary back in its group: taking over again in %d s", grace_s)
        await asyncio.sleep(grace_s)
        policy = self._policy()
        if self.role is Role.STANDBY and policy.primary and policy.auto_failback:
            assert self.coordination is not None
            await self.coordination.request_handover()

    def _cancel_failback(self) -> None:
        task, self._failback = self._failback, None
        if task is not None and not task.done() and task is not _current_task():
            task.cancel()


def _current_task() -> asyncio.Task[object] | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.current_task()
    return None
