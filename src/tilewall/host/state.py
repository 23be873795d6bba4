"""The host's state in memory, and the one way to change it: a durable transaction
(committed in batches, :mod:`tilewall.host.commit`)."""

import contextvars
import copy
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from tilewall.host.commit import CommitObserver, Documents, GroupCommit
from tilewall.host.documents import (
    COLLECTIONS,
    KIND_OF,
    SETTING,
    TOPOLOGY_KINDS,
    memory_key,
)
from tilewall.host.model import (
    Display,
    Layout,
    MirrorGroup,
    Preset,
    Source,
    Station,
    VideoWall,
    Zone,
)
from tilewall.host.ports import Clock, DocumentStore
from tilewall.host.schedule.model import ScheduledEvent

log = logging.getLogger(__name__)

T = TypeVar("T")

#: set while the current task is inside :meth:`Core.change`; the lock is not re-entrant
_IN_CHANGE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_change", default=False)

#: the attribute of :class:`State` that holds each collection
_COLLECTION_ATTRIBUTES = {
    "station": "stations",
    "display": "displays",
    "wall": "walls",
    "zone": "zones",
    "mirror": "mirrors",
    "source": "sources",
    "preset": "presets",
    "layout": "layouts",
    "event": "events",
}


@dataclass
class State:
    stations: dict[str, Station] = field(default_factory=dict)
    displays: dict[int, Display] = field(default_factory=dict)
    walls: dict[str, VideoWall] = field(default_factory=dict)
    zones: dict[str, Zone] = field(default_factory=dict)
    mirrors: dict[str, MirrorGroup] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)
    presets: dict[str, Preset] = field(default_factory=dict)
    layouts: dict[str, Layout] = field(default_factory=dict)
    events: dict[str, ScheduledEvent] = field(default_factory=dict)
    #: singletons and small collections: settings, licence, print profiles, failover, ...
    settings: dict[str, Any] = field(default_factory=dict)
    #: bumped by every change of what a display, zone or mirror group plays
    mapping_generation: int = 0
    #: bumped by every write of a display, wall, zone or mirror group; keys derived indexes
    topology_version: int = 0
    derived: dict[str, tuple[int, Any]] = field(default_factory=dict)

    def collection(self, kind: str) -> dict[Any, Any]:
        collection: dict[Any, Any] = getattr(self, _COLLECTION_ATTRIBUTES[kind])
        return collection


@dataclass(frozen=True)
class Event:
    """Something changed. ``displays`` None means any display may be affected."""

    displays: frozenset[int] | None
    topology: bool = False


class Transaction:
    """Collects the documents a change writes and the displays it affects.

    Services change the live state through it (``put``, ``delete``, ``put_setting``);
    :meth:`Core.change` takes the change back out of memory while the store commits it
    and puts it back only once it is durable (:mod:`tilewall.host.commit`).
    """

    def __init__(self, state: State) -> None:
        self._state = state
        #: what the store is asked to write, by (kind, key); None deletes
        self.changes: dict[tuple[str, str], bytes | None] = {}
        #: the value each changed document has once the change is installed
        self.values: dict[tuple[str, str], Any] = {}
        self.displays: set[int] = set()
        self.all_displays = False
        self.topology = False
        self.mapping = False

    def put(self, obj: Any) -> None:
        kind = KIND_OF[type(obj)]
        key = COLLECTIONS[kind][1](obj)
        if kind in TOPOLOGY_KINDS:
            self._state.topology_version += 1
        self._state.collection(kind)[memory_key(kind, key)] = obj
        self.changes[(kind, key)] = msgspec.json.encode(obj)
        self.values[(kind, key)] = obj

    def delete(self, obj: Any) -> None:
        kind = KIND_OF[type(obj)]
        key = COLLECTIONS[kind][1](obj)
        if kind in TOPOLOGY_KINDS:
            self._state.topology_version += 1
        self._state.collection(kind).pop(memory_key(kind, key), None)
        self.changes[(kind, key)] = None
        self.values[(kind, key)] = None

    def put_setting(self, name: str, value: Any) -> None:
        if value is None:
            self._state.settings.pop(name, None)
            self.changes[(SETTING, name)] = None
            self.values[(SETTING, name)] = None
        else:
            raw = msgspec.to_builtins(value)
            self._state.settings[name] = raw
            self.changes[(SETTING, name)] = msgspec.json.encode(value)
            self.values[(SETTING, name)] = raw

    def affect(self, *display_ids: int) -> None:
        self.displays.update(display_ids)

    def affect_all(self) -> None:
        self.all_displays = True


Listener = Callable[[Event], None]
#: (seat id, command name), e.g. ("seat-1", "reset")
CommandListener = Callable[[str, str], None]
#: looks at a change before it is committed; raises a HostError to refuse all of it
Check = Callable[[Transaction], None]


