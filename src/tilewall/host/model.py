"""The host's persistent objects. Each is a msgspec struct, stored as one JSON document
(the scheduler's own state as one setting)."""

from typing import Literal

import msgspec

PlayState = Literal["playing", "paused", "stopped"]


class Resolution(msgspec.Struct, frozen=True):
    width: int
    height: int


class Geometry(msgspec.Struct):
    """A rectangle on a wall canvas, in millimetres, rotated about its centre."""

    width: float
    height: float
    centerX: float
    centerY: float
    rotationDegrees: float = 0.0


class Timeline(msgspec.Struct):
    """What a display, zone or mirror group plays, on the host's clock.

    The position at host instant ``t`` is ``anchor_position_ms + (t - anchor_ms)`` while
    playing, and ``anchor_position_ms`` otherwise; it is computed, never polled.
    """

    assigned_source_id: str = ""
    state: PlayState = "stopped"
    welcome: bool = True
    anchor_ms: int = 0
    anchor_position_ms: int = 0
    videolist: list[str] = []
    repeat: bool = False
    slideshow_interval_ms: int = 10_000
    layout_id: str = ""


class Station(msgspec.Struct):
    """A receiver (seat) the host has seen, locked to it or available."""

    seat_id: str
    name: str = ""
    location: str = ""
    ip: str = ""
    mac: str = ""
    model: str = ""
    firmware: str = ""
    locked: bool = False
    display_id: int | None = None
    screen: Resolution | None = None
    resolutions: list[Resolution] = []
    usb_devices: list[dict[str, object]] = []
    last_seen_ms: int = 0
    #: an operator named it: the name a receiver gives in its hello no longer applies
    named: bool = False
    #: hash of the station key handed to the locked device ("" : not bound to a device)
    key_hash: str = ""
    #: the serial port its kiosk agent writes to, as the agent last said ("" : none)
    agent_serial_port: str = ""


class Display(msgspec.Struct):
    """The display of a locked station; its id is kept when the station is re-locked."""

    display_id: int
    seat_id: str
    tag: str = ""
    resolution: Resolution | None = None
    timeline: Timeline = msgspec.field(default_factory=Timeline)


class Monitor(msgspec.Struct):
    display_id: int
    geometry: Geometry
    diagonal_mm: float = 0.0


class VideoWall(msgspec.Struct):
    id: str
    name: str
    canvas: Geometry
    monitors: list[Monitor] = []


class Zone(msgspec.Struct):
    id: str
    name: str
    wall_id: str
    display_ids: list[int] = []
    control_display_id: int = 0
    timeline: Timeline = msgspec.field(default_factory=Timeline)


class MirrorGroup(msgspec.Struct):
    id: str
    name: str
    display_ids: list[int] = []
    timeline: Timeline = msgspec.field(default_factory=Timeline)


class Param(msgspec.Struct):
    type: str
    paramName: str
    paramValue: str


class Source(msgspec.Struct):
    id: str
    name: str
    type: str
    params: list[Param] = []


class Preset(msgspec.Struct):
    """A saved mapping: the timeline of every display, zone and mirror group."""

    id: str
    name: str
    displays: dict[str, Timeline] = {}
    zones: dict[str, Timeline] = {}
    mirror_groups: dict[str, Timeline] = {}


class Window(msgspec.Struct):
    """One window of a control-room layout, as fractions (0..1) of the zone's picture."""

    source_id: str
    x: float = 0.0
    y: float = 0.0
    width: float = 1.0
    height: float = 1.0


class Layout(msgspec.Struct):
    id: str
    name: str
    windows: list[Window] = []


class Licence(msgspec.Struct):
    """The licence the host holds. ``None`` limits mean unlimited."""

    reseller_name: str = ""
    number_of_stations: int | None = None
    system_id: str = ""
    issued: str = ""
    expires: str = ""
    support_expires: str = ""
    video_wall_module: str = "enabled"
    fast_video_feature: bool = False
    session_management: bool = True
    source_types: list[str] | None = None
    code: str = ""


class SerialRecord(msgspec.Struct):
    seat_id: str
    at_ms: int
    baud_rate: int
    data_bits: int
    parity: str
    stop_bits: float
    data_b64: str
    delivered: bool = False
    error: str = ""


# --- scheduled events (one document each) and the scheduler's own state (one setting)

ActionKind = Literal["recallPreset", "switch", "broadcast", "power"]
ACTION_KINDS: tuple[ActionKind, ...] = ("recallPreset", "switch", "broadcast", "power")


class Action(msgspec.Struct, omit_defaults=True):
    """What an occurrence does. Objects are held by id, so renaming them keeps the event."""

    kind: ActionKind
    preset_id: str = ""
    display_id: int | None = None
    zone_id: str = ""
    mirror_id: str = ""
    source_id: str = ""
    message: str = ""
    alert_level: str = ""
    #: 0: the alert lasts as long as the occurrence
    length_ms: int = 0
    #: power: True switches displays on, False off
    power_on: bool = True


class ScheduledEvent(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    #: local date-time of the first occurrence, ``YYYY-MM-DDTHH:MM:SS``
    start: str
    action: Action
    #: IANA name; "" follows the host's time zone
    time_zone: str = ""
    #: local date-time the first occurrence ends (each later one lasts as long, by the clock)
    end: str = ""
    #: how long each occurrence lasts, in elapsed seconds
    duration_s: int = 0
    #: RFC 5545 RRULE; "" for a single occurrence
    recurrence: str = ""
    #: occurrences not to run: local dates (every occurrence that day) or date-times
    exdates: list[str] = []
    priority: int = 0
    enabled: bool = True
    created_ms: int = 0
    #: occurrences that started before this instant are not due (the event did not say
    #: so then); spans still running at this instant are
    updated_ms: int = 0


class ShownAlert(msgspec.Struct):
    """A broadcast alert as a snapshot keeps it."""

    message: str
    level: str
    until_ms: int


class Snapshot(msgspec.Struct, omit_defaults=True):
    """What one target showed: a timeline, an alert, or whether a display was blanked."""

    timeline: Timeline | None = None
    alert: ShownAlert | None = None
    blanked: bool | None = None
    #: host time the snapshot was taken; a restored timeline resumes from there
    at_ms: int = 0


class Run(msgspec.Struct):
    """An occurrence with an end that is running (or waiting for a higher one to end)."""

    event_id: str
    start_ms: int
    end_ms: int
    priority: int
    keys: list[str]
    #: the event's ``updated_ms`` when the run began: a changed event ends its runs
    version: int = 0
    #: waiting: outranked when it started; applies when what outranks it ends
    waiting: bool = False
    before: dict[str, Snapshot] = {}
    applied: dict[str, Snapshot] = {}


class Outcome(msgspec.Struct, omit_defaults=True):
    """What happened to an event's latest occurrence."""

    start_ms: int
    at_ms: int
    result: Literal["applied", "waiting", "outranked", "skipped", "failed", "ended"]
    message: str = ""


class Handled(msgspec.Struct):
    """The latest occurrence of an event handled (applied, skipped or missed)."""

    start_ms: int
    #: the event's ``updated_ms`` then: a changed event is due again from its change on
    version: int


class ScheduleState(msgspec.Struct):
    """The scheduler's durable state (setting ``schedule``)."""

    handled: dict[str, Handled] = {}
    #: occurrences with an end that are running or waiting, in the order they applied
    runs: list[Run] = []
    last: dict[str, Outcome] = {}
