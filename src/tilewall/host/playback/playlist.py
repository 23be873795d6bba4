"""What a signage source or a video list plays: the one rule the host's media info and
every receiver's schedule share."""

import json
import random
from typing import Protocol

from tilewall.host.content import catalogue
from tilewall.host.content.media import kind_of
from tilewall.host.errors import HostError
from tilewall.host.model import Source, Timeline
from tilewall.host.playback import slots

DEFAULT_SLIDE_INTERVAL_MS = 10_000


class MediaCatalog(Protocol):
    """What playlists need of the media library (``host.media.MediaLibrary`` fits)."""

    def files_in(self, name: str) -> list[str]: ...

    def exists(self, name: str) -> bool: ...

    def duration_ms(self, name: str) -> int | None: ...


def item(name: str, media: MediaCatalog | None, image_ms: int) -> slots.Item | None:
    """An image shows for ``image_ms``; a video for its probed duration (else ``image_ms``)."""
    kind = kind_of(name)
    if kind is None:
        return None
    if kind == "image":
        return slots.Item(name, image_ms, is_image=True)
    duration = media.duration_ms(name) if media is not None else None
    return slots.Item(name, duration or image_ms)


def slide_interval_ms(source: Source) -> int:
    try:
        seconds = float(catalogue.param(source.params, catalogue.SLIDE_INTERVAL, "10"))
    except ValueError:
        return DEFAULT_SLIDE_INTERVAL_MS
    return round(seconds * 1000) if seconds > 0 else DEFAULT_SLIDE_INTERVAL_MS


def signage_files(source: Source, media: MediaCatalog | None) -> list[str]:
    """The files a Signage Player source names, folders expanded, missing files skipped,
    shuffled (if asked) in an order every receiver computes alike."""
    try:
        entries = json.loads(catalogue.param(source.params, catalogue.MEDIA, "[]"))
    except ValueError:
        return []
    names: list[str] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("value"), str):
            continue
        value = entry["value"]
        try:
            if entry.get("type") == "dir":
                names += media.files_in(value) if media is not None else []
            elif media is None or media.exists(value):
                names.append(value)
        except HostError:
            continue  # removed since the source was saved
    if catalogue.param(source.params, catalogue.SHUFFLE) == "true":
        random.Random(source.id).shuffle(names)
    return names


def of_source(source: Source, media: MediaCatalog | None) -> list[slots.Item]:
    interval = slide_interval_ms(source)
    return [i for name in signage_files(source, media) if (i := item(name, media, interval))]


def of_videolist(timeline: Timeline, media: MediaCatalog | None) -> list[slots.Item]:
    interval = timeline.slideshow_interval_ms or DEFAULT_SLIDE_INTERVAL_MS
    return [i for name in timeline.videolist if (i := item(name, media, interval))]