class Core:
    """State, clock, store and listeners, shared by every service of the host."""

    def __init__(self, store: DocumentStore | None, clock: Clock) -> None:
        self.state = State()
        self.store = store
        self.clock = clock
        self._listeners: list[Listener] = []
        self._command_listeners: list[CommandListener] = []
        self._checks: list[Check] = []
        #: every document as last committed; what memory returns to when a change fails
        self.documents = Documents(self.state)
        #: told (seconds, committed, changes) after each store commit of a batch of
        #: changes, for metrics
        self.commit_observers: list[CommitObserver] = []
        self._commits = GroupCommit(
            self.documents, lambda: self.store, self._announce, self.commit_observers
        )
        self._notices = 0

    @property
    def revision(self) -> int:
        """Moves whenever what readers see may have changed (a change installed or taken
        back, an announcement): views encoded once per revision key on it."""
        return self.documents.revision + self._notices

    async def load(self) -> None:
        if self.store is None:
            return
        documents = await self.store.load_documents()
        for kind, docs in documents.items():
            for key, body in docs.items():
                self.documents.committed((kind, key), body)
        self.documents.settled()

    async def absorb(self, documents: Mapping[tuple[str, str], bytes | None]) -> None:
        """Install documents another member of the group committed (None: deleted) and
        announce them; nothing is written. A standby follows its active member so."""
        if not documents:
            return
        async with self._commits.exclusive():
            for (kind, key), body in documents.items():
                if kind != SETTING and kind not in COLLECTIONS:
                    log.warning("ignoring a document of unknown kind %r", kind)
                    continue
                try:
                    self.documents.committed((kind, key), body)
                except msgspec.DecodeError as error:
                    log.error("ignoring document %s/%s: %s", kind, key, error)
            self.documents.settled()
        self.notify(None, topology=True)

    async def replace(self, documents: Mapping[str, Mapping[str, bytes]]) -> None:
        """Make ``documents`` (by kind, then key) the whole state, as :meth:`absorb`
        does: what differs from memory is installed, what is gone is removed."""
        wanted = {
            (kind, key): body for kind, docs in documents.items() for key, body in docs.items()
        }
        committed = self.documents.bodies
        changed: dict[tuple[str, str], bytes | None] = {
            name: body for name, body in wanted.items() if committed.get(name) != body
        }
        changed.update({name: None for name in committed if name not in wanted})
        await self.absorb(changed)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def check_changes(self, check: Check) -> None:
        """Run ``check`` on every change before it is committed (say, to refuse deleting
        what something else still names)."""
        self._checks.append(check)

    def on_command(self, listener: CommandListener) -> Callable[[], None]:
        self._command_listeners.append(listener)
        return lambda: self._command_listeners.remove(listener)

    def command(self, seat_id: str, name: str) -> None:
        """Ask a receiver to do something that is not state (reset, reload)."""
        for listener in list(self._command_listeners):
            try:
                listener(seat_id, name)
            except Exception:
                log.exception("command listener failed")

    def setting(self, name: str, type_: type[T], default: T) -> T:
        """A setting decoded as ``type_``; settings are stored as plain JSON values."""
        raw = self.state.settings.get(name)
        if raw is None:
            return default
        return msgspec.convert(raw, type_)

    @asynccontextmanager
    async def change(self) -> AsyncIterator[Transaction]:
        """Make a change: all of it, or nothing; answered once it is durable.

        The block changes the live state through the transaction, without awaiting,
        after the changes waiting to be committed before it (it sees them). When it
        exits, memory goes back to what is committed (readers never see a change that
        is not durable) and the change waits for its batch to be committed in one store
        transaction with the changes made meanwhile; once that has committed, the
        change is installed and announced (:mod:`tilewall.host.commit`). If the block
        or a check raises, or the store fails
        (:class:`~tilewall.host.errors.StoreFailed`, for the whole batch), memory
        holds nothing of the change and the error propagates.
        """
        if _IN_CHANGE.get():
            raise RuntimeError(
                "Core.change() entered again from inside a change: it would deadlock"
            )
        commits = self._commits
        await commits.begin()
        tx = Transaction(self.state)
        try:
            generation = self.state.mapping_generation
            token = _IN_CHANGE.set(True)
            try:
                yield tx
                for check in self._checks:
                    check(tx)
            finally:
                _IN_CHANGE.reset(token)
            if tx.mapping:
                tx.put_setting("mapping_generation", generation + 1)
        except BaseException:
            commits.end(tx, refused=True)
            raise
        answer = commits.end(tx, refused=False)
        if answer is None:
            self._announce(tx)
        else:
            await answer

    async def settle(self) -> None:
        """Wait until every change made so far is committed (or has failed)."""
        await self._commits.settled()

    def _announce(self, tx: Transaction) -> None:
        if tx.displays or tx.all_displays or tx.topology:
            self.notify(None if tx.all_displays else frozenset(tx.displays), tx.topology)

    def notify(self, displays: frozenset[int] | None, topology: bool = False) -> None:
        """Tell listeners what changed; also for changes that are not stored (liveness)."""
        self._notices += 1
        event = Event(displays, topology)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("event listener failed")


class CoreSettings:
    """The machine adapters' :class:`~tilewall.host.ports.SettingsStore`, kept in the
    host's durable settings: a simulated host name or time zone survives a restart.

    ``put`` is a change of its own (it takes the host's lock), so adapters must not be
    called from inside :meth:`Core.change`; doing so raises instead of deadlocking.
    """

    def __init__(self, core: Core) -> None:
        self._core = core

    def get(self, name: str) -> Any | None:
        # copies, so callers cannot change the host's state by mutating what they read
        return copy.deepcopy(self._core.state.settings.get(name))

    async def put(self, name: str, value: Any) -> None:
        async with self._core.change() as tx:
            tx.put_setting(name, value)
