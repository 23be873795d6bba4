"""Displays: list, read, switch, playback control, resolution, tag, reset, and what a
display shows (its render description, a tilewall extension)."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import Items, Json, seg
from tilewall.client.playback import Playable

DisplayId = int | str


class Displays(Playable):
    collection = "/displays"
    list_key = "displays"
    what = "display"

    def _path(self, display: DisplayId) -> str:
        return self.collection + seg(display)

    def list(self, standalone_only: bool = False) -> Items:
        """Every display; ``standalone_only``: those in no video wall."""
        params = {"isStandaloneOnly": True} if standalone_only else None
        return self._t.array("GET", self.collection, self.list_key, params=params)

    def get(self, display: DisplayId) -> Json:
        return self._t.json("GET", self._path(display))

    def switch(
        self,
        display: DisplayId,
        source: str | None = None,
        *,
        source_id: str | None = None,
        welcome: bool = False,
    ) -> Json:
        """Play a source at once: ``source`` by name or ``source_id`` by id. ``welcome``
        shows the welcome screen instead."""
        return self._switch(self._path(display), source, source_id, welcome)

    def play(
        self, display: DisplayId, source: str | None = None, *, source_id: str | None = None
    ) -> Json:
        """Play the given source, or without one the display's assigned source."""
        return self._play(self._path(display), source, source_id)

    def play_video_list(
        self,
        display: DisplayId,
        files: Sequence[str],
        *,
        queue: bool = False,
        repeat: bool = False,
        interval: int = 10,
    ) -> Json:
        """Play media files of the library; ``interval`` seconds per image."""
        return self._video_list(self._path(display), files, queue, repeat, interval)

    def pause(self, display: DisplayId) -> Json:
        return self._action(self._path(display), "pause")

    def resume(self, display: DisplayId) -> Json:
        return self._action(self._path(display), "resume")

    def reset(self, display: DisplayId) -> Json:
        """Restart the display's rendering."""
        return self._action(self._path(display), "reset")

    def rewind(self, display: DisplayId, ms: int) -> Json:
        return self._time(self._path(display), "rewind", ms)

    def forward(self, display: DisplayId, ms: int) -> Json:
        return self._time(self._path(display), "forward", ms)

    def seek(self, display: DisplayId, ms: int) -> Json:
        return self._time(self._path(display), "seek", ms)

    def media_info(self, display: DisplayId) -> Json:
        return self._media_info(self._path(display))

    def settings(self, display: DisplayId) -> Json:
        """The current and available resolutions."""
        return self._t.json("GET", f"{self._path(display)}/settings")

    def set_resolution(self, display: DisplayId, width: int, height: int) -> Json:
        return self._t.json(
            "PUT", f"{self._path(display)}/settings", json={"width": width, "height": height}
        )

    def tag(self, display: DisplayId) -> Json:
        return self._t.json("GET", f"{self._path(display)}/tag")

    def set_tag(self, display: DisplayId, tag: str) -> Json:
        return self._t.json("PUT", f"{self._path(display)}/tag", json={"displayTag": tag})

    def render(self, display: DisplayId) -> Json:
        """What the display's receiver is told to show (a tilewall extension)."""
        return self._t.json("GET", f"{self._path(display)}/render")
