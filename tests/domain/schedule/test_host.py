"""Scheduled events run by the host on a manual clock: on time, across restarts, clock
changes and changes of the host's time zone; the play log says what played and why."""

import pytest

from tests.support.localtime import local_ms
from tilewall.host.errors import Conflict, Invalid
from tilewall.host.schedule.events import ActionSpec, EventSpec
from tilewall.host.triggers import triggered_by

from .conftest import Rig, switch_spec

WEEKDAYS = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


async def test_a_weekday_event_switches_on_time_and_what_played_comes_back(rig: Rig) -> None:
    first = rig.displays[0]
    await rig.host.schedule.create(
        switch_spec(
            "Morning ads", "2026-03-02T09:00:00", "Ads", first, duration_s=3600, recurrence=WEEKDAYS
        )
    )
    await rig.at("2026-03-02T08:59:59")
    assert rig.shows(first) == "Idle"
    await rig.at("2026-03-02T09:00:00")
    assert rig.shows(first) == "Ads"
    assert rig.host.scheduler.next_ms == local_ms("2026-03-02T10:00:00")
    await rig.at("2026-03-02T10:00:00")
    assert rig.shows(first) == "Idle"
    assert rig.host.scheduler.next_ms == local_ms("2026-03-03T09:00:00")
    # not on Saturday; again on Monday
    await rig.at("2026-03-07T09:30:00")
    assert rig.shows(first) == "Idle"
    await rig.at("2026-03-09T09:00:00")
    assert rig.shows(first) == "Ads"
    assert rig.shows(rig.displays[1]) == "Idle"


async def test_the_play_log_says_what_played_when_and_why(rig: Rig) -> None:
    first = rig.displays[0]
    await rig.host.schedule.create(
        switch_spec("Morning ads", "2026-03-02T09:00:00", "Ads", first, duration_s=1800)
    )
    await rig.at("2026-03-02T09:00:00")
    rig.clock.ms = local_ms("2026-03-02T09:10:00")
    with triggered_by("console"):
        await rig.switch(rig.displays[1], "News")
    preset = await rig.host.presets.save("Evening")
    await rig.at("2026-03-02T09:30:00")
    rig.clock.ms = local_ms("2026-03-02T09:40:00")
    await rig.switch(rig.displays[1], "Idle")
    rig.clock.ms = local_ms("2026-03-02T09:45:00")
    await rig.host.presets.recall(preset)
    await rig.host.playlog.flush()
    plays = await rig.host.playlog.plays(display_id=None)
    rows = sorted(
        (p.display_id, p.source_name, p.trigger, p.cause, p.start_ms, p.end_ms) for p in plays
    )
    t = local_ms
    second = rig.displays[1]
    assert rows == sorted(
        [
            (first, "Idle", "api", "", t("2026-03-02T08:00:00"), t("2026-03-02T09:00:00")),
            (second, "Idle", "api", "", t("2026-03-02T08:00:00"), t("2026-03-02T09:10:00")),
            (
                first,
                "Ads",
                "schedule",
                "Morning ads",
                t("2026-03-02T09:00:00"),
                t("2026-03-02T09:30:00"),
            ),
            (second, "News", "console", "", t("2026-03-02T09:10:00"), t("2026-03-02T09:40:00")),
            (
                first,
                "Idle",
                "schedule",
                "end of a scheduled event",
                t("2026-03-02T09:30:00"),
                t("2026-03-02T09:45:00"),
            ),
            (second, "Idle", "api", "", t("2026-03-02T09:40:00"), t("2026-03-02T09:45:00")),
            (first, "Ads", "preset", "Evening", t("2026-03-02T09:45:00"), None),
            (second, "News", "preset", "Evening", t("2026-03-02T09:45:00"), None),
        ]
    )
    # what was written is what is read
    assert sorted(rig.plays.rows.values(), key=lambda p: (p.start_ms, p.id)) == plays


