"""How overlapping occurrences share a target, on fake effects and a manual clock:
priorities, waiting, ending in any order, changes by someone else, missed occurrences."""

from typing import Any

import pytest

from tilewall.host.errors import NotFound
from tilewall.host.model import Action, ScheduledEvent, ScheduleState, Snapshot, Timeline
from tilewall.host.schedule.plan import Tick, due

from .test_occurrences import ms

MIN = 60_000


class Screens:
    """Targets that show a word; events put their name on the targets they name."""

    def __init__(self) -> None:
        self.shows: dict[str, str] = {"zone:a": "base-a", "zone:b": "base-b"}
        self.applied: list[tuple[str, int]] = []

    def keys(self, event: ScheduledEvent) -> list[str]:
        keys = [f"zone:{k}" for k in event.action.zone_id.split(",")]
        if any(k not in self.shows for k in keys):
            raise NotFound("its zone no longer exists")
        return keys

    def snapshot(self, key: str, now_ms: int) -> Snapshot:
        return Snapshot(timeline=Timeline(assigned_source_id=self.shows[key]), at_ms=now_ms)

    async def apply(
        self, event: ScheduledEvent, start_ms: int, end_ms: int | None, now_ms: int
    ) -> None:
        self.applied.append((event.name, now_ms))
        for key in self.keys(event):
            self.shows[key] = event.name

    async def restore(self, snapshots: dict[str, Snapshot], now_ms: int) -> None:
        for key, snap in snapshots.items():
            assert snap.timeline is not None
            self.shows[key] = snap.timeline.assigned_source_id


def ev(
    name: str, start: str, minutes: int | None, priority: int = 0, zones: str = "a", **kw: Any
) -> ScheduledEvent:
    return ScheduledEvent(
        name,
        name,
        start,
        Action("switch", zone_id=zones),
        time_zone="UTC",
        duration_s=minutes * 60 if minutes else 0,
        priority=priority,
        updated_ms=ms("2026-03-01T00:00"),
        **kw,
    )


class World:
    def __init__(self, *events: ScheduledEvent) -> None:
        self.screens = Screens()
        self.events = {e.id: e for e in events}
        self.state = ScheduleState()

    async def at(self, when: str) -> dict[str, str]:
        tick = Tick(self.state, self.events, "UTC", ms(when), self.screens)
        self.state = await tick.run()
        return dict(self.screens.shows)


async def test_a_span_applies_and_what_played_before_comes_back() -> None:
    w = World(ev("ads", "2026-03-02T09:00:00", 60))
    assert (await w.at("2026-03-02T08:59:59"))["zone:a"] == "base-a"
    assert (await w.at("2026-03-02T09:00:00"))["zone:a"] == "ads"
    assert (await w.at("2026-03-02T09:30:00"))["zone:a"] == "ads"
    assert (await w.at("2026-03-02T10:00:00"))["zone:a"] == "base-a"
    assert w.state.runs == []
    assert [name for name, _ in w.screens.applied] == ["ads"]


async def test_a_higher_priority_wins_and_the_lower_one_comes_back_when_it_ends() -> None:
    w = World(
        ev("low", "2026-03-02T09:00:00", 180), ev("high", "2026-03-02T10:00:00", 60, priority=5)
    )
    assert (await w.at("2026-03-02T09:00"))["zone:a"] == "low"
    assert (await w.at("2026-03-02T10:00"))["zone:a"] == "high"
    assert (await w.at("2026-03-02T11:00"))["zone:a"] == "low"
    assert (await w.at("2026-03-02T12:00"))["zone:a"] == "base-a"


async def test_a_lower_priority_waits_for_the_higher_one_and_then_applies() -> None:
    w = World(
        ev("high", "2026-03-02T09:00:00", 60, priority=5), ev("low", "2026-03-02T09:30:00", 90)
    )
    await w.at("2026-03-02T09:00")
    assert (await w.at("2026-03-02T09:30"))["zone:a"] == "high"
    assert w.state.last["low"].result == "waiting"
    # the high one ends: the low one takes over without showing what was before
    assert (await w.at("2026-03-02T10:00"))["zone:a"] == "low"
    assert [n for n, _ in w.screens.applied] == ["high", "low"]
    assert (await w.at("2026-03-02T11:00"))["zone:a"] == "base-a"


async def test_an_instant_outranked_by_a_running_span_is_dropped() -> None:
    w = World(
        ev("hold", "2026-03-02T09:00:00", 60, priority=5), ev("blip", "2026-03-02T09:10:00", None)
    )
    await w.at("2026-03-02T09:00")
    assert (await w.at("2026-03-02T09:10"))["zone:a"] == "hold"
    assert w.state.last["blip"].result == "outranked"
    assert (await w.at("2026-03-02T10:00"))["zone:a"] == "base-a"


