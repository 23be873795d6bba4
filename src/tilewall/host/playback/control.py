"""Switching and playback control on displays, zones and mirror groups.

Every operation acts on a Target's timeline. A display that belongs to a mirror group,
or to a zone of a video wall, shows that group's or zone's picture, so operations on
such a display act on the group or zone that holds it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tilewall.host.access import scopes
from tilewall.host.content import catalogue
from tilewall.host.content.media import MediaLibrary
from tilewall.host.content.sources import Sources
from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.memory import Transaction
from tilewall.host.model import Display, MirrorGroup, Source, Timeline, Zone
from tilewall.host.playback import playlist, slots, timeline
from tilewall.host.state import Core
from tilewall.host.topology import walls

MAX_VIDEOLIST = 1000


@dataclass(frozen=True)
class Target:
    kind: Literal["display", "zone", "mirror"]
    obj: Display | Zone | MirrorGroup

    @property
    def timeline(self) -> Timeline:
        return self.obj.timeline

    @property
    def display_ids(self) -> list[int]:
        if isinstance(self.obj, Display):
            return [self.obj.display_id]
        return list(self.obj.display_ids)


@dataclass(frozen=True)
class MediaInfo:
    filename: str
    total_ms: int
    current_ms: int


@dataclass(frozen=True)
class VideoList:
    files: list[str]
    queue: bool = False
    repeat: bool = False
    slideshow_interval_s: int = 10


class Playback:
    def __init__(self, core: Core, sources: Sources, media: MediaLibrary) -> None:
        self._core = core
        self._sources = sources
        self._media = media

    def _now(self) -> int:
        return self._core.clock.now_ms()

    # targets

    def for_display(self, display: Display) -> Target:
        target = self._target(display)
        if target is None:  # on a wall, in none of its zones
            wall = walls.membership(self._core.state).walls[display.display_id]
            raise Conflict(
                f"display {display.display_id} is on video wall {wall.name!r} but in no zone; "
                "add it to a zone to play on it"
            )
        return Target(*target)

    def effective_timeline(self, display: Display) -> Timeline:
        """What the display shows now, whichever timeline that is."""
        target = self._target(display)
        return Timeline() if target is None else target[1].timeline

    def _target(
        self, display: Display
    ) -> tuple[Literal["display", "zone", "mirror"], Display | Zone | MirrorGroup] | None:
        """Whose timeline the display follows: its mirror group's, its zone's, its own;
        None on a wall but in no zone (it shows nothing). One look at the membership
        index: a thousand displays are asked after every switch."""
        member = walls.membership(self._core.state)
        display_id = display.display_id
        group = member.mirrors.get(display_id)
        if group is not None:
            return "mirror", group
        zone = member.zones.get(display_id)
        if zone is not None:
            return "zone", zone
        if display_id in member.walls:
            return None
        return "display", display

    # schedule

    def items(self, tl: Timeline) -> tuple[list[slots.Item], bool] | None:
        """The playlist a timeline plays and whether it repeats; None for non-signage.

        A Signage Player source always loops; a video list repeats when asked to."""
        if tl.videolist:
            return playlist.of_videolist(tl, self._media), tl.repeat
        source = self._core.state.sources.get(tl.assigned_source_id)
        if source is None or source.type != catalogue.SIGNAGE:
            return None
        return playlist.of_source(source, self._media), True

    def media_info(self, target: Target) -> MediaInfo:
        tl = target.timeline
        if not timeline.shows_content(tl):
            return MediaInfo("", 0, 0)
        now = self._now()
        position = timeline.position_ms(tl, now)
        playlist = self.items(tl)
        if playlist is None:
            return MediaInfo("", -1, position)
        items, repeat = playlist
        slot = slots.locate(items, position, repeat)
        if slot is None:
            return MediaInfo("", 0, 0)
        item = items[slot.index]
        return MediaInfo(item.name, item.duration_ms, slot.offset_ms)

    # operations

    def _may_change(self, target: Target, source_id: str = "") -> None:
        """The acting user's scope covers ``target`` (and the source it is switched to):
        asked first, so a refusal says so whatever the target's state."""
        key = target.obj.display_id if isinstance(target.obj, Display) else target.obj.id
        reached: scopes.Targets = [(target.kind, key)]
        if source_id not in ("", target.timeline.assigned_source_id):
            reached.append(("source", source_id))
        scopes.require(self._core.state, reached)

    async def _apply(
        self, target: Target, new: Timeline, also: Callable[[Transaction], None] | None = None
    ) -> None:
        self._may_change(target, new.assigned_source_id)
        if new == target.timeline and also is None:
            return
        async with self._core.change() as tx:
            target.obj.timeline = new
            tx.put(target.obj)
            tx.affect(*target.display_ids)
            tx.mapping = True
            if also is not None:
                also(tx)

    async def switch(
        self,
        target: Target,
        source: Source,
        welcome: bool = False,
        also: Callable[[Transaction], None] | None = None,
    ) -> None:
        """Switch ``target`` to ``source``; ``also`` makes more of the change, in the same
        transaction (a screen share keeps what the target played)."""
        self._may_change(target, source.id)
        new = timeline.switch(target.timeline, source.id, self._now(), welcome)
        if source.type == catalogue.COMMAND_AND_CONTROL:
            layouts = self._sources.layout_ids(source)
            new.layout_id = layouts[0] if layouts else ""
        await self._apply(target, new, also)

    async def play(self, target: Target, source: Source | None = None) -> None:
        self._may_change(target, "" if source is None else source.id)
        if source is not None and source.id != target.timeline.assigned_source_id:
            await self.switch(target, source)
            return
        tl = target.timeline
        if tl.state == "paused":
            await self._apply(target, timeline.resume(tl, self._now()))
            return
        if timeline.is_playing(tl):
            return
        if not tl.assigned_source_id and not tl.videolist:
            raise Conflict("no source is assigned; switch to a source first")
        if tl.assigned_source_id not in self._core.state.sources and not tl.videolist:
            raise NotFound(f"assigned source {tl.assigned_source_id!r} not found")
        await self._apply(target, timeline.start(tl, self._now()))

    async def play_videolist(self, target: Target, videolist: VideoList) -> None:
        self._may_change(target)
        if not videolist.files:
            raise Invalid("videolist must name at least one file")
        if len(videolist.files) > MAX_VIDEOLIST:
            raise Invalid(f"videolist may name at most {MAX_VIDEOLIST} files")
        if not 1 <= videolist.slideshow_interval_s <= 86400:
            raise Invalid("slideshowInterval must be between 1 and 86400 seconds")
        files = [self._media.require_file(name) for name in videolist.files]
        tl = target.timeline
        interval_ms = videolist.slideshow_interval_s * 1000
        if videolist.queue and tl.videolist and timeline.shows_content(tl):
            new = Timeline(
                assigned_source_id=tl.assigned_source_id,
                state=tl.state,
                welcome=False,
                anchor_ms=tl.anchor_ms,
                anchor_position_ms=tl.anchor_position_ms,
                videolist=[*tl.videolist, *files],
                repeat=videolist.repeat,
                slideshow_interval_ms=interval_ms,
            )
        else:
            new = timeline.start(
                tl,
                self._now(),
                videolist=files,
                repeat=videolist.repeat,
                slideshow_interval_ms=interval_ms,
            )
        await self._apply(target, new)

    async def stop(self, target: Target) -> None:
        self._may_change(target)
        await self._apply(target, timeline.stop(target.timeline, self._now()))

    async def pause(self, target: Target) -> None:
        self._may_change(target)
        tl = target.timeline
        if tl.state == "stopped" or tl.welcome:
            raise Conflict("nothing is playing")
        await self._apply(target, timeline.pause(tl, self._now()))

    async def resume(self, target: Target) -> None:
        self._may_change(target)
        tl = target.timeline
        if tl.state == "stopped" or tl.welcome:
            raise Conflict("nothing is paused or playing")
        await self._apply(target, timeline.resume(tl, self._now()))

    def _signage(self, target: Target) -> tuple[list[slots.Item], bool]:
        tl = target.timeline
        playlist = self.items(tl) if timeline.shows_content(tl) else None
        if playlist is None:
            raise Conflict(
                "seek, forward and rewind apply to a playing signage source or video list"
            )
        return playlist

    async def seek(self, target: Target, to_ms: int) -> None:
        self._may_change(target)
        if to_ms < 0:
            raise Invalid("time must not be negative")
        items, repeat = self._signage(target)
        limit = None if repeat else slots.total_ms(items)
        await self._apply(target, timeline.seek(target.timeline, self._now(), to_ms, limit))

    async def shift(self, target: Target, by_ms: int) -> None:
        """Forward (positive) or rewind (negative) by ``by_ms``."""
        self._may_change(target)
        items, repeat = self._signage(target)
        now = self._now()
        limit = None if repeat else slots.total_ms(items)
        to_ms = timeline.position_ms(target.timeline, now) + by_ms
        await self._apply(target, timeline.seek(target.timeline, now, to_ms, limit))

    async def load_layout(self, zone: Zone, layout_id: str) -> None:
        new = timeline.start(zone.timeline, self._now(), layout_id=layout_id)
        await self._apply(Target("zone", zone), new)
