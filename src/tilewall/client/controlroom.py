"""Control rooms: zones showing a Command and Control source, their layouts, the layout
shown and loading another; managing layouts is a tilewall extension. Zones are named by
their zone name (as the interface does); layouts of the extension by name or id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilewall.client.base import By, Items, Json, Named, seg

LAYOUTS = "/controlroom/layouts"


def window(
    source_id: str, x: float = 0.0, y: float = 0.0, width: float = 1.0, height: float = 1.0
) -> Json:
    """A window of a layout showing a source; position and size as fractions (0..1) of
    the zone's picture."""
    return {"sourceId": source_id, "x": x, "y": y, "width": width, "height": height}


class ControlRoom(Named):
    collection = LAYOUTS
    list_key = "layouts"
    what = "layout"

    def list(self) -> Items:
        """The control-room instances: zones assigned to a Command and Control source."""
        return self._t.array("GET", "/controlroom", "controlrooms")

    def layouts(self, zone_name: str) -> Items:
        """The layouts the zone's Command and Control source offers."""
        return self._t.array("GET", f"/controlroom{seg(zone_name)}/layouts", "layouts")

    def current_layout(self, zone_name: str) -> Json:
        """The layout the zone shows; ``id`` '' and ``name`` 'None' when none."""
        return self._t.json("GET", f"/controlroom{seg(zone_name)}/currentlayout")

    def load(self, zone_name: str, layout_name: str) -> Json:
        """Show one of the zone's layouts, by its name."""
        return self._t.json("PUT", f"/controlroom{seg(zone_name)}/load{seg(layout_name)}")

    # tilewall extensions: the layouts themselves

    def all_layouts(self) -> Items:
        """Every layout, with its windows."""
        return self._t.array("GET", LAYOUTS, self.list_key)

    def get_layout(self, layout: str, *, by: By = "auto") -> Json:
        return self._read(layout, by)

    def create_layout(self, name: str, windows: Sequence[Mapping[str, Any]] = ()) -> Json:
        """A layout of windows (see :func:`window`)."""
        return self._t.json(
            "POST", LAYOUTS, json={"name": name, "windows": [dict(w) for w in windows]}
        )

    def update_layout(
        self,
        layout: str,
        *,
        name: str | None = None,
        windows: Sequence[Mapping[str, Any]] | None = None,
        by: By = "auto",
    ) -> Json:
        """Change the name or the windows; what is None is kept."""
        body: Json = {}
        if name is not None:
            body["name"] = name
        if windows is not None:
            body["windows"] = [dict(w) for w in windows]
        return self._t.json("PUT", self._id_path(layout, by), json=body)

    def delete_layout(self, layout: str, *, by: By = "auto") -> Json:
        """Delete a layout no Command and Control source lists."""
        return self._t.json("DELETE", self._id_path(layout, by))