async def test_a_restarted_host_applies_an_occurrence_it_missed_that_still_runs(rig: Rig) -> None:
    first, second = rig.displays
    await rig.host.schedule.create(
        switch_spec(
            "Lunch",
            "2026-03-02T12:00:00",
            "Ads",
            first,
            end="2026-03-02T13:00:00",
            recurrence="FREQ=DAILY",
        )
    )
    await rig.host.schedule.create(
        switch_spec("Short", "2026-03-02T11:00:00", "News", second, duration_s=600)
    )
    await rig.at("2026-03-02T10:00:00")
    await rig.host.close()  # down from 10:00 to 12:20
    rig.clock.ms = local_ms("2026-03-02T12:20:00")
    await rig.restart()
    assert rig.shows(first) == "Ads"  # applied on start: it runs until 13:00
    assert rig.shows(second) == "Idle"  # 11:00-11:10 ended while the host was down
    last = rig.host.scheduler.state().last
    assert last[_id(rig, "Short")].result == "skipped"
    await rig.at("2026-03-02T13:00:00")
    assert rig.shows(first) == "Idle"
    # a restart while it runs neither applies it again nor forgets what comes back
    await rig.at("2026-03-03T12:00:00")
    await rig.restart()
    await rig.at("2026-03-03T12:30:00")
    assert rig.shows(first) == "Ads"
    await rig.at("2026-03-03T13:00:00")
    assert rig.shows(first) == "Idle"
    await rig.host.playlog.flush()
    lunches = [p for p in rig.plays.rows.values() if p.cause == "Lunch"]
    assert [p.start_ms for p in lunches] == [
        local_ms("2026-03-02T12:20:00"),
        local_ms("2026-03-03T12:00:00"),
    ]


def _id(rig: Rig, name: str) -> str:
    return next(e.id for e in rig.host.schedule.all() if e.name == name)


async def test_a_time_the_clock_skips_fires_once_an_hour_later(rig: Rig) -> None:
    first = rig.displays[0]
    await rig.host.schedule.create(
        switch_spec("Night", "2026-03-06T02:30:00", "News", first, recurrence="FREQ=DAILY")
    )
    await rig.at("2026-03-07T12:00:00")
    fired: list[int] = []
    # every minute of the night of the change, 01:00 EST to 04:30 EDT (02:00-03:00 is skipped)
    start, end = local_ms("2026-03-08T01:00:00"), local_ms("2026-03-08T04:30:00")
    for now in range(start, end, 60_000):
        rig.clock.ms = now
        await rig.switch(first, "Idle") if rig.shows(first) != "Idle" else None
        await rig.host.scheduler.tick()
        if rig.shows(first) == "News":
            fired.append(now)
    assert fired == [local_ms("2026-03-08T03:30:00")]


async def test_a_time_the_clock_repeats_fires_once(rig: Rig) -> None:
    first = rig.displays[0]
    await rig.host.schedule.create(
        switch_spec("Night", "2026-10-31T01:30:00", "News", first, recurrence="FREQ=DAILY")
    )
    await rig.at("2026-10-31T12:00:00")
    applied = 0
    start = local_ms("2026-11-01T00:00:00")
    for now in range(start, start + 4 * 3_600_000, 60_000):
        rig.clock.ms = now
        if rig.shows(first) != "Idle":
            await rig.switch(first, "Idle")
        await rig.host.scheduler.tick()
        applied += rig.shows(first) == "News"
    assert applied == 1


