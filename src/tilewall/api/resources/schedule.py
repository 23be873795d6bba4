"""Scheduled events (a tilewall extension): create, list (with occurrences in a window),
read, replace and delete."""

from typing import Annotated

import msgspec
from litestar import delete, get, post, put
from litestar.params import Parameter

from tilewall.api.common import Done, documented, extension
from tilewall.host.errors import Invalid
from tilewall.host.host import Host
from tilewall.host.model import ACTION_KINDS, Action, ScheduledEvent
from tilewall.host.playback.overlays import LEVELS, MAX_ALERT_MS
from tilewall.host.schedule import occurrences as occ
from tilewall.host.schedule.events import (
    MAX_DURATION_S,
    MAX_EXDATES,
    MAX_PRIORITY,
    ActionSpec,
    EventSpec,
)

TAGS = ["Schedule"]
_DAY = r"(197[1-9]|19[89]\d|20\d\d|21\d\d|2200)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])"
_TIME = r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?"
#: a local date-time; the date must exist and its year be 1971 to 2200
LOCAL = rf"^{_DAY}T{_TIME}$"
#: an ISO 8601 date or date-time, with or without an offset
INSTANT = rf"^{_DAY}(T{_TIME}(\.\d+)?(Z|z|[+-]\d\d:?\d\d)?)?$"
Local = Annotated[
    str,
    documented(pattern=LOCAL),
    msgspec.Meta(description="A local date-time YYYY-MM-DDTHH:MM:SS (seconds may be left out)."),
]
Name = Annotated[str, documented(min_length=1, max_length=200, pattern=r"\S")]
Key = Annotated[str, documented(min_length=1)]
PATH = "/schedule/{eventId:str}"
#: a listing without ``to`` covers this much after ``from``
DEFAULT_WINDOW_MS = 7 * 24 * 3600 * 1000


class ActionBody(msgspec.Struct, omit_defaults=True):
    """``recallPreset`` (presetName or presetId), ``switch`` (displayId, zoneName or
    zoneId, or mirrorgroupName or mirrorgroupId; and sourceName or sourceId),
    ``broadcast`` (message, alertLevel, lengthMillisec) or ``power`` (state ``on`` or
    ``off``; displayId, or every display)."""

    kind: Annotated[str, documented(enum=list(ACTION_KINDS))]
    presetName: Key | None = None
    presetId: Key | None = None
    displayId: int | None = None
    zoneName: Key | None = None
    zoneId: Key | None = None
    mirrorgroupName: Key | None = None
    mirrorgroupId: Key | None = None
    sourceName: Key | None = None
    sourceId: Key | None = None
    message: Annotated[str, documented(min_length=1, max_length=2000, pattern=r"\S")] | None = None
    alertLevel: Annotated[str, documented(enum=list(LEVELS))] | None = None
    lengthMillisec: Annotated[int, documented(minimum=1, maximum=MAX_ALERT_MS)] | None = None
    state: Annotated[str, documented(enum=["on", "off"])] | None = None


class EventIn(msgspec.Struct):
    """An event. Rules the schema cannot state: ``timeZone`` is a zone of
    ``GET /system/timezone``'s availableTimeZones (left out: the host's, followed when it
    changes); ``end`` is after ``start`` and not given with ``durationSeconds``;
    ``recurrence`` is an RFC 5545 RRULE repeating at most once a minute; the objects an
    action names exist, a switch names one target and a source, and a broadcast of an
    event without an end gives lengthMillisec. Each refusal is a 400 whose message
    starts with the field (``timeZone: unknown time zone 'Mars/Base'``)."""

    name: Name
    start: Local
    action: ActionBody
    timeZone: str | None = None
    end: Local | None = None
    durationSeconds: Annotated[int, documented(minimum=1, maximum=MAX_DURATION_S)] | None = None
    recurrence: Annotated[str, msgspec.Meta(description="An RFC 5545 RRULE.")] | None = None
    exdates: Annotated[
        list[Annotated[str, documented(pattern=rf"^{_DAY}(T{_TIME})?$")]],
        documented(max_items=MAX_EXDATES),
        msgspec.Meta(description="Local dates (every occurrence that day) or date-times."),
    ] = []
    priority: Annotated[int, documented(minimum=-MAX_PRIORITY, maximum=MAX_PRIORITY)] = 0
    enabled: bool = True


