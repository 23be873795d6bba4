"""Share codes over HTTP (a tilewall extension, docs/share.md): the short code a display
shows for a guest to share a screen to it, on demand or always ("presentation")."""

from typing import Annotated

import msgspec
from litestar import delete, get, put

from tilewall.api.common import Done, extension
from tilewall.host.host import Host
from tilewall.host.playback.sharecodes import DEFAULT_MINUTES, MAX_MINUTES
from tilewall.host.schedule.occurrences import iso_instant

TAGS = ["Screen shares"]
PATH = "/shares/codes/{displayId:str}"


class ShowCodeIn(msgspec.Struct, forbid_unknown_fields=True):
    minutes: Annotated[int, msgspec.Meta(ge=1, le=MAX_MINUTES)] = DEFAULT_MINUTES


class PresentationIn(msgspec.Struct, forbid_unknown_fields=True):
    presentation: bool


class CodeOut(msgspec.Struct):
    displayId: int
    #: the code the display shows now, null when it shows none
    code: str | None
    #: when it stops being shown; null: while the display is in presentation mode
    until: str | None
    presentation: bool


class CodeList(msgspec.Struct):
    codes: list[CodeOut]


def _code(host: Host, display_id: int) -> CodeOut:
    shown = host.shares.codes.shown(display_id)
    presentation = display_id in host.shares.codes.state().presentation
    if shown is None:
        return CodeOut(display_id, None, None, presentation)
    until = iso_instant(shown.until_ms) if shown.until_ms else None
    return CodeOut(display_id, shown.code, until, presentation)


@extension(
    get,
    "/shares/codes",
    TAGS,
    "The share codes displays show",
    description="Every display that shows a code now or is in presentation mode.",
)
async def list_codes(host: Host) -> CodeList:
    state = host.shares.codes.state()
    ids = sorted({int(k) for k in state.shown} | set(state.presentation))
    return CodeList([_code(host, i) for i in ids if i in host.state.displays])


@extension(
    put,
    PATH,
    TAGS,
    "Show a share code on a display",
    404,
    description=(
        "A new code, shown on the display for `minutes` (default 10): a guest gives it to "
        "share a screen to that display. A display in presentation mode gets a new code, "
        "shown while it is in that mode."
    ),
)
async def show_code(host: Host, displayId: str, data: ShowCodeIn | None = None) -> CodeOut:
    display_id = host.stations.display(displayId).display_id
    await host.shares.codes.show(display_id, (data or ShowCodeIn()).minutes)
    return _code(host, display_id)


@extension(
    delete,
    PATH,
    TAGS,
    "Stop showing a display's share code",
    404,
    description="The code stops working; a display in presentation mode shows a new one.",
)
async def hide_code(host: Host, displayId: str) -> Done:
    display_id = host.stations.display(displayId).display_id
    await host.shares.codes.hide(display_id)
    return Done(f"display {display_id} shows no code it showed before")


@extension(
    put,
    "/shares/presentation/{displayId:str}",
    TAGS,
    "Set a display's presentation mode",
    404,
    description=(
        "A display in presentation mode (a meeting room's screen) always shows a share code "
        "while no share plays on it."
    ),
)
async def set_presentation(host: Host, displayId: str, data: PresentationIn) -> CodeOut:
    display_id = host.stations.display(displayId).display_id
    await host.shares.codes.set_presentation(display_id, data.presentation)
    return _code(host, display_id)


ROUTES = [list_codes, show_code, hide_code, set_presentation]
