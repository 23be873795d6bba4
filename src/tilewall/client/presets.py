"""Presets: save what every display, zone and mirror group plays, and recall it. Calls
take the preset's name or id (see :class:`Named`)."""

from __future__ import annotations

from tilewall.client.base import By, Json, Named


class Presets(Named):
    collection = "/presets"
    list_key = "presets"
    what = "preset"
    has_byname = True

    def save(self, name: str) -> Json:
        """Save the current mapping under ``name`` (a preset of that name is updated)."""
        return self._t.json("POST", self.collection, json={"name": name})

    def get(self, preset: str, *, by: By = "auto") -> Json:
        return self._read(preset, by)

    def recall(self, preset: str, *, by: By = "auto") -> Json:
        """Switch to the preset (the interface's ``PUT .../switch``): ``{id, name, playing}``."""
        return self._t.json("PUT", f"{self._prefix(preset, by)}/switch")

    def delete(self, preset: str, *, by: By = "auto") -> Json:
        return self._t.json("DELETE", self._prefix(preset, by))
