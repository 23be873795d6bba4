"""The host's state as documents: which collections are stored, under which kind, keyed
how, and how a stored body becomes the value memory holds."""

from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from tilewall.host import model


class Collection(NamedTuple):
    """A persisted collection: the type of its objects, how they are keyed, and the
    attribute of ``tilewall.host.memory.State`` that holds them."""

    type: type[Any]
    key: Callable[[Any], str]
    attribute: str


#: each persisted collection by the kind of its documents
COLLECTIONS: dict[str, Collection] = {
    "station": Collection(model.Station, lambda o: o.seat_id, "stations"),
    "display": Collection(model.Display, lambda o: str(o.display_id), "displays"),
    "wall": Collection(model.VideoWall, lambda o: o.id, "walls"),
    "zone": Collection(model.Zone, lambda o: o.id, "zones"),
    "mirror": Collection(model.MirrorGroup, lambda o: o.id, "mirrors"),
    "source": Collection(model.Source, lambda o: o.id, "sources"),
    "preset": Collection(model.Preset, lambda o: o.id, "presets"),
    "layout": Collection(model.Layout, lambda o: o.id, "layouts"),
    "event": Collection(model.ScheduledEvent, lambda o: o.id, "events"),
}
TOPOLOGY_KINDS = frozenset({"display", "wall", "zone", "mirror"})
#: the kind of the host's settings documents
SETTING = "setting"
KIND_OF: dict[type[Any], str] = {c.type: kind for kind, c in COLLECTIONS.items()}

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
    return msgspec.json.decode(body, type=COLLECTIONS[kind].type)
