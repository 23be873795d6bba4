"""Video walls: list, read, delete; create and update are tilewall extensions. Calls
take the wall's name or id (see :class:`Named`; walls have no by-name paths, so a name
is looked up in the list)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilewall.client.base import By, Items, Json, Named

Geometry = Mapping[str, float]


def geometry(
    width: float, height: float, center_x: float, center_y: float, rotation: float = 0.0
) -> Json:
    """A geometry as the interface writes it."""
    return {
        "width": width,
        "height": height,
        "centerX": center_x,
        "centerY": center_y,
        "rotationDegrees": rotation,
    }


def monitor(display_id: int, geometry: Geometry, diagonal_mm: float = 0.0) -> Json:
    """One monitor of a wall: a display and where it sits on the wall's canvas."""
    return {
        "displayId": display_id,
        "monitorGeometry": dict(geometry),
        "monitorDiagonal": {"lengthInMillimeter": diagonal_mm},
    }


def grid(
    display_ids: Sequence[int],
    columns: int,
    width: float = 1210.0,
    height: float = 680.0,
    bezel: float = 10.0,
    diagonal_mm: float = 1397.0,
) -> Items:
    """Monitors of equal panels in rows of ``columns``, left to right, top to bottom,
    ``bezel`` apart (the default panel is a 55-inch 16:9 screen in millimetres)."""
    if columns < 1:
        raise ValueError("columns must be at least 1")
    monitors = []
    for i, display_id in enumerate(display_ids):
        row, col = divmod(i, columns)
        centre_x = width / 2 + col * (width + bezel)
        centre_y = height / 2 + row * (height + bezel)
        monitors.append(
            monitor(display_id, geometry(width, height, centre_x, centre_y), diagonal_mm)
        )
    return monitors


class VideoWalls(Named):
    collection = "/videowalls"
    list_key = "videowalls"
    what = "video wall"

    def get(self, wall: str, *, by: By = "auto") -> Json:
        return self._read(wall, by)

    def delete(self, wall: str, *, by: By = "auto") -> Json:
        """Delete the wall and its zones."""
        return self._t.json("DELETE", self._id_path(wall, by))

    # tilewall extensions

    def create(
        self, name: str, monitors: Sequence[Mapping[str, Any]], canvas: Geometry | None = None
    ) -> Json:
        """A wall of monitors (see :func:`monitor` and :func:`grid`); the canvas is their
        bounding box unless given."""
        body: Json = {"name": name, "monitors": [dict(m) for m in monitors]}
        if canvas is not None:
            body["canvasGeometry"] = dict(canvas)
        return self._t.json("POST", self.collection, json=body)

    def update(
        self,
        wall: str,
        *,
        name: str | None = None,
        monitors: Sequence[Mapping[str, Any]] | None = None,
        canvas: Geometry | None = None,
        by: By = "auto",
    ) -> Json:
        """Change the name, the monitors or the canvas; what is None is kept."""
        body: Json = {}
        if name is not None:
            body["name"] = name
        if monitors is not None:
            body["monitors"] = [dict(m) for m in monitors]
        if canvas is not None:
            body["canvasGeometry"] = dict(canvas)
        return self._t.json("PUT", self._id_path(wall, by), json=body)
