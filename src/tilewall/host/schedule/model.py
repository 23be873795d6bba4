"""Scheduled events as the host keeps them (one document each), and the scheduler's
own durable state (one setting): which occurrences it has handled and which are
running, with what each target showed before."""

from typing import Literal

import msgspec

from tilewall.host.model import Timeline

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
