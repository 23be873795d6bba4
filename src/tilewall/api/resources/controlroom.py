"""Control rooms: instances (zones playing a Command and Control source), their layouts,
the current layout and loading one. Managing layouts is a tilewall extension."""

from typing import Annotated

import msgspec
from litestar import delete, get, post, put

from tilewall.api.common import Done, PathName, errors, extension
from tilewall.host.host import Host
from tilewall.host.model import Layout, Window

TAGS = ["Control room"]
LAYOUTS = "/controlroom/layouts"
ZONE = "/controlroom/{videowallZoneName:str}"
#: the rules of a layout's windows no schema can state
WINDOW_RULES = (
    "A window lies inside the picture (x + width and y + height at most 1) and shows a "
    "source that is not itself a control-room source: 400 otherwise."
)
#: the name the interface gives "no layout"
NO_LAYOUT = "None"


class SourceRef(msgspec.Struct):
    id: str
    name: str


class ControlLayout(msgspec.Struct):
    id: str
    name: str
    sources: list[SourceRef]


class ControlLayouts(msgspec.Struct):
    layouts: list[ControlLayout]


class LayoutRef(msgspec.Struct):
    id: str
    name: str


class ControlRoomInstance(msgspec.Struct):
    zoneId: str
    zoneName: str
    sourceId: str
    sourceName: str
    currentLayout: LayoutRef


class ControlRooms(msgspec.Struct):
    controlrooms: list[ControlRoomInstance]


class WindowBody(msgspec.Struct):
    """A window as fractions (0..1) of the zone's picture."""

    sourceId: Annotated[
        str,
        msgspec.Meta(description="A source that exists and is not a Command and Control source."),
    ]
    #: x + width and y + height are at most 1
    x: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    y: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.0
    width: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0
    height: Annotated[float, msgspec.Meta(gt=0, le=1)] = 1.0


Windows = Annotated[list[WindowBody], msgspec.Meta(max_length=64)]


class LayoutIn(msgspec.Struct):
    name: PathName
    windows: Windows = []


class LayoutUpdate(msgspec.Struct):
    name: PathName | None = None
    windows: Windows | None = None


class LayoutOut(msgspec.Struct):
    id: str
    name: str
    windows: list[WindowBody]
    sources: list[SourceRef]


class LayoutList(msgspec.Struct):
    layouts: list[LayoutOut]


def _sources(host: Host, layout: Layout) -> list[SourceRef]:
    return [SourceRef(s.id, s.name) for s in host.controlroom.sources_of(layout)]


def control_layout(host: Host, layout: Layout | None) -> ControlLayout:
    if layout is None:
        return ControlLayout("", NO_LAYOUT, [])
    return ControlLayout(layout.id, layout.name, _sources(host, layout))


def layout_out(host: Host, layout: Layout) -> LayoutOut:
    return LayoutOut(
        layout.id,
        layout.name,
        [WindowBody(w.source_id, w.x, w.y, w.width, w.height) for w in layout.windows],
        _sources(host, layout),
    )


def _windows(windows: list[WindowBody]) -> list[Window]:
    return [Window(w.sourceId, w.x, w.y, w.width, w.height) for w in windows]


# interface operations


@get(
    "/controlroom",
    tags=TAGS,
    summary="Control-room instances: zones assigned to a Command and Control source",
    responses=errors(),
)
async def list_instances(host: Host) -> ControlRooms:
    return ControlRooms(
        [
            ControlRoomInstance(
                zone.id,
                zone.name,
                source.id,
                source.name,
                LayoutRef(layout.id, layout.name) if layout else LayoutRef("", NO_LAYOUT),
            )
            for zone, source, layout in host.controlroom.instances()
        ]
    )


@get(
    f"{ZONE}/layouts",
    tags=TAGS,
    summary="Layouts of the zone's Command and Control source (none if it has none)",
    responses=errors(404),
)
async def zone_layouts(host: Host, videowallZoneName: str) -> ControlLayouts:
    layouts = host.controlroom.zone_layouts(videowallZoneName)
    return ControlLayouts([control_layout(host, lay) for lay in layouts])


