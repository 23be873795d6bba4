"""Mirror groups: displays showing the same thing. Each call takes the group's name or
id (see :class:`Named`); create, update and delete are tilewall extensions."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import By, Items, Json, seg
from tilewall.client.playback import Playable


class MirrorGroups(Playable):
    collection = "/mirrorgroups"
    list_key = "mirrorgroups"
    what = "mirror group"
    has_byname = True

    def list(self) -> Items:
        """Every mirror group as ``{id, name}``."""
        return self._t.array("GET", self.collection, self.list_key)

    def get(self, group: str, *, by: By = "auto") -> Json:
        return self._read(group, by)

    def play(
        self,
        group: str,
        source: str | None = None,
        *,
        source_id: str | None = None,
        by: By = "auto",
    ) -> Json:
        """Play the given source (by name or id), or without one the assigned source."""
        return self._play(self._prefix(group, by), source, source_id)

    def play_video_list(
        self,
        group: str,
        files: Sequence[str],
        *,
        queue: bool = False,
        repeat: bool = False,
        interval: int = 10,
        by: By = "auto",
    ) -> Json:
        return self._video_list(self._prefix(group, by), files, queue, repeat, interval)

    def pause(self, group: str, *, by: By = "auto") -> Json:
        return self._action(self._prefix(group, by), "pause")

    def resume(self, group: str, *, by: By = "auto") -> Json:
        return self._action(self._prefix(group, by), "resume")

    def rewind(self, group: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(group, by), "rewind", ms)

    def forward(self, group: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(group, by), "forward", ms)

    def seek(self, group: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(group, by), "seek", ms)

    def media_info(self, group: str, *, by: By = "auto") -> Json:
        return self._media_info(self._prefix(group, by))

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
        return self._t.json("PUT", self.collection + seg(self._id(group, by)), json=body)

    def delete(self, group: str, *, by: By = "auto") -> Json:
        return self._t.json("DELETE", self.collection + seg(self._id(group, by)))
