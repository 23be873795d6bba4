"""The one topology builder: receivers and locked displays, video walls with zones,
mirror groups, and a whole scene of them with sources of every catalogue type.

Everything is made over the interface, except a receiver's hello (a receiver says it
over its WebSocket; here it is said on the host directly).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from tests.support.app import host_of, run
from tests.support.http import Api, ok, url
from tests.support.media import media_root, write_png
from tests.support.sources import CATALOGUE_TYPES, create_source
from tilewall.host.model import Resolution

HD = Resolution(1920, 1080)
RESOLUTIONS = [Resolution(1920, 1080), Resolution(1280, 720), Resolution(3840, 2160)]

_seq = itertools.count(1)


def unique(prefix: str) -> str:
    """``prefix`` and a number no other call in this run gets."""
    return f"{prefix} {next(_seq)}"


# --- receivers and displays ---------------------------------------------------------------


def register(
    api: Api,
    seat_id: str | None = None,
    ip: str | None = None,
    *,
    model: str = "Kiosk",
    firmware: str = "1.0",
    screen: Resolution = HD,
    resolutions: list[Resolution] | None = None,
    usb_devices: list[dict[str, object]] | None = None,
) -> Any:
    """A receiver says hello to the host (available, not locked); its station."""
    n = next(_seq)
    seat_id = seat_id or f"seat-{n:04d}"
    ip = ip or f"10.0.{n // 250}.{n % 250 + 1}"
    return run(
        api,
        host_of(api).stations.hello,
        seat_id,
        ip,
        model,
        firmware,
        screen,
        list(RESOLUTIONS if resolutions is None else resolutions),
        usb_devices=usb_devices,
    )


def lock(api: Api, seat_or_ip: str) -> int:
    """Lock a receiver over the interface; its display id."""
    body = ok(api.put(url("network", seat_or_ip, "lock")))
    assert body["status"] == "CONNECTED", body
    return int(body["displayId"])


def locked_display(api: Api, seat_id: str | None = None, ip: str | None = None) -> int:
    """A new receiver, locked: its display id."""
    return lock(api, register(api, seat_id, ip).seat_id)


def locked_displays(api: Api, count: int) -> list[int]:
    return [locked_display(api) for _ in range(count)]


# --- video walls and zones ----------------------------------------------------------------


def geometry(
    width: float, height: float, cx: float, cy: float, rot: float = 0.0
) -> dict[str, float]:
    return {"width": width, "height": height, "centerX": cx, "centerY": cy, "rotationDegrees": rot}


def wall_body(
    name: str,
    displays: list[int],
    cols: int = 2,
    w: float = 1000,
    h: float = 600,
    bezel: float = 10,
) -> dict[str, Any]:
    """A create body: ``displays`` row by row, ``cols`` monitors of ``w`` x ``h`` a row."""
    monitors = []
    for i, display_id in enumerate(displays):
        row, col = divmod(i, cols)
        monitors.append(
            {
                "displayId": display_id,
                "monitorGeometry": geometry(
                    w, h, col * (w + bezel) + w / 2, row * (h + bezel) + h / 2
                ),
                "monitorDiagonal": {"lengthInMillimeter": 1320.0},
            }
        )
    return {"name": name, "monitors": monitors}


@dataclass
class Wall:
    id: str
    name: str
    displays: list[int]
    zones: dict[str, dict[str, Any]] = field(default_factory=dict)  # by zone name

    def zone_id(self, name: str) -> str:
        return str(self.zones[name]["zoneId"])


def make_wall(
    api: Api,
    name: str = "Lobby wall",
    zones: dict[str, list[int]] | None = None,
    displays: list[int] | None = None,
    count: int = 4,
    monitor: tuple[float, float, float] = (1000, 600, 10),
) -> Wall:
    """A wall of ``count`` new locked displays (or of ``displays``), two a row (2x2 by
    default), each ``monitor`` (width, height, bezel); ``zones`` maps zone names to
    display positions. By default zone "Left" holds positions 0 and 2, zone "Right" 1
    and 3."""
    displays = displays or locked_displays(api, count)
    w, h, bezel = monitor
    body = ok(api.post("/videowalls", json=wall_body(name, displays, 2, w, h, bezel)))
    wall = Wall(body["id"], body["name"], displays)
    layout = {"Left": [0, 2], "Right": [1, 3]} if zones is None else zones
    for zone_name, positions in layout.items():
        wall.zones[zone_name] = ok(
            api.post(
                "/zones",
                json={
                    "zoneName": zone_name,
                    "videowallId": wall.id,
                    "displayIds": [displays[p] for p in positions],
                },
            )
        )
    return wall


#: one zone, "All", over the whole of a 2x2 wall
WHOLE_WALL = {"All": [0, 1, 2, 3]}
#: a 1080p monitor with no bezel: a picture spread over a wall of them has no gaps
HD_MONITOR = (1920.0, 1080.0, 0.0)


def zone_on_new_wall(api: Api, zone_name: str, count: int = 2) -> dict[str, Any]:
    """A zone of all ``count`` displays of a new wall; the zone (its full shape)."""
    wall = make_wall(api, f"wall of {zone_name}", {zone_name: list(range(count))}, count=count)
    return wall.zones[zone_name]


# --- mirror groups ------------------------------------------------------------------------


@dataclass
class Mirror:
    id: str
    name: str
    displays: list[int]


def make_mirror(api: Api, name: str = "Reception pair", count: int = 2) -> Mirror:
    displays = locked_displays(api, count)
    body = ok(api.post("/mirrorgroups", json={"name": name, "displayIds": displays}))
    assert body["displayIds"] == displays, body
    return Mirror(body["id"], body["name"], displays)


# --- a whole scene ------------------------------------------------------------------------


@dataclass
class Topology:
    display: int  #: a standalone display
    wall: Wall  #: a 2x2 wall with zones "Left" (positions 0, 2) and "Right" (1, 3)
    mirror: Mirror  #: a mirror group of two displays
    sources: dict[str, dict[str, Any]]  #: one source of every catalogue type, by type
    media: list[str]  #: image files in the library


def make_topology(api: Api, prefix: str = "") -> Topology:
    """A standalone display, a 2x2 wall with two zones, a mirror group, a source of every
    catalogue type and a few images; names start with ``prefix``."""
    media = [write_png(media_root(api), f"scene/{c}.png", rgb) for c, rgb in _COLOURS.items()]
    return Topology(
        display=locked_display(api),
        wall=make_wall(
            api, f"{prefix}Lobby wall", {f"{prefix}Left": [0, 2], f"{prefix}Right": [1, 3]}
        ),
        mirror=make_mirror(api, f"{prefix}Reception pair"),
        sources={t: create_source(api, t, f"{prefix}A {t}") for t in CATALOGUE_TYPES},
        media=media,
    )


_COLOURS = {"red": (220, 20, 20), "green": (20, 220, 20), "blue": (20, 20, 220)}


# --- finding objects by name --------------------------------------------------------------


def find(api: Api, collection: str, key: str, field_name: str, value: Any) -> dict[str, Any]:
    """The item of list ``collection`` (answer key ``key``) whose ``field_name`` is ``value``."""
    for item in ok(api.get(collection))[key]:
        if item[field_name] == value:
            return item
    raise AssertionError(f"no {collection} item with {field_name} {value!r}")


def source_id(api: Api, name: str) -> str:
    return str(find(api, "/sources", "sources", "sourceName", name)["sourceId"])


def zone_named(api: Api, name: str) -> dict[str, Any]:
    return find(api, "/zones", "zones", "zoneName", name)


def station(api: Api, seat: str) -> dict[str, Any]:
    return find(api, "/network", "network", "seatId", seat)