@get(
    f"{ZONE}/currentlayout",
    tags=TAGS,
    summary='The layout the zone shows; id "" and name "None" when it shows none',
    responses=errors(),
)
async def current_layout(host: Host, videowallZoneName: str) -> ControlLayout:
    return control_layout(host, host.controlroom.current_layout(videowallZoneName))


@put(
    f"{ZONE}/load/{{layoutName:str}}",
    tags=TAGS,
    summary="Show a layout of the zone's Command and Control source",
    responses=errors(404, 409),
)
async def load_layout(host: Host, videowallZoneName: str, layoutName: str) -> ControlLayout:
    layout = await host.controlroom.load(videowallZoneName, layoutName)
    return control_layout(host, layout)


# extensions: managing layouts


@extension(get, LAYOUTS, TAGS, "List control-room layouts")
async def list_layouts(host: Host) -> LayoutList:
    return LayoutList([layout_out(host, lay) for lay in host.controlroom.layouts()])


@extension(
    post,
    LAYOUTS,
    TAGS,
    "Create a control-room layout of windows showing sources",
    404,
    409,
    description=WINDOW_RULES,
)
async def create_layout(host: Host, data: LayoutIn) -> LayoutOut:
    layout = await host.controlroom.create(data.name, _windows(data.windows))
    return layout_out(host, layout)


@extension(get, f"{LAYOUTS}/{{layoutId:str}}", TAGS, "Read a control-room layout", 404)
async def get_layout(host: Host, layoutId: str) -> LayoutOut:
    return layout_out(host, host.controlroom.layout(layoutId))


@extension(
    put,
    f"{LAYOUTS}/{{layoutId:str}}",
    TAGS,
    "Update a control-room layout (fields left out are kept)",
    404,
    409,
    description=WINDOW_RULES,
)
async def update_layout(host: Host, layoutId: str, data: LayoutUpdate) -> LayoutOut:
    windows = None if data.windows is None else _windows(data.windows)
    layout = await host.controlroom.update(layoutId, data.name, windows)
    return layout_out(host, layout)


@extension(
    delete,
    f"{LAYOUTS}/{{layoutId:str}}",
    TAGS,
    "Delete a control-room layout no Command and Control source lists",
    404,
    409,
)
async def delete_layout(host: Host, layoutId: str) -> Done:
    layout = await host.controlroom.delete(layoutId)
    return Done(f"layout {layout.name!r} deleted")


# The paths above under /controlroom/layouts/ take precedence over the interface's paths
# of a zone that is named "layouts"; these aliases (layout ids never take these values)
# keep that zone addressable.
SHADOWED_ZONE = "layouts"


@get(f"{LAYOUTS}/layouts", include_in_schema=False, name="controlroom-layouts-zone-layouts")
async def shadowed_zone_layouts(host: Host) -> ControlLayouts:
    result: ControlLayouts = await zone_layouts.fn(host, SHADOWED_ZONE)
    return result


@get(f"{LAYOUTS}/currentlayout", include_in_schema=False, name="controlroom-layouts-zone-current")
async def shadowed_current_layout(host: Host) -> ControlLayout:
    result: ControlLayout = await current_layout.fn(host, SHADOWED_ZONE)
    return result


@put(
    f"{LAYOUTS}/load/{{layoutName:str}}",
    include_in_schema=False,
    name="controlroom-layouts-zone-load",
)
async def shadowed_load_layout(host: Host, layoutName: str) -> ControlLayout:
    result: ControlLayout = await load_layout.fn(host, SHADOWED_ZONE, layoutName)
    return result


ROUTES = [
    list_instances,
    zone_layouts,
    current_layout,
    load_layout,
    list_layouts,
    create_layout,
    get_layout,
    update_layout,
    delete_layout,
    shadowed_zone_layouts,
    shadowed_current_layout,
    shadowed_load_layout,
]
