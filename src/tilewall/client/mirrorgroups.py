"""Mirror groups: displays showing the same thing. Each call takes the group's name or
id (see :class:`Named`); create, update and delete are tilewall extensions."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import By, Json
from tilewall.client.playback import NamedPlayable


class MirrorGroups(NamedPlayable):
    collection = "/mirrorgroups"
    list_key = "mirrorgroups"
    what = "mirror group"
    has_byname = True

    def get(self, group: str, *, by: By = "auto") -> Json:
        return self._read(group, by)

    # tilewall extensions

    def create(self, name: str, display_ids: Sequence[int]) -> Json:
        return self._t.json(
            "POST", self.collection, json={"name": name, "displayIds": list(display_ids)}
        )

    def update(
        self,
        group: str,
        *,
        name: str | None = None,
        display_ids: Sequence[int] | None = None,
        by: By = "auto",
    ) -> Json:
        """Change the name or the displays; what is None is kept."""
        body: Json = {}
        if name is not None:
            body["name"] = name
        if display_ids is not None:
            body["displayIds"] = list(display_ids)
        return self._t.json("PUT", self._id_path(group, by), json=body)

    def delete(self, group: str, *, by: By = "auto") -> Json:
        return self._t.json("DELETE", self._id_path(group, by))