class LastRun(msgspec.Struct, omit_defaults=True):
    start: str
    at: str
    result: str
    message: str = ""


class EventBody(msgspec.Struct):
    id: str
    name: str
    start: str
    timeZone: str
    #: True when the event has no zone of its own and follows the host's
    followsHostTimeZone: bool
    end: str | None
    durationSeconds: int | None
    recurrence: str | None
    exdates: list[str]
    priority: int
    enabled: bool
    action: ActionBody
    #: the next occurrence's start, an instant in UTC
    next: str | None
    running: bool
    lastRun: LastRun | None


class Target(msgspec.Struct, omit_defaults=True):
    kind: str
    id: str = ""
    name: str = ""


class OccurrenceBody(msgspec.Struct):
    eventId: str
    name: str
    start: str
    end: str | None
    localStart: str
    timeZone: str
    priority: int
    action: str
    target: Target


class ScheduleList(msgspec.Struct, omit_defaults=True):
    events: list[EventBody]
    occurrences: list[OccurrenceBody] | None = None


def _spec(data: EventIn) -> EventSpec:
    a = data.action
    action = ActionSpec(
        a.kind,
        preset_id=a.presetId or "",
        preset_name=a.presetName or "",
        display_id=a.displayId,
        zone_id=a.zoneId or "",
        zone_name=a.zoneName or "",
        mirror_id=a.mirrorgroupId or "",
        mirror_name=a.mirrorgroupName or "",
        source_id=a.sourceId or "",
        source_name=a.sourceName or "",
        message=a.message or "",
        alert_level=a.alertLevel or "",
        length_ms=a.lengthMillisec,
        state=a.state or "",
    )
    return EventSpec(
        data.name,
        data.start,
        action,
        time_zone=data.timeZone,
        end=data.end,
        duration_s=data.durationSeconds,
        recurrence=data.recurrence,
        exdates=list(data.exdates),
        priority=data.priority,
        enabled=data.enabled,
    )


def _name(collection: dict[str, object], key: str) -> str | None:
    obj = collection.get(key)
    return None if obj is None else str(getattr(obj, "name", ""))


def _action(host: Host, action: Action) -> ActionBody:
    state = host.state
    if action.kind == "recallPreset":
        return ActionBody(
            "recallPreset",
            presetId=action.preset_id,
            presetName=_name(dict(state.presets), action.preset_id),
        )
    if action.kind == "switch":
        body = ActionBody(
            "switch",
            sourceId=action.source_id,
            sourceName=_name(dict(state.sources), action.source_id),
            displayId=action.display_id,
        )
        if action.zone_id:
            body.zoneId = action.zone_id
            body.zoneName = _name(dict(state.zones), action.zone_id)
        if action.mirror_id:
            body.mirrorgroupId = action.mirror_id
            body.mirrorgroupName = _name(dict(state.mirrors), action.mirror_id)
        return body
    if action.kind == "broadcast":
        return ActionBody(
            "broadcast",
            message=action.message,
            alertLevel=action.alert_level,
            lengthMillisec=action.length_ms or None,
        )
    return ActionBody(
        "power", displayId=action.display_id, state="on" if action.power_on else "off"
    )


def shape(host: Host, event: ScheduledEvent) -> EventBody:
    schedule = host.scheduler.state()
    last = schedule.last.get(event.id)
    next_ms = host.schedule.next_start(event, host.core.clock.now_ms())
    return EventBody(
        event.id,
        event.name,
        event.start,
        host.schedule.zone_of(event),
        not event.time_zone,
        event.end or None,
        event.duration_s or None,
        event.recurrence or None,
        list(event.exdates),
        event.priority,
        event.enabled,
        _action(host, event.action),
        None if next_ms is None else occ.iso_instant(next_ms),
        any(r.event_id == event.id and not r.waiting for r in schedule.runs),
        None
        if last is None
        else LastRun(
            occ.iso_instant(last.start_ms), occ.iso_instant(last.at_ms), last.result, last.message
        ),
    )


