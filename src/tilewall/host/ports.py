"""What the host needs from the world, as Protocols its adapters implement.

The host imports nothing outside ``tilewall.host``: the assembly (``tilewall.server``)
hands it adapters that satisfy these ports. Adapters report failure with the kinds of
:mod:`tilewall.host.errors` (a store that cannot commit raises
:class:`~tilewall.host.errors.StoreFailed`).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tilewall.host.content.live import LiveStatus
from tilewall.host.hostgroup.members import ChangeBatch, GroupStatus, Snapshot
from tilewall.host.machine.facts import (
    CatalogueEntry,
    DiagnosticResult,
    DiagnosticsInput,
    DiskUsage,
    InterfaceUpdate,
    NetworkInterface,
    OsRelease,
    PackageVersion,
    SerialSettings,
)


class LiveFeeds(Protocol):
    """The host's live inputs (cameras, encoders), each relayed once to whatever shows
    it (``tilewall.live``)."""

    def status(self, source_id: str) -> LiveStatus:
        """The relay of the live source ``source_id``: idle when nothing shows it."""
        ...


class Clock(Protocol):
    """Host time in milliseconds since the epoch: the clock every timeline runs on."""

    def now_ms(self) -> int: ...

    def exact_ms(self) -> float:
        """The same clock to a fraction of a millisecond, for receivers' clock sync:
        whole milliseconds would put each receiver's clock up to 1 ms off its own way."""
        ...


@dataclass(frozen=True, slots=True)
class Change:
    """Write ``body`` under (kind, key), or delete that document when ``body`` is None."""

    kind: str
    key: str
    body: bytes | None


class DocumentStore(Protocol):
    """The host model as documents: (kind, key) -> JSON bytes."""

    async def load_documents(self) -> dict[str, dict[str, bytes]]: ...

    async def apply(self, changes: Iterable[Change]) -> None:
        """Write every change in one transaction: all are durable when this returns, or
        none is written and :class:`~tilewall.host.errors.StoreFailed` is raised. The
        host calls it once per batch of changes (:mod:`tilewall.host.commit`)."""
        ...


class AccountStore(Protocol):
    """Users (name -> password hash) and the hashes of live session ids."""

    async def users(self) -> dict[str, str]: ...

    async def put_user(self, name: str, password_hash: str, now_ms: int) -> None: ...

    async def delete_user(self, name: str) -> bool: ...

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        """(token hash, user, keep logged in, created ms) of every stored session."""
        ...

    async def put_session(self, token_hash: str, user: str, keep: bool, now_ms: int) -> None: ...

    async def delete_sessions(self, token_hashes: Iterable[str]) -> None: ...


@dataclass(frozen=True, slots=True)
class Play:
    """One play: what a display showed from ``start_ms`` until ``end_ms`` (None while it
    still shows it), and what triggered it."""

    id: str
    display_id: int
    source_id: str
    source_name: str
    start_ms: int
    end_ms: int | None
    trigger: str
    #: the scheduled event's or the preset's name, when one caused it
    cause: str = ""

    def ended(self, end_ms: int) -> "Play":
        """This play, ended at ``end_ms``."""
        return Play(
            self.id,
            self.display_id,
            self.source_id,
            self.source_name,
            self.start_ms,
            end_ms,
            self.trigger,
            self.cause,
        )


class PlayLogStore(Protocol):
    """The play log: large, append-mostly, kept apart from the host's documents and
    never loaded whole."""

    async def put_plays(self, plays: Sequence[Play]) -> None:
        """Insert or replace (by id) every play in one transaction; raises
        :class:`~tilewall.host.errors.StoreFailed` with nothing written."""
        ...

    async def open_plays(self) -> list[Play]:
        """Plays without an end."""
        ...

    async def plays(
        self, since_ms: int | None, until_ms: int | None, display_id: int | None, limit: int
    ) -> list[Play]:
        """Plays overlapping ``[since_ms, until_ms)``, oldest first, at most ``limit``."""
        ...

    async def prune_plays(self, ended_before_ms: int) -> int:
        """Delete plays that ended before ``ended_before_ms``; how many went."""
        ...


class Persistence(DocumentStore, AccountStore, Protocol):
    """Everything the host keeps durably."""

    async def close(self) -> None: ...


# --- the group's coordination: hosts of a group on one database, one of them active


class GroupEvents(Protocol):
    """What the coordination tells the member it runs in (the host's group service)."""

    async def activated(self, snapshot: Snapshot) -> None:
        """This member is the active one now: ``snapshot`` is everything committed
        before. Its writes are refused until this has returned."""
        ...

    async def writes_open(self) -> None:
        """This member's writes are accepted now (after :meth:`activated`)."""
        ...

    async def deactivated(self, reason: str) -> None:
        """This member is no longer active (its link to the database is lost, or it
        handed over): writes are already refused when this is called."""
        ...

    async def followed(self, batch: ChangeBatch) -> None:
        """The active member committed ``batch`` (a standby takes it in)."""
        ...

    async def replaced(self, snapshot: Snapshot) -> None:
        """A standby catching up from scratch: ``snapshot`` is the whole state."""
        ...

    def may_take_over(self) -> bool:
        """Whether this member contends for the active role now."""
        ...

    def changed(self) -> None:
        """The members, or which of them is active, changed."""
        ...

    def presence(self) -> frozenset[str]:
        """The seats whose receivers are connected to this member (the active one)."""
        ...

    def presence_changed(self, seats: frozenset[str]) -> None:
        """The receivers connected to the active member are these (for a standby)."""
        ...


