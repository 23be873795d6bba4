"""When an event's occurrences happen: pure functions of the event, its time zone and a
window of host time. RFC 5545 rules are dateutil's (``rrulestr``), zones are zoneinfo's.

Local times are turned into instants with ``fold=0``, so:

- a local time that does not exist that day (the hour skipped when clocks go forward)
  happens at the instant it would have been without the change: 02:30 on the morning
  of the change happens once, at 03:30 new time;
- a local time that happens twice (the hour repeated when clocks go back) happens
  once, the first time.
"""

import itertools
import zoneinfo
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache, lru_cache

from dateutil.rrule import rrule, rruleset, rrulestr

from tilewall.host.errors import Invalid
from tilewall.host.model import ScheduledEvent

#: how far local times and instants can be apart (UTC-12 .. UTC+14), plus margin
_MARGIN = timedelta(hours=16)
LOCAL_FORMAT = "YYYY-MM-DDTHH:MM:SS"
#: the shortest period a rule may repeat at
MIN_PERIOD = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class Occurrence:
    event_id: str
    start_ms: int
    #: None: the occurrence has no end (it fires once and leaves things as it set them)
    end_ms: int | None
    priority: int
    local_start: datetime
    zone: str


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone(name: str, field: str = "timeZone") -> zoneinfo.ZoneInfo:
    """The IANA zone ``name``; Invalid naming ``field`` if there is none."""
    if name not in known_zones():
        raise Invalid(
            f"{field}: unknown time zone {name!r}; expected an IANA name such as 'Europe/Berlin'"
        )
    return zoneinfo.ZoneInfo(name)


def local(value: str, field: str) -> datetime:
    """A local date-time ``YYYY-MM-DDTHH:MM:SS`` (seconds may be left out)."""
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise Invalid(f"{field}: {value!r} is not a local date-time {LOCAL_FORMAT}") from None
    if parsed.tzinfo is not None:
        raise Invalid(
            f"{field}: {value!r} has an offset; give the local time {LOCAL_FORMAT} and the timeZone"
        )
    if len(value.strip()) < len("YYYY-MM-DDTHH:MM"):
        raise Invalid(f"{field}: {value!r} is not a local date-time {LOCAL_FORMAT}")
    _in_range(parsed, field)
    return parsed.replace(microsecond=0)


#: the years events and windows may name
FIRST_YEAR, LAST_YEAR = 1971, 2200


def _in_range(moment: datetime, field: str) -> None:
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise Invalid(f"{field}: the year must be between {FIRST_YEAR} and {LAST_YEAR}")


def local_text(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def exdate(value: str, field: str) -> date | datetime:
    """An exception: a local date (every occurrence that day) or a local date-time."""
    text = value.strip()
    if len(text) == len("YYYY-MM-DD"):
        try:
            day = date.fromisoformat(text)
        except ValueError:
            pass
        else:
            _in_range(datetime(day.year, 1, 1), field)
            return day
        raise Invalid(f"{field}: {value!r} is not a date YYYY-MM-DD or a local date-time")
    return local(text, field)


def instant_ms(moment: datetime, tz: zoneinfo.ZoneInfo) -> int:
    """The instant of local time ``moment`` in ``tz`` (fold 0: see the module's rules)."""
    return int(moment.replace(tzinfo=tz, fold=0).timestamp() * 1000)


def to_local(ms: int, tz: zoneinfo.ZoneInfo) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz).replace(tzinfo=None)


