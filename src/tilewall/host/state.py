"""The host's state in memory, and the one way to change it: a durable transaction."""

import asyncio
import contextvars
import copy
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

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
from tilewall.host.ports import Change, Clock, DocumentStore
from tilewall.host.schedule.model import ScheduledEvent

log = logging.getLogger(__name__)

T = TypeVar("T")

#: set while the current task is inside :meth:`Core.change`; the lock is not re-entrant
_IN_CHANGE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_change", default=False)

#: document kind of each persisted collection, and how its objects are keyed
COLLECTIONS: dict[str, tuple[type[Any], Callable[[Any], str]]] = {
    "station": (Station, lambda o: o.seat_id),
    "display": (Display, lambda o: str(o.display_id)),
    "wall": (VideoWall, lambda o: o.id),
    "zone": (Zone, lambda o: o.id),
    "mirror": (MirrorGroup, lambda o: o.id),
    "source": (Source, lambda o: o.id),
    "preset": (Preset, lambda o: o.id),
    "layout": (Layout, lambda o: o.id),
    "event": (ScheduledEvent, lambda o: o.id),
}
TOPOLOGY_KINDS = frozenset({"display", "wall", "zone", "mirror"})
#: the kind of the host's settings documents
SETTING = "setting"
KIND_OF: dict[type[Any], str] = {cls: kind for kind, (cls, _) in COLLECTIONS.items()}


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
        collections: dict[str, dict[Any, Any]] = {
            "station": self.stations,
            "display": self.displays,
            "wall": self.walls,
            "zone": self.zones,
            "mirror": self.mirrors,
            "source": self.sources,
            "preset": self.presets,
            "layout": self.layouts,
            "event": self.events,
        }
        return collections[kind]


@dataclass(frozen=True)
class Event:
    """Something changed. ``displays`` None means any display may be affected."""

    displays: frozenset[int] | None
    topology: bool = False


