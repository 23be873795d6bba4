"""The host's state as documents: which collections are stored, under which kind, keyed
how, and how a stored body becomes the value memory holds."""

from collections.abc import Callable
from typing import Any

import msgspec

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

#: (kind, key) of a document
Name = tuple[str, str]


def memory_key(kind: str, key: str) -> Any:
    """The key of a document in its collection in memory (displays by number)."""
    return int(key) if kind == "display" else key


def decode(kind: str, body: bytes) -> Any:
    """The value memory holds for the stored ``body`` of a document of ``kind``: a
    model object, or a setting's plain JSON value. Raises msgspec.DecodeError."""
    if kind == SETTING:
        return msgspec.json.decode(body)
    return msgspec.json.decode(body, type=COLLECTIONS[kind][0])
