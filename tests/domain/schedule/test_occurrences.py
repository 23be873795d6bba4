"""When occurrences happen: weekly rules, exceptions, time zones, clock changes."""

from datetime import UTC, datetime
from typing import Any

import pytest

from tilewall.host.errors import Invalid
from tilewall.host.model import Action, ScheduledEvent
from tilewall.host.schedule import occurrences as occ

NY = "America/New_York"
BERLIN = "Europe/Berlin"


def ms(text: str) -> int:
    """An instant given in UTC, ``2026-03-02T14:00``."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def event(start: str, rule: str = "", zone: str = NY, **kw: Any) -> ScheduledEvent:
    return ScheduledEvent(
        "e1", "E", start, Action("broadcast"), time_zone=zone, recurrence=rule, **kw
    )


def starts(e: ScheduledEvent, since: str, until: str, host_zone: str = "UTC") -> list[str]:
    return [occ.iso_instant(o.start_ms) for o in occ.expand(e, host_zone, ms(since), ms(until))]


def test_a_weekday_rule_happens_on_weekdays_at_local_time() -> None:
    e = event("2026-03-02T09:00:00", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    # New York is UTC-5 in early March, before the change on the 8th
    assert starts(e, "2026-03-02T00:00", "2026-03-09T00:00") == [
        "2026-03-02T14:00:00Z",
        "2026-03-03T14:00:00Z",
        "2026-03-04T14:00:00Z",
        "2026-03-05T14:00:00Z",
        "2026-03-06T14:00:00Z",
    ]
    # after the change (UTC-4) 09:00 local is 13:00 UTC
    assert starts(e, "2026-03-09T00:00", "2026-03-10T00:00") == ["2026-03-09T13:00:00Z"]


def test_exceptions_leave_out_a_day_or_one_occurrence() -> None:
    e = event(
        "2026-03-02T09:00:00",
        "FREQ=DAILY",
        exdates=["2026-03-03", "2026-03-05T09:00:00"],
    )
    assert starts(e, "2026-03-02T00:00", "2026-03-07T00:00") == [
        "2026-03-02T14:00:00Z",
        "2026-03-04T14:00:00Z",
        "2026-03-06T14:00:00Z",
    ]


def test_a_time_skipped_by_the_clock_change_happens_once_an_hour_later() -> None:
    e = event("2026-03-06T02:30:00", "FREQ=DAILY")
    got = list(occ.expand(e, "UTC", ms("2026-03-06T00:00"), ms("2026-03-10T00:00")))
    local = [datetime.fromtimestamp(o.start_ms / 1000, occ.zone(NY)) for o in got]
    assert [d.strftime("%d %H:%M %Z") for d in local] == [
        "06 02:30 EST",
        "07 02:30 EST",
        "08 03:30 EDT",  # 02:30 does not exist on the 8th: once, at 03:30 new time
        "09 02:30 EDT",
    ]


def test_a_time_the_clock_change_repeats_happens_once_the_first_time() -> None:
    e = event("2026-10-31T01:30:00", "FREQ=DAILY")
    got = list(occ.expand(e, "UTC", ms("2026-10-31T00:00"), ms("2026-11-03T00:00")))
    local = [datetime.fromtimestamp(o.start_ms / 1000, occ.zone(NY)) for o in got]
    assert [d.strftime("%d %H:%M %Z") for d in local] == [
        "31 01:30 EDT",
        "01 01:30 EDT",  # 01:30 happens twice on 1 November: once, the first time
        "02 01:30 EST",
    ]


def test_an_end_by_the_wall_clock_keeps_its_local_time_across_the_change() -> None:
    e = event("2026-03-07T08:00:00", "FREQ=DAILY", end="2026-03-07T18:00:00")
    got = list(occ.expand(e, "UTC", ms("2026-03-07T00:00"), ms("2026-03-09T00:00")))
    hours = [(o.end_ms - o.start_ms) / 3_600_000 for o in got if o.end_ms is not None]
    assert hours == [10.0, 10.0]
    e = event("2026-03-07T00:00:00", "FREQ=DAILY", end="2026-03-07T06:00:00")
    got = list(occ.expand(e, "UTC", ms("2026-03-08T00:00"), ms("2026-03-09T00:00")))
    assert [(o.end_ms - o.start_ms) / 3_600_000 for o in got if o.end_ms] == [5.0]
    # an elapsed duration stays elapsed
    e = event("2026-03-07T00:00:00", "FREQ=DAILY", duration_s=6 * 3600)
    got = list(occ.expand(e, "UTC", ms("2026-03-08T00:00"), ms("2026-03-09T00:00")))
    assert [(o.end_ms - o.start_ms) / 3_600_000 for o in got if o.end_ms] == [6.0]


def test_an_event_without_a_zone_follows_the_hosts_zone() -> None:
    e = event("2026-03-02T09:00:00", "FREQ=DAILY", zone="")
    assert starts(e, "2026-03-02T00:00", "2026-03-03T00:00", host_zone=NY) == [
        "2026-03-02T14:00:00Z"
    ]
    assert starts(e, "2026-03-02T00:00", "2026-03-03T00:00", host_zone=BERLIN) == [
        "2026-03-02T08:00:00Z"
    ]


def test_until_in_utc_as_rfc_5545_asks_and_in_local_time_both_end_the_rule() -> None:
    utc = event("2026-03-02T09:00:00", "FREQ=DAILY;UNTIL=20260304T140000Z")
    local = event("2026-03-02T09:00:00", "FREQ=DAILY;UNTIL=20260304T090000")
    counted = event("2026-03-02T09:00:00", "RRULE:FREQ=DAILY;COUNT=3")
    for e in (utc, local, counted):
        assert len(starts(e, "2026-03-01T00:00", "2026-03-20T00:00")) == 3, e.recurrence


def test_a_single_event_happens_once_and_running_ones_are_found() -> None:
    e = event("2026-03-02T09:00:00", duration_s=3600)
    assert starts(e, "2026-03-01T00:00", "2026-04-01T00:00") == ["2026-03-02T14:00:00Z"]
    running = occ.running_or_starting(e, "UTC", ms("2026-03-02T14:30"), ms("2026-03-02T15:00"))
    assert len(running) == 1
    assert occ.running_or_starting(e, "UTC", ms("2026-03-02T15:00"), ms("2026-03-03T15:00")) == []


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("FREQ=FORTNIGHTLY", "FREQ"),
        ("BYDAY=MO", "FREQ is required"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY"),
        ("FREQ=SECONDLY", "a minute apart"),
        ("FREQ=DAILY;INTERVAL=0", "a minute apart"),
        ("DTSTART:20260101T000000\nRRULE:FREQ=DAILY", "one RRULE"),
    ],
)
def test_bad_rules_are_refused_naming_the_field(rule: str, words: str) -> None:
    with pytest.raises(Invalid) as caught:
        occ.check_rule(rule, datetime(2026, 3, 2, 9), occ.zone(NY))
    assert str(caught.value).startswith("recurrence:")
    assert words in str(caught.value)


def test_local_times_and_zones_are_checked() -> None:
    with pytest.raises(Invalid, match=r"^timeZone: unknown"):
        occ.zone("Mars/Olympus_Mons")
    with pytest.raises(Invalid, match=r"^start: .* has an offset"):
        occ.local("2026-03-02T09:00:00+01:00", "start")
    with pytest.raises(Invalid, match=r"^start: .*not a local date-time"):
        occ.local("2026-03-02", "start")
    assert occ.local("2026-03-02T09:00", "start") == datetime(2026, 3, 2, 9)
    assert occ.parse_instant("2026-03-02T14:00:00Z", "from", occ.zone(NY)) == ms("2026-03-02T14:00")
    assert occ.parse_instant("2026-03-02T09:00", "from", occ.zone(NY)) == ms("2026-03-02T14:00")


@pytest.mark.parametrize("text", ["0001-01-01T00:00:00", "9999-12-31T23:59:59"])
def test_years_far_away_are_refused(text: str) -> None:
    with pytest.raises(Invalid, match=r"^start: the year must be between"):
        occ.local(text, "start")
    with pytest.raises(Invalid, match=r"^from: the year"):
        occ.parse_instant(text[:10], "from", occ.zone(NY))
    with pytest.raises(Invalid, match=r"^exdates\[0\]: the year"):
        occ.exdate(text[:10], "exdates[0]")
