"""What the host needs from the world, as Protocols its adapters implement.

The host imports nothing outside ``tilewall.host``: the assembly (``tilewall.assembly``)
hands it adapters that satisfy these ports. Adapters report failure with the kinds of
:mod:`tilewall.host.errors` (a store that cannot commit raises
:class:`~tilewall.host.errors.StoreFailed`).
"""

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tilewall.host.access.roles import Account
from tilewall.host.audit import AuditEntry, AuditQuery, AuditRecord
from tilewall.host.content.live import LiveStatus
from tilewall.host.hostgroup.members import ChangeBatch, GroupStatus, Snapshot


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

    async def apply(self, changes: Iterable[Change], audit: Sequence[AuditRecord] = ()) -> None:
        """Write every change, and the ``audit`` entries that record them, in one
        transaction: all are durable when this returns, or none is written and
        :class:`~tilewall.host.errors.StoreFailed` is raised. The host calls it once per
        batch of changes (:mod:`tilewall.host.commit`)."""
        ...


class AccountStore(Protocol):
    """Users (name -> their record) and the hashes of live session ids."""

    async def users(self) -> dict[str, Account]: ...

    async def put_user(
        self, name: str, account: Account, audit: Sequence[AuditRecord] = ()
    ) -> None:
        """Create or replace the user (its creation time kept when it exists), with the
        ``audit`` entries of the change (one transaction)."""
        ...

    async def delete_user(self, name: str, audit: Sequence[AuditRecord] = ()) -> bool:
        """Delete the user and its sessions, with the ``audit`` entries (one transaction)."""
        ...

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        """(token hash, user, keep logged in, created ms) of every stored session."""
        ...

    async def put_session(
        self,
        token_hash: str,
        user: str,
        keep: bool,
        now_ms: int,
        audit: Sequence[AuditRecord] = (),
    ) -> None:
        """Store a session, with the ``audit`` entries of its opening (one transaction)."""
        ...

    async def delete_sessions(
        self, token_hashes: Iterable[str], audit: Sequence[AuditRecord] = ()
    ) -> None:
        """Delete sessions, with the ``audit`` entries of their end (one transaction)."""
        ...

    async def append_audit(self, records: Sequence[AuditRecord]) -> None:
        """Write audit entries that record nothing else written (a failed login)."""
        ...


class AuditStore(Protocol):
    """The audit trail (:mod:`tilewall.host.audit`): entries numbered and chained by the
    store in the transaction that writes them."""

    async def audit_page(self, query: AuditQuery) -> tuple[list[AuditEntry], bool]:
        """The entries ``query`` asks for, newest first, and whether they are verified:
        each holds its content and follows the entry before it."""
        ...

    async def verify_audit(self) -> int | None:
        """The id of the first entry that breaks the whole chain; None when it holds."""
        ...

    async def write_audit_keys(self) -> int:
        """Write the lookup keys of the entries not keyed yet (a store keys them by
        itself soon after appending; these are a stopped host's last ones); how many."""
        ...

    async def prune_audit(
        self, before_ms: int, noted: Callable[[int, int], AuditRecord] | None = None
    ) -> int:
        """Remove the oldest entries, up to the first at or after ``before_ms`` (a whole
        prefix: what is kept still verifies), appending the entry ``noted`` makes of the
        ids removed (first, last), in one transaction; how many went."""
        ...


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


class Persistence(DocumentStore, AccountStore, AuditStore, Protocol):
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

    @property
    def member_key(self) -> bytes:
        """The members' secret, known to those who can read the group's database: a
        standby signs with it what it says of a write it forwards (b"" before
        :meth:`start`)."""
        ...

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


# --- files: the media library's, and the host's own beside its state


@dataclass(frozen=True, slots=True)
class StoredFile:
    size: int
    modified_ns: int


class MediaFiles(Protocol):
    """The media library's files. Names are canonical relative POSIX paths (the host
    checks them first; "" is the library itself); a name that resolves outside the
    library (through a link) is found nowhere."""

    @property
    def root(self) -> Path:
        """The folder the library is in."""
        ...

    def locate(self, name: str) -> Path | None:
        """Where ``name`` is; None when it resolves outside the library."""
        ...

    def stat(self, name: str) -> StoredFile | None:
        """The file ``name``; None when it is not a regular file of the library."""
        ...

    def is_folder(self, name: str) -> bool: ...

    def names_under(self, folder: str) -> list[str]:
        """The names of every file under ``folder``, at any depth."""
        ...

    def duration_s(self, name: str) -> float | None:
        """The playing time of a video file as its container says; None when it won't
        say."""
        ...

    async def save(self, name: str, chunks: AsyncIterator[bytes]) -> None:
        """Write ``chunks`` to ``name`` atomically: the file is whole and on disk, or
        untouched."""
        ...

    def delete(self, name: str) -> bool:
        """Delete the file ``name``, or the folder with all it holds; False when there is
        neither."""
        ...


class DataFiles(Protocol):
    """The host's own files beside its state: the interface log (the server writes it)
    and the troubleshooting report archive."""

    @property
    def folder(self) -> Path:
        """The data directory they are in."""
        ...

    async def api_log_tail(self, max_bytes: int) -> str:
        """The last ``max_bytes`` of the current interface log ("" when there is none)."""
        ...

    async def write_report(self, documents: Mapping[str, bytes], created_s: float) -> Path:
        """Write the report archive atomically: ``documents`` by name, then the newest
        part of each interface log file; where it is."""
        ...

    def report(self) -> Path | None:
        """The last report archive, None before the first."""
        ...