class GroupCoordination(Protocol):
    """The group's coordination: which member of a group of hosts on one database is
    active, chosen by the database itself, and the committed changes a standby follows.

    While a member is not active its store refuses every write, and a write of a member
    that has lost the active role is refused by the database in the same transaction, so
    two members never write as active at once.
    """

    @property
    def member_id(self) -> str: ...

    async def start(self, events: GroupEvents) -> None:
        """Register this member, load the state (as a standby) and contend for the
        active role from now on."""
        ...

    async def stop(self) -> None:
        """Step down (if active) and leave the members' list."""
        ...

    async def settled(self, timeout_s: float) -> None:
        """Wait (at most ``timeout_s``) until some member of the group is active."""
        ...

    def status(self) -> GroupStatus: ...

    async def fresh_status(self) -> GroupStatus:
        """The group as the database says it is now (members that joined a moment ago
        included)."""
        ...

    async def publish(self, details: dict[str, Any]) -> None:
        """Publish this member's failover settings in the members' list."""
        ...

    async def request_handover(self) -> None:
        """Ask the active member to hand the active role to this one."""
        ...

    async def wait_revision(self, revision: int, timeout_s: float) -> bool:
        """Wait until this member has followed ``revision``; whether it has."""
        ...


# --- the machine: adapters in tilewall.platform, simulated unless host management is on


class SettingsStore(Protocol):
    """Named JSON-like values (str, int, float, bool, None, lists and dicts of them).

    The host backs this with its durable settings, where simulated adapters keep the
    machine state they pretend to have changed; ``put(name, None)`` removes a value.
    """

    def get(self, name: str) -> Any | None: ...

    async def put(self, name: str, value: Any) -> None: ...


class Facts(Protocol):
    def host_name(self) -> str: ...

    def primary_ipv4(self) -> str: ...

    async def system_id(self) -> str: ...

    def os_release(self) -> OsRelease: ...

    def cpu_cores(self) -> int:
        """Logical CPUs."""
        ...

    def total_memory_bytes(self) -> int: ...

    def memory_used_percent(self) -> float: ...

    def disk_usage(self, path: str = "/") -> DiskUsage: ...

    def interface_names(self) -> list[str]:
        """Names of the machine's network interfaces, loopback excluded."""
        ...


class HostName(Protocol):
    def get(self) -> str: ...

    async def set(self, name: str) -> None: ...


class TimeZones(Protocol):
    def current(self) -> str: ...

    def current_offset_minutes(self) -> int:
        """Minutes east of UTC of the current zone, now."""
        ...

    def available(self) -> list[str]: ...

    async def set(self, zone: str) -> None: ...


class NetworkInterfaces(Protocol):
    async def list(self) -> list[NetworkInterface]:
        """Every interface; raises :class:`~tilewall.host.errors.Busy` while an update
        is applied."""
        ...

    async def update(self, update: InterfaceUpdate) -> None:
        """Validate ``update`` (raising before anything changes) and start applying it."""
        ...

    @property
    def busy(self) -> bool: ...

    @property
    def last_error(self) -> str | None:
        """Why the last background apply failed, if it did."""
        ...

    async def wait_idle(self) -> None: ...


class Power(Protocol):
    async def reboot(self) -> None: ...

    async def shutdown(self) -> None: ...


class RemoteAccess(Protocol):
    @property
    def service(self) -> str:
        """The name of the service that gives remote control."""
        ...

    async def status(self) -> bool:
        """Whether remote control is running."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class Packages(Protocol):
    async def manifest(self) -> list[PackageVersion]:
        """Installed Python distributions, then installed Debian packages."""
        ...

    async def catalogue(self) -> list[CatalogueEntry]: ...

    async def install(self, names: Sequence[str]) -> None:
        """Install catalogue packages; any name outside the catalogue refuses them all."""
        ...


class SerialPorts(Protocol):
    def check_settings(
        self, baud_rate: object, data_bits: object, parity: object, stop_bits: object
    ) -> SerialSettings:
        """The settings as the port takes them; raises
        :class:`~tilewall.host.errors.Invalid` naming the first bad one."""
        ...

    async def open_and_write(
        self,
        port: str,
        baud_rate: object,
        data_bits: object,
        parity: object,
        stop_bits: object,
        data: bytes,
    ) -> int:
        """Validate the settings, open ``port`` (device path or pyserial URL), write
        ``data`` and close; return the number of bytes written."""
        ...


class Diagnostics(Protocol):
    async def run(self, given: DiagnosticsInput) -> list[DiagnosticResult]: ...


class MachineAdapters(Protocol):
    """Every adapter to the machine the host runs on."""

    @property
    def host_management(self) -> bool:
        """True when changes are made to the machine; False when they are simulated."""
        ...

    @property
    def facts(self) -> Facts: ...

    @property
    def hostname(self) -> HostName: ...

    @property
    def timezones(self) -> TimeZones: ...

    @property
    def network(self) -> NetworkInterfaces: ...

    @property
    def power(self) -> Power: ...

    @property
    def packages(self) -> Packages: ...

    @property
    def remote(self) -> RemoteAccess: ...

    @property
    def serial(self) -> SerialPorts: ...

    @property
    def diagnostics(self) -> Diagnostics: ...