def _target(host: Host, action: Action) -> Target:
    state = host.state
    if action.kind == "recallPreset":
        return Target(
            "preset", action.preset_id, _name(dict(state.presets), action.preset_id) or ""
        )
    if action.kind == "switch":
        if action.zone_id:
            return Target("zone", action.zone_id, _name(dict(state.zones), action.zone_id) or "")
        if action.mirror_id:
            name = _name(dict(state.mirrors), action.mirror_id) or ""
            return Target("mirrorgroup", action.mirror_id, name)
        return Target("display", str(action.display_id), f"Display {action.display_id}")
    if action.kind == "broadcast":
        return Target("broadcast", name="Broadcast alert")
    if action.display_id is None:
        return Target("power", name="Power: every display")
    return Target("power", str(action.display_id), f"Power: display {action.display_id}")


#: the rules of an event no schema can state
EVENT_RULES = (
    "Dates must exist and zones be the machine's; an end comes after the start and is not "
    "given with durationSeconds; recurrence is an RFC 5545 RRULE; what an action needs "
    "depends on its kind, and the objects it names must exist. 400 otherwise."
)
_WHEN = "ISO 8601 date or date-time; without an offset, the host's local time."


@extension(
    post,
    "/schedule",
    TAGS,
    "Create a scheduled event",
    description=EVENT_RULES,
)
async def create_event(host: Host, data: EventIn) -> EventBody:
    event = await host.schedule.create(_spec(data))
    await host.scheduler.settle()
    return shape(host, event)


@extension(
    get,
    "/schedule",
    TAGS,
    "List scheduled events, and their occurrences in a window (from, to)",
    description=(
        "from and to are ISO 8601 date-times; without an offset they are the host's local "
        "time. With from (to defaults to a week later) the answer lists the occurrences "
        "that start in the window or are running at its start."
    ),
)
async def list_events(
    host: Host,
    from_: str | None = Parameter(
        query="from", default=None, required=False, pattern=INSTANT, description=_WHEN
    ),
    to: str | None = Parameter(
        query="to", default=None, required=False, pattern=INSTANT, description=_WHEN
    ),
) -> ScheduleList:
    events = [shape(host, e) for e in host.schedule.all()]
    if from_ is None and to is None:
        return ScheduleList(events)
    if from_ is None:
        raise Invalid("from: required with to")
    tz = occ.zone(host.schedule.host_zone())
    start = occ.parse_instant(from_, "from", tz)
    end = occ.parse_instant(to, "to", tz) if to else start + DEFAULT_WINDOW_MS
    found = [
        OccurrenceBody(
            event.id,
            event.name,
            occ.iso_instant(o.start_ms),
            None if o.end_ms is None else occ.iso_instant(o.end_ms),
            occ.local_text(o.local_start),
            o.zone,
            o.priority,
            event.action.kind,
            _target(host, event.action),
        )
        for event, o in host.schedule.occurrences(start, end)
    ]
    return ScheduleList(events, found)


@extension(get, PATH, TAGS, "Read a scheduled event", 404)
async def get_event(host: Host, eventId: str) -> EventBody:
    return shape(host, host.schedule.get(eventId))


@extension(
    put,
    PATH,
    TAGS,
    "Replace a scheduled event (a running occurrence ends and starts anew)",
    404,
    description=EVENT_RULES,
)
async def update_event(host: Host, eventId: str, data: EventIn) -> EventBody:
    event = await host.schedule.update(eventId, _spec(data))
    await host.scheduler.settle()
    return shape(host, event)


@extension(delete, PATH, TAGS, "Delete a scheduled event (a running occurrence ends)", 404)
async def delete_event(host: Host, eventId: str) -> Done:
    event = await host.schedule.delete(eventId)
    await host.scheduler.settle()
    return Done(f"scheduled event {event.name!r} deleted")


ROUTES = [create_event, list_events, get_event, update_event, delete_event]