async def test_spans_ending_out_of_order_unwind_to_what_was_first() -> None:
    # first: 09-11, second (same priority, starts later, on top): 10-12
    w = World(ev("first", "2026-03-02T09:00:00", 120), ev("second", "2026-03-02T10:00:00", 120))
    await w.at("2026-03-02T09:00")
    assert (await w.at("2026-03-02T10:00"))["zone:a"] == "second"
    # the one underneath ends: nothing visible changes
    assert (await w.at("2026-03-02T11:00"))["zone:a"] == "second"
    # the top one ends: what was there before either of them comes back
    assert (await w.at("2026-03-02T12:00"))["zone:a"] == "base-a"


async def test_a_target_changed_by_someone_else_is_left_alone_at_the_end() -> None:
    w = World(ev("ads", "2026-03-02T09:00:00", 60))
    await w.at("2026-03-02T09:00")
    w.screens.shows["zone:a"] = "operator"
    assert (await w.at("2026-03-02T10:00"))["zone:a"] == "operator"


async def test_overlap_is_per_target() -> None:
    w = World(
        ev("both", "2026-03-02T09:00:00", 60, priority=5, zones="a,b"),
        ev("only-b", "2026-03-02T09:00:00", 120, zones="b"),
        ev("only-a-low", "2026-03-02T09:15:00", 15, priority=-1, zones="a"),
    )
    shows = await w.at("2026-03-02T09:00")
    assert shows == {"zone:a": "both", "zone:b": "both"}
    assert w.state.last["only-b"].result == "waiting"
    shows = await w.at("2026-03-02T10:00")
    # only-a-low ended while it waited; only-b takes zone b, zone a comes back
    assert shows == {"zone:a": "base-a", "zone:b": "only-b"}
    assert (await w.at("2026-03-02T11:00")) == {"zone:a": "base-a", "zone:b": "base-b"}


async def test_missed_occurrences_still_running_apply_and_ended_ones_are_skipped() -> None:
    w = World(
        ev("daily", "2026-03-02T09:00:00", 60, recurrence="FREQ=DAILY"),
        ev("switch", "2026-03-02T08:00:00", None, recurrence="FREQ=DAILY", zones="b"),
    )
    await w.at("2026-03-02T09:05")
    assert w.screens.applied == [
        ("switch", ms("2026-03-02T09:05")),
        ("daily", ms("2026-03-02T09:05")),
    ]
    # the host is down from 09:10 on the 2nd until 09:30 on the 4th
    shows = await w.at("2026-03-04T09:30")
    assert shows == {"zone:a": "daily", "zone:b": "switch"}
    assert w.state.last["daily"].result == "applied"
    assert w.state.handled["daily"].start_ms == ms("2026-03-04T09:00")
    # each applied once more, not once per missed day
    assert [n for n, _ in w.screens.applied] == ["switch", "daily", "switch", "daily"]
    assert (await w.at("2026-03-04T10:00"))["zone:a"] == "base-a"


async def test_a_changed_event_ends_its_run_and_starts_as_it_says_now() -> None:
    w = World(ev("ads", "2026-03-02T09:00:00", 60))
    await w.at("2026-03-02T09:00")
    changed = ev("ads", "2026-03-02T09:00:00", 60, zones="b")
    changed.updated_ms = ms("2026-03-02T09:10")
    w.events["ads"] = changed
    shows = await w.at("2026-03-02T09:10")
    assert shows == {"zone:a": "base-a", "zone:b": "ads"}
    shows = await w.at("2026-03-02T09:11")
    assert shows == {"zone:a": "base-a", "zone:b": "ads"}
    assert [n for n, _ in w.screens.applied] == ["ads", "ads"]
    del w.events["ads"]
    assert (await w.at("2026-03-02T09:12")) == {"zone:a": "base-a", "zone:b": "base-b"}


async def test_an_occurrence_whose_target_is_gone_is_skipped_with_the_reason() -> None:
    w = World(ev("gone", "2026-03-02T09:00:00", 60, zones="nowhere"))
    await w.at("2026-03-02T09:00")
    assert w.state.last["gone"].result == "skipped"
    assert "no longer exists" in w.state.last["gone"].message


def test_due_is_pure_and_knows_what_was_handled() -> None:
    e = ev("daily", "2026-03-02T09:00:00", 60, recurrence="FREQ=DAILY")
    now = ms("2026-03-03T09:30")
    first = due(e, "UTC", None, now)
    assert [o.start_ms for o in first.start] == [ms("2026-03-03T09:00")]
    assert [o.start_ms for o in first.missed] == [ms("2026-03-02T09:00")]
    again = due(e, "UTC", first.newest_ms, now)
    assert again.start == [] and again.missed == []


@pytest.mark.parametrize("minutes", [None, 60])
async def test_an_event_that_is_not_enabled_does_nothing(minutes: int | None) -> None:
    e = ev("off", "2026-03-02T09:00:00", minutes)
    e.enabled = False
    w = World(e)
    assert (await w.at("2026-03-02T09:00"))["zone:a"] == "base-a"
