"""The playback operations displays, zones and mirror groups share, written once; each
resource says how its target is addressed and keeps its own typed signatures."""

from __future__ import annotations

from collections.abc import Sequence

from tilewall.client.base import By, Json, Named, Params


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


class NamedPlayable(Playable):
    """The playback operations of targets addressed by name or id (zones, mirror groups):
    ``target`` is a name or an id, ``by`` chooses how it is read (:class:`Named`)."""

    def play(
        self,
        target: str,
        source: str | None = None,
        *,
        source_id: str | None = None,
        by: By = "auto",
    ) -> Json:
        """Play the given source (by name or id), or without one the assigned source."""
        return self._play(self._prefix(target, by), source, source_id)

    def play_video_list(
        self,
        target: str,
        files: Sequence[str],
        *,
        queue: bool = False,
        repeat: bool = False,
        interval: int = 10,
        by: By = "auto",
    ) -> Json:
        return self._video_list(self._prefix(target, by), files, queue, repeat, interval)

    def pause(self, target: str, *, by: By = "auto") -> Json:
        return self._action(self._prefix(target, by), "pause")

    def resume(self, target: str, *, by: By = "auto") -> Json:
        return self._action(self._prefix(target, by), "resume")

    def rewind(self, target: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(target, by), "rewind", ms)

    def forward(self, target: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(target, by), "forward", ms)

    def seek(self, target: str, ms: int, *, by: By = "auto") -> Json:
        return self._time(self._prefix(target, by), "seek", ms)

    def media_info(self, target: str, *, by: By = "auto") -> Json:
        return self._media_info(self._prefix(target, by))
