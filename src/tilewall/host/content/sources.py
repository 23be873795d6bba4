"""Sources: things that can be played, each of a catalogue type with validated params."""

import json
from collections.abc import Awaitable, Callable

import msgspec

from tilewall.host.content import catalogue, live, screens
from tilewall.host.content.live import LiveInput, LiveStatus
from tilewall.host.content.media import MediaLibrary
from tilewall.host.content.params import validate_params
from tilewall.host.errors import Invalid, NotFound
from tilewall.host.ids import id_of, lookup, new_id, unique_name
from tilewall.host.licence.rules import LicenceRules
from tilewall.host.memory import Transaction
from tilewall.host.model import Display, MirrorGroup, Param, Source, Timeline, Zone
from tilewall.host.ports import LiveFeeds
from tilewall.host.state import Core


class Sources:
    def __init__(self, core: Core, licence: LicenceRules, media: MediaLibrary) -> None:
        self._core = core
        self._licence = licence
        self._media = media
        self.resolvers = catalogue.Resolvers(media=self._media_name, layout=self._layout_id)
        #: the relays of live sources (set by the assembly; None: none run here)
        self.feeds: LiveFeeds | None = None
        #: ends a screen share whose source is deleted (set by the shares)
        self.end_share: Callable[[Source], Awaitable[None]] | None = None

    def _media_name(self, kind: str, name: str) -> str:
        if kind == "dir":
            canonical = self._media.normalise(name) if name.strip("/ ") else ""
            if canonical and not self._media.is_dir(canonical):
                raise NotFound(f"media directory {name!r} not found in the media library")
            return canonical
        return self._media.require_file(name)

    def _layout_id(self, key: str) -> str:
        found = id_of(self._core.state.layouts, key)
        if found is None:
            raise Invalid(f"layout {key!r} not found")
        return found

    def get(self, source_id: str) -> Source:
        return lookup(self._core.state.sources, source_id, False, "source")

    def by_name(self, name: str) -> Source:
        return lookup(self._core.state.sources, name, True, "source")

    def find(self, source_id: str | None, source_name: str | None) -> Source:
        """The source named by id, else by name (the interface's destination selector)."""
        if source_id:
            return self.get(source_id)
        if source_name:
            return self.by_name(source_name)
        raise Invalid("give destinationSourceId or destinationSourceName")

    def all(self, name: str | None = None) -> list[Source]:
        sources = list(self._core.state.sources.values())
        if name is not None:
            sources = [s for s in sources if s.name == name]
        return sources

    def _check(
        self, name: str, source_type: str, params: list[Param], stored: Source | None
    ) -> tuple[str, list[Param]]:
        name = name.strip()
        if not name:
            raise Invalid("sourceName must not be empty")
        kind = catalogue.source_type(source_type)
        if kind.made_by_host:
            raise Invalid(f"a {kind.name!r} source is made by sharing a screen at /share/")
        self._licence.check_source_type(kind.name)
        unique_name(self._core.state.sources, name, stored.id if stored else None, "source")
        # a secret read back hidden and sent again keeps the stored one (same type only)
        kept = stored.params if stored is not None and stored.type == kind.name else None
        return name, validate_params(kind, params, self.resolvers, kept)

    async def create(self, name: str, source_type: str, params: list[Param]) -> Source:
        name, checked = self._check(name, source_type, params, None)
        source = Source(new_id(), name, source_type, checked)
        async with self._core.change() as tx:
            tx.put(source)
        return source

    async def update(
        self, source_id: str, name: str, source_type: str, params: list[Param]
    ) -> Source:
        source = self.get(source_id)
        if catalogue.source_type(source.type).made_by_host:
            raise Invalid(f"source {source.name!r} is a {source.type}: it lasts as its share does")
        name, checked = self._check(name, source_type, params, source)
        async with self._core.change() as tx:
            source.name, source.type, source.params = name, source_type, checked
            tx.put(source)
            self._affect_players(tx, source.id)
        return source

    async def delete(self, source: Source) -> None:
        """Delete ``source``, playing nowhere any more; a screen share's ends (its targets
        go back to what they played before it)."""
        if source.type == catalogue.SCREEN_SHARE and self.end_share is not None:
            await self.end_share(source)
            return
        async with self._core.change() as tx:
            self.forget(tx, source)

    def forget(self, tx: Transaction, source: Source) -> None:
        """In ``tx``: ``source`` deleted, and stopped wherever it is still assigned."""
        self._unassign(tx, source.id)
        tx.delete(source)

    async def create_share(self, name: str, shared_by: str, target: str) -> Source:
        """A new screen-share source (a unique name made from ``name``)."""
        taken = {s.name for s in self._core.state.sources.values()}
        unique, n = name, 1
        while unique in taken:
            n += 1
            unique = f"{name} ({n})"
        kind = catalogue.source_type(catalogue.SCREEN_SHARE)
        params = [Param("TEXT", catalogue.SHARED_BY, shared_by)]
        params.append(Param("TEXT", catalogue.SHARE_TARGET, target))
        source = Source(new_id(), unique, kind.name, validate_params(kind, params, self.resolvers))
        async with self._core.change() as tx:
            tx.put(source)
        return source

    def _players(self) -> list[tuple[Display | Zone | MirrorGroup, Timeline, list[int]]]:
        state = self._core.state
        out: list[tuple[Display | Zone | MirrorGroup, Timeline, list[int]]] = []
        out += [(d, d.timeline, [d.display_id]) for d in state.displays.values()]
        out += [(z, z.timeline, z.display_ids) for z in state.zones.values()]
        out += [(g, g.timeline, g.display_ids) for g in state.mirrors.values()]
        return out

    def _affect_players(self, tx: Transaction, source_id: str) -> None:
        for _obj, timeline, displays in self._players():
            if timeline.assigned_source_id == source_id:
                tx.affect(*displays)

    def _unassign(self, tx: Transaction, source_id: str) -> None:
        for obj, timeline, displays in self._players():
            if timeline.assigned_source_id == source_id:
                obj.timeline = msgspec.structs.replace(
                    timeline, assigned_source_id="", state="stopped", welcome=True, videolist=[]
                )
                tx.put(obj)
                tx.affect(*displays)
                tx.mapping = True

    def live_input(self, source: Source) -> LiveInput | None:
        """What the host opens for ``source``; None unless it is a desktop, a stream
        source whose URL the host relays (``live.is_live``), or a screen share (its
        sharer's frames)."""
        if source.type == catalogue.SCREEN_SHARE:
            return live.share_input(source.id)
        if source.type in catalogue.SCREENS:
            return _screen_input(source)
        if source.type not in catalogue.STREAMERS:
            return None
        url = catalogue.param(source.params, catalogue.URL)
        if not live.is_live(url):
            return None
        transport = catalogue.param(source.params, catalogue.TRANSPORT, "auto")
        return LiveInput(url, transport if transport in live.TRANSPORTS else "auto")

    def kept_open(self) -> list[str]:
        """The live sources whose input the host holds open while nothing shows them
        (their ``Keep Open`` param), so that a switch to one shows at once."""
        return [
            s.id
            for s in self.all()
            if catalogue.param(s.params, catalogue.KEEP_OPEN) == "true"
            and self.live_input(s) is not None
        ]

    def live_source(self, source_id: str) -> tuple[Source, LiveInput]:
        """The live source ``source_id`` and its input: NotFound for no such source,
        Invalid for one the host does not relay."""
        source = self.get(source_id)
        found = self.live_input(source)
        if found is None:
            raise Invalid(
                f"source {source.name!r} is not a live stream: only a {catalogue.NETWORK_STREAMER}"
                f" or {catalogue.RTSP_STREAMER} with a live URL (rtsp, srt, rtmp, udp, rtp, "
                f"HLS, MPEG-TS), a {catalogue.DESKTOP_VNC}, a {catalogue.CAPTURE} or a "
                f"{catalogue.SCREEN_SHARE} has a live status"
            )
        return source, found

    def live_status(self, source_id: str) -> LiveStatus:
        """The status of the live source ``source_id`` (see :meth:`live_source`)."""
        self.live_source(source_id)
        return LiveStatus() if self.feeds is None else self.feeds.status(source_id)

    def layout_ids(self, source: Source) -> list[str]:
        """The layouts of a Command and Control source, in order."""
        raw = catalogue.param(source.params, catalogue.LAYOUTS, "[]")
        try:
            ids = json.loads(raw)
        except ValueError:
            return []
        return [i for i in ids if isinstance(i, str) and i in self._core.state.layouts]


def _number(value: str, default: float) -> float:
    try:
        return float(value)
    except ValueError:
        return default


def _screen_input(source: Source) -> LiveInput:
    """The input of a desktop or a capture device (their params validated when stored)."""
    params = source.params
    if source.type == catalogue.DESKTOP_VNC:
        port = int(_number(catalogue.param(params, catalogue.PORT), screens.DEFAULT_VNC_PORT))
        return screens.vnc_input(
            catalogue.param(params, catalogue.HOST),
            port,
            catalogue.param(params, catalogue.PASSWORD),
        )
    return screens.capture_input(
        catalogue.param(params, catalogue.DEVICE, screens.DEFAULT_DEVICE),
        catalogue.param(params, catalogue.RESOLUTION, screens.DEFAULT_RESOLUTION),
        _number(catalogue.param(params, catalogue.FRAME_RATE), 30.0),
        catalogue.param(params, catalogue.SEAT),
    )
