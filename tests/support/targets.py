"""Playback targets: what plays a source. A display, a zone (by id or by name) and a
mirror group (by id or by name), made afresh for a test, with the helpers that drive them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.support.http import Api, ok, url
from tests.support.media import media_root, write_mp4, write_png
from tests.support.sources import signage_source
from tests.support.topology import locked_display, make_mirror, make_wall, unique

TARGETS = ["display", "zone by id", "zone by name", "mirror group by id", "mirror group by name"]
#: the targets with a switch operation (a mirror group plays a source it is given instead)
SWITCHING = TARGETS[:3]
#: the targets with a stop operation
STOPPING = TARGETS[1:3]

DISPLAY_FIELDS = {"displayId", "seatId", "isOnline", "playingSourceId", "isShowingWelcomeScreen"}
ZONE_FIELDS = {"zoneId", "zoneName", "isPlaying", "playingSourceId", "videowallId"}
MIRROR_FIELDS = {
    "id",
    "name",
    "displayIds",
    "isPlaying",
    "playingSourceId",
    "isShowingWelcomeScreen",
}
MEDIA_INFO = {"filename", "totalDurationInMillliseconds", "currentTimeInMilliseconds"}


@dataclass
class Target:
    kind: str
    path: str  #: where its operations are
    missing: str  #: the same kind of path naming nothing
    displays: list[int]  #: the displays showing what it plays
    fields: set[str]  #: the fields of what play, pause, resume (and switch, stop) answer
    item: str  #: where it is read (with isPlaying, except a display's)
    idle: list[int]  #: displays of the same wall that must not follow it

    def op(self, name: str) -> str:
        return f"{self.path}/{name}"

    @property
    def switches(self) -> bool:
        return not self.kind.startswith("mirror")

    @property
    def stops(self) -> bool:
        return self.kind.startswith("zone")

    @property
    def switch_parameter(self) -> str:
        """The parameter a switch without a destination is told to name."""
        return "destinationSourceName" if self.kind == "zone by name" else "destinationSourceId"


def make_target(api: Api, kind: str) -> Target:
    """A new target of ``kind``, nothing playing."""
    by_name = kind.endswith("by name")
    if kind == "display":
        display = locked_display(api)
        path = url("displays", str(display))
        return Target(kind, path, "/displays/999", [display], DISPLAY_FIELDS, path, [])
    if kind.startswith("zone"):
        zone, other = unique("North zone"), unique("Zone süd")
        wall = make_wall(api, unique("Main wall"), zones={zone: [0, 1], other: [2, 3]})
        item = url("zones", wall.zone_id(zone))
        path = url("zones", "byname", zone) if by_name else item
        missing = "/zones/byname/Nowhere" if by_name else "/zones/nowhere"
        return Target(kind, path, missing, wall.displays[:2], ZONE_FIELDS, item, wall.displays[2:])
    mirror = make_mirror(api, unique("Reception – pair"))
    item = url("mirrorgroups", mirror.id)
    path = url("mirrorgroups", "byname", mirror.name) if by_name else item
    missing = "/mirrorgroups/byname/Nowhere" if by_name else "/mirrorgroups/nowhere"
    return Target(kind, path, missing, mirror.displays, MIRROR_FIELDS, item, [])


def playing(api: Api, display: int) -> str:
    return str(ok(api.get(f"/displays/{display}"))["playingSourceId"])


def shown_source(api: Api, display: int) -> dict[str, Any]:
    """The source ``display`` is told to show (its render description's)."""
    source: dict[str, Any] = ok(api.get(f"/displays/{display}/render"))["content"]["source"]
    return source


def info(api: Api, target: Target) -> dict[str, Any]:
    body: dict[str, Any] = ok(api.get(target.op("mediainfo")))
    return body


def switch(api: Api, target: Target, source: dict[str, Any], **params: Any) -> Any:
    """Play ``source``: switch to it, or (a mirror group) play it."""
    if target.switches:
        return ok(
            api.put(
                target.op("switch"), params={"destinationSourceId": source["sourceId"], **params}
            )
        )
    return ok(api.put(target.op("play"), json={"sourceId": source["sourceId"]}))


def slideshow(api: Api, target: Target) -> dict[str, Any]:
    """A paused signage playlist on ``target``: red.png (4 s), clip.mp4 (3 s), blue.png
    (4 s), at its start."""
    root = media_root(api)
    write_png(root, "mixed/red.png", (255, 0, 0))
    write_mp4(root, "mixed/clip.mp4", seconds=3)
    write_png(root, "mixed/blue.png", (0, 0, 255))
    files = ("mixed/red.png", "mixed/clip.mp4", "mixed/blue.png")
    source = signage_source(api, unique("Mixed"), *files, interval=4)
    switch(api, target, source)
    ok(api.put(target.op("pause")))
    ok(api.put(target.op("seek"), json={"time": 0}))
    return source


def still(api: Api, target: Target, *names: str) -> dict[str, Any]:
    """A signage source of images ``names`` (written as needed) playing on ``target``."""
    for name in names:
        write_png(media_root(api), name)
    source = signage_source(api, unique("Slides"), *names)
    switch(api, target, source)
    return source


def is_playing(api: Api, target: Target) -> bool | None:
    """What reading the target says of whether it plays (a display does not say)."""
    shown: dict[str, Any] = ok(api.get(target.item))
    return shown.get("isPlaying")


def check_playing(target: Target, body: dict[str, Any], expected: bool) -> None:
    """An answer has the target's fields, and says whether it plays (a display's does not)."""
    assert set(body) == target.fields, body
    if "isPlaying" in target.fields:
        assert body["isPlaying"] is expected, body


#: every operation with a body it would accept
OPERATIONS = [
    ("play", None),
    ("pause", None),
    ("resume", None),
    ("seek", {"time": 0}),
    ("forward", {"time": 0}),
    ("rewind", {"time": 0}),
    ("playVideoList", {"videolist": ["a.png"]}),
]
