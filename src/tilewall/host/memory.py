"""The host's state in memory, and the transaction a change runs through.

:class:`State` is what readers see; a change edits it through a :class:`Transaction`,
which records what the store must write (:mod:`tilewall.host.commit` writes it,
:class:`tilewall.host.state.Core` orders the changes)."""

from dataclasses import dataclass, field
from typing import Any

import msgspec

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
    ScheduledEvent,
    Source,
    Station,
    VideoWall,
    Zone,
)


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
        collection: dict[Any, Any] = getattr(self, COLLECTIONS[kind].attribute)
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
        key = COLLECTIONS[kind].key(obj)
        if kind in TOPOLOGY_KINDS:
            self._state.topology_version += 1
        self._state.collection(kind)[memory_key(kind, key)] = obj
        self.changes[(kind, key)] = msgspec.json.encode(obj)
        self.values[(kind, key)] = obj

    def delete(self, obj: Any) -> None:
        kind = KIND_OF[type(obj)]
        key = COLLECTIONS[kind].key(obj)
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
