"""Zones of video walls. Each call takes the zone's name or id (see :class:`Named` for
how ``by`` chooses); create, update and delete are tilewall extensions."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import By, Items, Json, seg
from tilewall.client.playback import NamedPlayable


class Zones(NamedPlayable):
    collection = "/zones"
    list_key = "zones"
    id_field = "zoneId"
    name_field = "zoneName"
    what = "zone"
    has_byname = True

    def of_wall(self, wall_id: str) -> Items:
        """The zones of one video wall (by its id)."""
        return self._t.array("GET", f"/zones/byvideowallid{seg(wall_id)}", self.list_key)

    def get(self, zone: str, *, by: By = "auto") -> Json:
        return self._read(zone, by)

    def rename(self, zone: str, new_name: str, *, by: By = "auto") -> Json:
        """Rename (the interface renames by name; an id is looked up first)."""
        name = zone if by == "name" else str(self.get(zone, by=by)[self.name_field])
        return self._t.json(
            "PUT", f"/zones/byname{seg(name)}/rename", params={"newZoneName": new_name}
        )

    def switch(
        self,
        zone: str,
        source: str | None = None,
        *,
        source_id: str | None = None,
        welcome: bool = False,
        by: By = "auto",
    ) -> Json:
        """Play a source on the zone: ``source`` by name or ``source_id`` by id."""
        return self._switch(self._prefix(zone, by), source, source_id, welcome)

    def play_assigned(self, zone: str, *, by: By = "auto") -> Json:
        """The earlier-style operation: ``playAssignedSource`` by name,
        ``playAssignedProfile`` by id."""
        prefix = self._prefix(zone, by)
        by_name = prefix.startswith(f"{self.collection}/byname/")
        action = "playAssignedSource" if by_name else "playAssignedProfile"
        return self._action(prefix, action)

    def stop(self, zone: str, *, by: By = "auto") -> Json:
        return self._action(self._prefix(zone, by), "stop")

    # tilewall extensions

    def create(
        self,
        name: str,
        wall_id: str,
        display_ids: Sequence[int],
        *,
        control_display_id: int | None = None,
    ) -> Json:
        """A zone of some displays of a video wall."""
        body: Json = {"zoneName": name, "videowallId": wall_id, "displayIds": list(display_ids)}
        if control_display_id is not None:
            body["controlDisplayId"] = control_display_id
        return self._t.json("POST", self.collection, json=body)

    def update(
        self,
        zone: str,
        *,
        name: str | None = None,
        display_ids: Sequence[int] | None = None,
        control_display_id: int | None = None,
        by: By = "auto",
    ) -> Json:
        """Change the name, the displays or the control display; what is None is kept."""
        body: Json = {}
        if name is not None:
            body["zoneName"] = name
        if display_ids is not None:
            body["displayIds"] = list(display_ids)
        if control_display_id is not None:
            body["controlDisplayId"] = control_display_id
        return self._t.json("PUT", self._id_path(zone, by), json=body)

    def delete(self, zone: str, *, by: By = "auto") -> Json:
        return self._t.json("DELETE", self._id_path(zone, by))
