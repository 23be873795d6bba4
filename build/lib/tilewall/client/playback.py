"""The playback operations displays, zones and mirror groups share, written once; each
resource says how its target is addressed and keeps its own typed signatures."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import Json, Named, Params


def switch_params(source: str | None, source_id: str | None, welcome: bool) -> Params:
    """The destination of a switch: ``source`` is a source name, ``source_id`` an id.
    Neither given: the host answers 400 naming the parameter it needs."""
    params: dict[str, str | int | bool] = {}
    if source_id is not None:
        params["destinationSourceId"] = source_id
    if source is not None:
        params["destinationSourceName"] = source
    if welcome:
        params["isShowWelcomeScreen"] = True
    return params


def selector(source: str | None, source_id: str | None) -> Json | None:
    """The optional source selector body of play."""
    if source is None and source_id is None:
        return None
    body: Json = {}
    if source_id is not None:
        body["sourceId"] = source_id
    if source is not None:
        body["sourceName"] = source
    return body


def video_list(files: Sequence[str], queue: bool, repeat: bool, interval: int) -> Json:
    return {
        "videolist": list(files),
        "queue": queue,
        "repeat": repeat,
        "slideshowInterval": interval,
    }


class Playable(Named):
    """Helpers behind switch, play, playVideoList, pause, resume, stop, rewind, forward,
    seek and mediainfo; ``prefix`` is the target's path."""

    def _switch(
        self, prefix: str, source: str | None, source_id: str | None, welcome: bool
    ) -> Json:
        return self._t.json(
            "PUT", f"{prefix}/switch", params=switch_params(source, source_id, welcome)
        )

    def _play(self, prefix: str, source: str | None, source_id: str | None) -> Json:
        body = selector(source, source_id)
        if body is None:
            return self._t.json("PUT", f"{prefix}/play")
        return self._t.json("PUT", f"{prefix}/play", json=body)

    def _video_list(
        self, prefix: str, files: Sequence[str], queue: bool, repeat: bool, interval: int
    ) -> Json:
        return self._t.json(
            "PUT", f"{prefix}/playVideoList", json=video_list(files, queue, repeat, interval)
        )

    def _action(self, prefix: str, action: str) -> Json:
        return self._t.json("PUT", f"{prefix}/{action}")

    def _time(self, prefix: str, action: str, ms: int) -> Json:
        return self._t.json("PUT", f"{prefix}/{action}", json={"time": ms})

    def _media_info(self, prefix: str) -> Json:
        return self._t.json("GET", f"{prefix}/mediainfo")
