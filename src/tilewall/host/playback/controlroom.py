"""Control rooms: layouts of windows showing sources, played by Command and Control sources.

A layout is a set of windows, each a source placed on fractions (0..1) of the picture.
A Command and Control source lists layouts (its ``Layouts`` param); a zone that plays
such a source is a control-room instance, named by the zone, and shows one of the
source's layouts: the one its timeline names, else the source's first.
"""

import math

from tilewall.host.access import scopes
from tilewall.host.content import catalogue
from tilewall.host.content.sources import Sources
from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.ids import lookup, new_id, path_name, unique_name
from tilewall.host.memory import State, Transaction
from tilewall.host.model import Layout, Source, Window, Zone
from tilewall.host.playback.control import Playback
from tilewall.host.state import Core
from tilewall.host.topology.walls import Topology

MAX_WINDOWS = 64
MAX_NAME = 200
#: rounding slack for x + width <= 1 and y + height <= 1
EPSILON = 1e-9


class ControlRoom:
    def __init__(
        self, core: Core, sources: Sources, topology: Topology, playback: Playback
    ) -> None:
        self._core = core
        self._sources = sources
        self._topology = topology
        self._playback = playback

    # layouts

    def layouts(self) -> list[Layout]:
        layouts = self._core.state.layouts.values()
        return sorted(layouts, key=lambda lay: (lay.name.casefold(), lay.id))

    def layout(self, layout_id: str) -> Layout:
        return lookup(self._core.state.layouts, layout_id, False, "layout")

    def sources_of(self, layout: Layout) -> list[Source]:
        """The sources a layout shows, in window order, each once; removed ones left out."""
        out: dict[str, Source] = {}
        for window in layout.windows:
            source = self._core.state.sources.get(window.source_id)
            if source is not None and source.id not in out:
                out[source.id] = source
        return list(out.values())

    def listing_sources(self, layout_id: str) -> list[Source]:
        """Command and Control sources whose layouts include ``layout_id``."""
        return [
            s
            for s in self._core.state.sources.values()
            if s.type == catalogue.COMMAND_AND_CONTROL and layout_id in self._sources.layout_ids(s)
        ]

    def _check_name(self, name: str, layout_id: str | None) -> str:
        name = path_name(name, "a layout")
        if len(name) > MAX_NAME:
            raise Invalid(f"name must be at most {MAX_NAME} characters")
        return unique_name(self._core.state.layouts, name, layout_id, "layout")

    def _check_windows(self, windows: list[Window]) -> list[Window]:
        if len(windows) > MAX_WINDOWS:
            raise Invalid(f"a layout has at most {MAX_WINDOWS} windows")
        out: list[Window] = []
        for i, w in enumerate(windows):
            where = f"windows[{i}]"
            source = self._core.state.sources.get(w.source_id)
            if source is None:
                raise NotFound(f"{where}.sourceId: source {w.source_id!r} not found")
            if source.type == catalogue.COMMAND_AND_CONTROL:
                raise Invalid(
                    f"{where}.sourceId: source {source.name!r} is a Command and Control source; "
                    "a layout cannot show one"
                )
            for name, value in (("x", w.x), ("y", w.y), ("width", w.width), ("height", w.height)):
                if not math.isfinite(value) or not 0 <= value <= 1:
                    raise Invalid(f"{where}.{name} must be a fraction from 0 to 1")
            if w.width <= 0 or w.height <= 0:
                raise Invalid(f"{where}: width and height must be greater than 0")
            if w.x + w.width > 1 + EPSILON:
                raise Invalid(f"{where}: x + width must not exceed 1")
            if w.y + w.height > 1 + EPSILON:
                raise Invalid(f"{where}: y + height must not exceed 1")
            out.append(Window(source.id, float(w.x), float(w.y), float(w.width), float(w.height)))
        return out

    async def create(self, name: str, windows: list[Window]) -> Layout:
        checked_name = self._check_name(name, None)
        checked = self._check_windows(windows)
        _require_sources(self._core.state, checked)
        layout = Layout(new_id(), checked_name, checked)
        async with self._core.change() as tx:
            tx.put(layout)
        return layout

    async def update(
        self, layout_id: str, name: str | None, windows: list[Window] | None
    ) -> Layout:
        layout = self.layout(layout_id)
        new_name = layout.name if name is None else self._check_name(name, layout_id)
        new_windows = layout.windows if windows is None else self._check_windows(windows)
        _require_sources(self._core.state, [*layout.windows, *new_windows])
        async with self._core.change() as tx:
            layout.name, layout.windows = new_name, new_windows
            tx.put(layout)
            self._affect_showing(tx, layout.id)
        return layout

    async def delete(self, layout_id: str) -> Layout:
        layout = self.layout(layout_id)
        _require_sources(self._core.state, layout.windows)
        users = self.listing_sources(layout_id)
        if users:
            names = ", ".join(repr(s.name) for s in users)
            raise Conflict(
                f"layout {layout.name!r} is a layout of the Command and Control source {names}; "
                "remove it there first"
            )
        async with self._core.change() as tx:
            tx.delete(layout)
        return layout

    def _affect_showing(self, tx: Transaction, layout_id: str) -> None:
        for zone in self._core.state.zones.values():
            current = self._current(zone)
            if current is not None and current.id == layout_id:
                tx.affect(*zone.display_ids)

    # control-room instances: zones playing a Command and Control source

    def source_of(self, zone: Zone) -> Source | None:
        """The Command and Control source assigned to a zone, if that is what it has."""
        source = self._core.state.sources.get(zone.timeline.assigned_source_id)
        if source is None or source.type != catalogue.COMMAND_AND_CONTROL:
            return None
        return source

    def _layouts_of(self, source: Source) -> list[Layout]:
        state = self._core.state
        return [state.layouts[i] for i in self._sources.layout_ids(source)]

    def _current(self, zone: Zone) -> Layout | None:
        source = self.source_of(zone)
        if source is None:
            return None
        layouts = self._layouts_of(source)
        for layout in layouts:
            if layout.id == zone.timeline.layout_id:
                return layout
        return layouts[0] if layouts else None

    def instances(self) -> list[tuple[Zone, Source, Layout | None]]:
        out: list[tuple[Zone, Source, Layout | None]] = []
        for zone in sorted(self._core.state.zones.values(), key=lambda z: z.name):
            source = self.source_of(zone)
            if source is not None:
                out.append((zone, source, self._current(zone)))
        return out

    def zone_layouts(self, zone_name: str) -> list[Layout]:
        """The layouts of the zone's Command and Control source; none if it has none."""
        zone = self._topology.zone(zone_name, by_name=True)
        source = self.source_of(zone)
        return [] if source is None else self._layouts_of(source)

    def current_layout(self, zone_name: str) -> Layout | None:
        """What the zone shows; None for an unknown zone or one without such a source."""
        try:
            zone = self._topology.zone(zone_name, by_name=True)
        except NotFound:
            return None
        return self._current(zone)

    async def load(self, zone_name: str, layout_name: str) -> Layout:
        """Show one of the zone source's layouts, by name (or id), from the start."""
        zone = self._topology.zone(zone_name, by_name=True)
        source = self.source_of(zone)
        if source is None:
            raise Conflict(f"zone {zone.name!r} does not play a Command and Control source")
        layouts = self._layouts_of(source)
        chosen = next((lay for lay in layouts if lay.name == layout_name), None)
        chosen = chosen or next((lay for lay in layouts if lay.id == layout_name), None)
        if chosen is None:
            raise NotFound(f"layout {layout_name!r} is not a layout of source {source.name!r}")
        await self._playback.load_layout(zone, chosen.id)
        return chosen


def _require_sources(state: State, windows: list[Window]) -> None:
    """A scoped operator changes only layouts of sources in its scope."""
    scopes.require(state, [("source", w.source_id) for w in windows])