def iso_instant(ms: int) -> str:
    """``2026-03-02T09:00:00Z``; milliseconds shown only when there are some."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if ms % 1000:
        text += f".{ms % 1000:03d}"
    return text + "Z"


def parse_instant(value: str, field: str, tz: zoneinfo.ZoneInfo) -> int:
    """An ISO 8601 instant (``Z`` or an offset); a local date or date-time is read in ``tz``."""
    text = value.strip().replace("z", "Z")
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise Invalid(f"{field}: {value!r} is not an ISO 8601 date-time") from None
    _in_range(parsed, field)
    if parsed.tzinfo is None:
        return instant_ms(parsed, tz)
    return int(parsed.timestamp() * 1000)


@lru_cache(maxsize=512)
def _rule(text: str, start: datetime, tz: zoneinfo.ZoneInfo | None) -> rrule | rruleset:
    """The rule from ``start`` (aware in ``tz``, or local when ``tz`` is None)."""
    dtstart = start if tz is None else start.replace(tzinfo=tz)
    parsed = rrulestr(text, dtstart=dtstart, cache=True)
    assert isinstance(parsed, rrule | rruleset)
    return parsed


def rule(text: str, start: datetime, tz: zoneinfo.ZoneInfo) -> tuple[rrule | rruleset, bool]:
    """The parsed rule and whether it yields aware times. RFC 5545 wants ``UNTIL`` in
    UTC when the start has a zone; a local ``UNTIL`` is taken too."""
    text = text.strip()
    if not text:
        raise Invalid("recurrence: empty rule")
    if "\n" in text or "DTSTART" in text.upper():
        raise Invalid(
            "recurrence: give one RRULE (such as FREQ=WEEKLY;BYDAY=MO); start is the event's"
        )
    first_error: Exception | None = None
    for aware in (True, False):
        try:
            return _rule(text, start, tz if aware else None), aware
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
            first_error = first_error or error
    detail = str(first_error) if not isinstance(first_error, TypeError) else "FREQ is required"
    raise Invalid(f"recurrence: {text!r} is not an RFC 5545 RRULE ({detail})")


def check_rule(text: str, start: datetime, tz: zoneinfo.ZoneInfo) -> None:
    """Invalid unless ``text`` is a rule that repeats at most once a minute."""
    parsed, _aware = rule(text, start, tz)
    first_two = list(itertools.islice(parsed, 2))
    if len(first_two) == 2 and first_two[1] - first_two[0] < MIN_PERIOD:
        raise Invalid("recurrence: occurrences must be at least a minute apart")


def event_zone(event: ScheduledEvent, host_zone: str) -> zoneinfo.ZoneInfo:
    return zone(event.time_zone or host_zone)


def length(event: ScheduledEvent) -> timedelta | None:
    """How long each occurrence lasts by the clock on the wall (``end``), or None."""
    if event.end:
        return local(event.end, "end") - local(event.start, "start")
    return None


def expand(event: ScheduledEvent, host_zone: str, from_ms: int, to_ms: int) -> Iterator[Occurrence]:
    """Occurrences whose start is in ``[from_ms, to_ms)``, in order, exceptions left out."""
    tz = event_zone(event, host_zone)
    start = local(event.start, "start")
    wall_length = length(event)
    excluded_days: set[date] = set()
    excluded_times: set[datetime] = set()
    for text in event.exdates:
        value = exdate(text, "exdates")
        if isinstance(value, datetime):
            excluded_times.add(value)
        else:
            excluded_days.add(value)
    for moment in _local_starts(event, start, tz, from_ms, to_ms):
        if moment in excluded_times or moment.date() in excluded_days:
            continue
        start_ms = instant_ms(moment, tz)
        if not from_ms <= start_ms < to_ms:
            continue
        end_ms: int | None = None
        if wall_length is not None:
            end_ms = instant_ms(moment + wall_length, tz)
            if end_ms <= start_ms:  # both ends fell either side of a clock change
                end_ms = start_ms + int(wall_length.total_seconds() * 1000)
        elif event.duration_s:
            end_ms = start_ms + event.duration_s * 1000
        yield Occurrence(event.id, start_ms, end_ms, event.priority, moment, tz.key)


def _local_starts(
    event: ScheduledEvent, start: datetime, tz: zoneinfo.ZoneInfo, from_ms: int, to_ms: int
) -> Iterator[datetime]:
    """Local start times in a window a little wider than ``[from_ms, to_ms)``."""
    low = to_local(from_ms, tz) - _MARGIN
    high = to_local(to_ms, tz) + _MARGIN
    if not event.recurrence:
        if low <= start <= high:
            yield start
        return
    parsed, aware = rule(event.recurrence, start, tz)
    if aware:
        for moment in parsed.between(low.replace(tzinfo=tz), high.replace(tzinfo=tz), inc=True):
            yield moment.replace(tzinfo=None)
    else:
        yield from parsed.between(low, high, inc=True)


def longest_ms(event: ScheduledEvent) -> int:
    """An upper bound of how long one occurrence lasts (0 without an end)."""
    wall_length = length(event)
    if wall_length is not None:
        # a clock change can lengthen a span by up to the change (at most two hours)
        return int(wall_length.total_seconds() * 1000) + 2 * 3600 * 1000
    return event.duration_s * 1000


def running_or_starting(
    event: ScheduledEvent, host_zone: str, from_ms: int, to_ms: int
) -> list[Occurrence]:
    """Occurrences that start in ``[from_ms, to_ms)`` or are running at ``from_ms``."""
    reach = longest_ms(event)
    found = expand(event, host_zone, from_ms - reach, to_ms)
    return [
        o for o in found if o.start_ms >= from_ms or (o.end_ms is not None and o.end_ms > from_ms)
    ]


def next_start(event: ScheduledEvent, host_zone: str, after_ms: int, horizon_ms: int) -> int | None:
    """The start of the first occurrence after ``after_ms``, looked for within
    ``horizon_ms`` of the later of ``after_ms`` and the event's first start."""
    step = 7 * 24 * 3600 * 1000
    first = instant_ms(local(event.start, "start"), event_zone(event, host_zone))
    if not event.recurrence and first <= after_ms:
        return None  # a single occurrence, past
    low = max(after_ms + 1, first - 2 * 24 * 3600 * 1000)
    end = low + horizon_ms
    while low < end:
        for occurrence in expand(event, host_zone, max(low, after_ms + 1), low + step):
            return occurrence.start_ms
        low += step
    return None