async def test_an_event_without_a_zone_follows_the_hosts_time_zone(rig: Rig) -> None:
    first = rig.displays[0]
    event = await rig.host.schedule.create(
        switch_spec("Open", "2026-03-02T09:00:00", "Ads", first, recurrence="FREQ=DAILY")
    )
    pinned = await rig.host.schedule.create(
        switch_spec(
            "Pinned",
            "2026-03-02T09:00:00",
            "News",
            rig.displays[1],
            recurrence="FREQ=DAILY",
            time_zone="America/New_York",
        )
    )
    now = local_ms("2026-03-02T08:00:00")
    assert rig.host.schedule.next_start(event, now) == local_ms("2026-03-02T09:00:00")
    await rig.host.machine_settings.set_time_zone("Europe/Berlin")
    # 09:00 in Berlin is 03:00 in New York
    assert rig.host.schedule.next_start(event, now) == local_ms("2026-03-03T03:00:00")
    assert rig.host.schedule.next_start(pinned, now) == local_ms("2026-03-02T09:00:00")
    await rig.at("2026-03-02T09:00:00")
    assert rig.shows(first) == "Idle"
    assert rig.shows(rig.displays[1]) == "News"
    await rig.switch(rig.displays[1], "Idle")
    await rig.at("2026-03-03T03:00:00")
    assert rig.shows(first) == "Ads"
    assert rig.shows(rig.displays[1]) == "Idle"


async def test_deleting_what_an_event_names_is_refused_until_the_event_is_gone(rig: Rig) -> None:
    preset = await rig.host.presets.save("Evening")
    event = await rig.host.schedule.create(
        EventSpec(
            "Recall", "2026-03-02T18:00:00", ActionSpec("recallPreset", preset_name="Evening")
        )
    )
    with pytest.raises(Conflict, match="'Recall'"):
        await rig.host.presets.delete(preset)
    assert preset.id in rig.host.state.presets
    switch = await rig.host.schedule.create(
        switch_spec("S", "2026-03-02T18:00:00", "News", rig.displays[0])
    )
    with pytest.raises(Conflict, match="scheduled events 'S'"):
        await rig.host.sources.delete(rig.sources["News"])
    await rig.host.schedule.delete(event.id)
    await rig.host.schedule.delete(switch.id)
    await rig.host.presets.delete(preset)
    await rig.host.sources.delete(rig.sources["News"])


async def test_power_and_broadcast_events_end_as_they_began(rig: Rig) -> None:
    await rig.host.schedule.create(
        EventSpec(
            "Night",
            "2026-03-02T22:00:00",
            ActionSpec("power", state="off"),
            end="2026-03-03T06:00:00",
        )
    )
    await rig.host.schedule.create(
        EventSpec(
            "Drill",
            "2026-03-02T10:00:00",
            ActionSpec("broadcast", message="Fire drill", alert_level="RED_LEVEL"),
            duration_s=900,
        )
    )
    await rig.at("2026-03-02T10:00:00")
    alert = rig.host.overlays.active_alert()
    assert alert is not None and alert.message == "Fire drill"
    assert alert.until_ms == local_ms("2026-03-02T10:15:00")
    await rig.at("2026-03-02T10:15:00")
    assert rig.host.overlays.active_alert() is None
    await rig.at("2026-03-02T22:00:00")
    assert all(rig.host.overlays.is_blanked(d) for d in rig.displays)
    await rig.host.playlog.flush()
    assert all(p.end_ms is not None for p in rig.plays.rows.values())  # nothing plays
    await rig.at("2026-03-03T06:00:00")
    assert not any(rig.host.overlays.is_blanked(d) for d in rig.displays)
    await rig.host.playlog.flush()
    woken = [p for p in rig.plays.rows.values() if p.end_ms is None]
    assert {(p.display_id, p.source_name, p.trigger) for p in woken} == {
        (d, "Idle", "schedule") for d in rig.displays
    }


async def test_old_plays_are_forgotten_after_the_retention(rig: Rig) -> None:
    for _ in range(3):
        rig.clock.advance(3_600_000)
        await rig.switch(rig.displays[0], "Ads")
        await rig.switch(rig.displays[0], "Idle")
    await rig.host.playlog.flush()
    count = len(rig.plays.rows)
    rig.clock.advance(89 * 24 * 3_600_000)
    assert await rig.host.playlog.prune() == 0
    rig.clock.advance(2 * 24 * 3_600_000)
    assert await rig.host.playlog.prune() == count - 2  # the two open plays stay
    with pytest.raises(Invalid, match="retentionDays"):
        await rig.host.playlog.set_retention_days(0)
    assert await rig.host.playlog.set_retention_days(30) == 30
