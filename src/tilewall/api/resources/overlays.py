"""Broadcast alerts, display ids and DPMS: what shows over the content of displays."""

from typing import Annotated, Literal

import msgspec
from litestar import get, put
from litestar.params import Parameter

from tilewall.api.common import errors
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.playback.overlays import OverlayState

TAGS = ["System"]


AlertLevel = Literal["GREEN_LEVEL", "ORANGE_LEVEL", "RED_LEVEL"]


class BroadcastIn(msgspec.Struct):
    message: Annotated[str, msgspec.Meta(min_length=1, max_length=2000, pattern=r"\S")]
    alertLevel: AlertLevel
    #: up to a week
    lengthMillisec: Annotated[int, msgspec.Meta(ge=1, le=7 * 24 * 3600 * 1000)]


class BroadcastStatus(msgspec.Struct):
    isDisplayed: bool
    message: str
    alertLevel: str
    lengthMillisec: int
    remainingMillisec: int


class DisplayIdsStatus(msgspec.Struct):
    allDisplays: bool
    displayIds: list[int]


class DpmsIn(msgspec.Struct):
    displayID: Annotated[
        str | int | None,
        msgspec.Meta(
            description="A display id, as a number or a string; empty or null: all displays.",
            extra_json_schema={
                "extra": {
                    "one_of": [
                        {"type": "string", "pattern": r"^$|^\s*[+-]?[0-9]+\s*$"},
                        {"type": "integer"},
                        {"type": "null"},
                    ]
                }
            },
        ),
    ] = None


class ScreenPower(msgspec.Struct):
    """What the kiosk agent of a display did to its real screen: ``result`` is ``done``,
    ``failed`` (``message``: the tool's own) or ``pending`` (no answer in time)."""

    displayId: int
    seatId: str
    state: str
    result: str
    method: str
    message: str


class DpmsStatus(msgspec.Struct, omit_defaults=True):
    allDisplaysOff: bool
    displaysOff: list[int]
    #: the real screens switched by kiosk agents (a tilewall extension, left out when no
    #: agent switches one); displays without an agent are blanked by their page only
    screens: list[ScreenPower] = []


def _status(host: Host) -> BroadcastStatus:
    alert = host.overlays.active_alert()
    if alert is None:
        return BroadcastStatus(False, "", "", 0, 0)
    now = host.core.clock.now_ms()
    return BroadcastStatus(
        True, alert.message, alert.level, alert.until_ms - alert.started_ms, alert.until_ms - now
    )


@get("/system/broadcast", tags=TAGS, summary="Broadcast alert status", responses=errors())
async def broadcast_status(host: Host) -> BroadcastStatus:
    return _status(host)


@put(
    "/system/broadcast/start",
    tags=TAGS,
    summary="Show a broadcast alert on every display",
    responses=errors(),
)
async def broadcast_start(host: Host, data: BroadcastIn) -> BroadcastStatus:
    await host.overlays.start_alert(data.message, data.alertLevel, data.lengthMillisec)
    return _status(host)


@put("/system/broadcast/stop", tags=TAGS, summary="Stop the broadcast alert", responses=errors())
async def broadcast_stop(host: Host) -> BroadcastStatus:
    await host.overlays.stop_alert()
    return _status(host)


def _ids(state: OverlayState) -> DisplayIdsStatus:
    return DisplayIdsStatus(state.ids_all, state.ids_displays)


@put(
    "/system/showDisplayIds/start",
    tags=TAGS,
    summary="Show display ids (all or one)",
    responses=errors(404),
)
async def ids_start(
    host: Host,
    display_id: int | None = Parameter(query="displayId", default=None, required=False),
) -> DisplayIdsStatus:
    return _ids(await host.overlays.show_ids(display_id, True))


@put(
    "/system/showDisplayIds/stop",
    tags=TAGS,
    summary="Hide display ids (all or one)",
    responses=errors(404),
)
async def ids_stop(
    host: Host,
    display_id: int | None = Parameter(query="displayId", default=None, required=False),
) -> DisplayIdsStatus:
    return _ids(await host.overlays.show_ids(display_id, False))


def _target(data: DpmsIn | None) -> int | None:
    if data is None or data.displayID in (None, ""):
        return None
    try:
        return int(str(data.displayID).strip())
    except ValueError:
        raise Invalid(f"displayID must be a display id, not {data.displayID!r}") from None


async def _dpms(host: Host, target: int | None, off: bool) -> DpmsStatus:
    """Blank the pages, then wait (a few seconds at most) for the agents of the displays
    to switch their screens, and say what each did."""
    seats = host.agents.power_seats(target)
    state = await host.overlays.dpms(target, off=off)
    wanted = "off" if off else "on"
    results = await host.agents.wait_power(seats, wanted)
    screens = []
    for seat, result in results.items():
        station = host.state.stations.get(seat)
        if station is None or station.display_id is None:
            continue
        if result is None:
            screens.append(ScreenPower(station.display_id, seat, wanted, "pending", "", ""))
            continue
        outcome = "done" if result.ok else "failed"
        screens.append(
            ScreenPower(station.display_id, seat, wanted, outcome, result.method, result.message)
        )
    return DpmsStatus(state.dpms_all_off, state.dpms_off_displays, screens)


@put(
    "/system/dpms/forceoff",
    tags=TAGS,
    summary="Put displays to sleep (all when no body)",
    responses=errors(404),
)
async def dpms_off(host: Host, data: DpmsIn | None = None) -> DpmsStatus:
    return await _dpms(host, _target(data), off=True)


@put(
    "/system/dpms/forceon",
    tags=TAGS,
    summary="Wake displays (all when no body)",
    responses=errors(404),
)
async def dpms_on(host: Host, data: DpmsIn | None = None) -> DpmsStatus:
    return await _dpms(host, _target(data), off=False)


ROUTES = [broadcast_status, broadcast_start, broadcast_stop, ids_start, ids_stop, dpms_off, dpms_on]