class Transaction:
    """Collects the documents a change writes and the displays it affects.

    Services change the live state through it (``put``, ``delete``, ``put_setting``);
    :meth:`Core.change` takes the change back out of memory while the store commits it
    and puts it back only once it is durable.
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
        self._state.collection(kind)[_memory_key(kind, key)] = obj
        self.changes[(kind, key)] = msgspec.json.encode(obj)
        self.values[(kind, key)] = obj

    def delete(self, obj: Any) -> None:
        kind = KIND_OF[type(obj)]
        key = COLLECTIONS[kind][1](obj)
        if kind in TOPOLOGY_KINDS:
            self._state.topology_version += 1
        self._state.collection(kind).pop(_memory_key(kind, key), None)
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


def _memory_key(kind: str, key: str) -> Any:
    return int(key) if kind == "display" else key


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
        self._lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._command_listeners: list[CommandListener] = []
        self._checks: list[Check] = []
        #: every document as last committed; what memory returns to when a change fails
        self._committed: dict[tuple[str, str], bytes] = {}
        #: told (seconds, committed) after each store commit, for metrics
        self.commit_observers: list[Callable[[float, bool], None]] = []
        #: moves whenever what readers see may have changed (a change installed or taken
        #: back, an announcement): views encoded once per revision key on it
        self.revision = 0

    async def load(self) -> None:
        if self.store is None:
            return
        documents = await self.store.load_documents()
        for kind, docs in documents.items():
            for key, body in docs.items():
                self._committed[(kind, key)] = body
            if kind == SETTING:
                self.state.settings.update({k: msgspec.json.decode(v) for k, v in docs.items()})
                continue
            cls, _ = COLLECTIONS[kind]
            target = self.state.collection(kind)
            for key, body in docs.items():
                target[_memory_key(kind, key)] = msgspec.json.decode(body, type=cls)
        self.state.mapping_generation = int(self.state.settings.get("mapping_generation", 0))
        self.revision += 1

    async def absorb(self, documents: Mapping[tuple[str, str], bytes | None]) -> None:
        """Install documents another member of the group committed (None: deleted) and
        announce them; nothing is written. A standby follows its active member so."""
        if not documents:
            return
        async with self._lock:
            for (kind, key), body in documents.items():
                if kind != SETTING and kind not in COLLECTIONS:
                    log.warning("ignoring a document of unknown kind %r", kind)
                    continue
                try:
                    self._set_document(kind, key, body)
                except msgspec.DecodeError as error:
                    log.error("ignoring document %s/%s: %s", kind, key, error)
                    continue
                if body is None:
                    self._committed.pop((kind, key), None)
                else:
                    self._committed[(kind, key)] = body
            self.state.mapping_generation = int(self.state.settings.get("mapping_generation", 0))
            self.state.topology_version += 1
        self.notify(None, topology=True)

    async def replace(self, documents: Mapping[str, Mapping[str, bytes]]) -> None:
        """Make ``documents`` (by kind, then key) the whole state, as :meth:`absorb`
        does: what differs from memory is installed, what is gone is removed."""
        wanted = {
            (kind, key): body for kind, docs in documents.items() for key, body in docs.items()
        }
        changed: dict[tuple[str, str], bytes | None] = {
            name: body for name, body in wanted.items() if self._committed.get(name) != body
        }
        changed.update({name: None for name in self._committed if name not in wanted})
        await self.absorb(changed)

    def _set_document(self, kind: str, key: str, body: bytes | None) -> None:
        if kind == SETTING:
            if body is None:
                self.state.settings.pop(key, None)
            else:
                self.state.settings[key] = msgspec.json.decode(body)
            return
        target = self.state.collection(kind)
        if body is None:
            target.pop(_memory_key(kind, key), None)
        else:
            target[_memory_key(kind, key)] = msgspec.json.decode(body, type=COLLECTIONS[kind][0])

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
        """Run a change under the host's lock: all of it, or nothing.

        The block changes the live state through the transaction, without awaiting. When
        it exits, memory goes back to what is committed while the store writes the
        change (readers never see a change that is not durable); once the store has
        committed, the change is put back and announced. If the block raises or the
        store fails (:class:`~tilewall.host.errors.StoreFailed`), memory stays as it
        was before the change and the error propagates.
        """
        if _IN_CHANGE.get():
            raise RuntimeError(
                "Core.change() entered again from inside a change: it would deadlock"
            )
        async with self._lock:
            tx = Transaction(self.state)
            generation = self.state.mapping_generation
            token = _IN_CHANGE.set(True)
            try:
                yield tx
                for check in self._checks:
                    check(tx)
            except BaseException:
                self._restore(tx)
                raise
            finally:
                _IN_CHANGE.reset(token)
            if tx.mapping:
                tx.put_setting("mapping_generation", generation + 1)
            if tx.changes:
                self._restore(tx)
                if self.store is not None:
                    await self._commit(tx)
                self._install(tx)
        if tx.displays or tx.all_displays or tx.topology:
            self.notify(None if tx.all_displays else frozenset(tx.displays), tx.topology)

    async def _commit(self, tx: Transaction) -> None:
        assert self.store is not None
        started = time.perf_counter()
        committed = False
        try:
            await self.store.apply(Change(k, key, body) for (k, key), body in tx.changes.items())
            committed = True
        finally:
            for observer in self.commit_observers:
                observer(time.perf_counter() - started, committed)

    def _restore(self, tx: Transaction) -> None:
        """Put every document ``tx`` touched back to its committed value."""
        state = self.state
        for kind, key in tx.changes:
            body = self._committed.get((kind, key))
            if kind == SETTING:
                if body is None:
                    state.settings.pop(key, None)
                else:
                    state.settings[key] = msgspec.json.decode(body)
                continue
            target = state.collection(kind)
            if body is None:
                target.pop(_memory_key(kind, key), None)
            else:
                target[_memory_key(kind, key)] = msgspec.json.decode(
                    body, type=COLLECTIONS[kind][0]
                )
        state.mapping_generation = int(state.settings.get("mapping_generation", 0))
        state.topology_version += 1
        self.revision += 1

    def _install(self, tx: Transaction) -> None:
        """Make the committed change ``tx`` the host's state."""
        state = self.state
        for (kind, key), value in tx.values.items():
            body = tx.changes[(kind, key)]
            if body is None:
                self._committed.pop((kind, key), None)
            else:
                self._committed[(kind, key)] = body
            target = state.settings if kind == SETTING else state.collection(kind)
            name = key if kind == SETTING else _memory_key(kind, key)
            if value is None:
                target.pop(name, None)
            else:
                target[name] = value
        state.mapping_generation = int(state.settings.get("mapping_generation", 0))
        state.topology_version += 1
        self.revision += 1

    def notify(self, displays: frozenset[int] | None, topology: bool = False) -> None:
        """Tell listeners what changed; also for changes that are not stored (liveness)."""
        self.revision += 1
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
