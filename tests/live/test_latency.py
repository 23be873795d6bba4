"""A stream's delay follows what its receivers report (tilewall.live.latency): up at once
when frames are ready too late, down slowly while all are early, within its bounds; and
the frames' instants follow it without ever going back."""

import itertools
from fractions import Fraction

import pytest

from tilewall.live import latency as lat
from tilewall.live.latency import DelayPolicy, Latency
from tilewall.live.timing import SLEW_MS, Presenter


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _latency(start: float = 50.0) -> tuple[Latency, Clock]:
    clock = Clock()
    return Latency(start, now=clock), clock


def _seconds(latency: Latency, clock: Clock, seconds: int, margins: list[float]) -> None:
    """One report a second of ``margins``."""
    for _ in range(seconds):
        clock.t += 1.0
        latency.report(margins)


def test_frames_ready_late_raise_the_delay_at_once_to_give_them_the_target():
    latency, clock = _latency()
    clock.t += 1.0
    latency.report([30.0] * 25 + [-12.0] * 5)  # one frame in six late by 12 ms
    assert latency.ms == 50 + lat.TARGET_MS + 12
    assert latency.rises == 1


def test_a_few_late_frames_in_a_hundred_are_hiccups_not_a_reason():
    latency, clock = _latency()
    _seconds(latency, clock, 3, [15.0] * 96 + [-40.0] * 4)
    assert latency.ms == 50 and latency.rises == 0


def test_one_slow_tile_of_a_wall_is_not_outvoted_by_the_others():
    latency, clock = _latency()
    clock.t += 1.0
    for tile in range(8):
        latency.report([40.0] * 30, tile)
    # late on 8 frames of its 30: 3 % of the wall's frames, 27 % of its own
    latency.report([40.0] * 22 + [-6.0] * 8, "slow tile")
    assert latency.ms == 50 + lat.TARGET_MS + 6


def test_a_viewer_gone_is_forgotten_after_the_window():
    latency, clock = _latency()
    clock.t += 1.0
    latency.report([12.0] * 30, "left")  # in the dead band: keeps the delay
    clock.t += lat.WINDOW_S + 1
    _seconds(latency, clock, int(lat.SETTLE_S) + 1, [45.0] * 30)
    assert latency.falls == 1  # only the one still there counts


def test_reports_just_after_a_change_are_of_frames_timed_before_it():
    latency, clock = _latency()
    clock.t += 1.0
    latency.report([-10.0] * 30)
    raised = latency.ms
    clock.t += lat.HOLD_S / 2
    latency.report([-10.0] * 30)  # in flight when it rose: not counted
    assert latency.ms == raised


def test_frames_all_early_lower_the_delay_a_step_at_a_time_after_it_settled():
    latency, clock = _latency()
    # the first report's frames came in the second before it: settled after SETTLE_S more
    _seconds(latency, clock, int(lat.SETTLE_S), [45.0] * 30)
    assert latency.ms == 50
    _seconds(latency, clock, 1, [45.0] * 30)
    assert latency.ms == 50 - lat.STEP_MS and latency.falls == 1
    # it goes on falling while the margins allow, never below the floor
    for _ in range(60):
        _seconds(latency, clock, 7, [45.0] * 30)
    assert latency.ms == lat.FLOOR_MS


def test_margins_near_the_target_keep_the_delay_where_it_is():
    latency, clock = _latency()
    _seconds(latency, clock, 20, [lat.TARGET_MS + 5.0] * 30)
    assert latency.ms == 50 and latency.rises == latency.falls == 0


def test_a_receiver_never_in_time_raises_it_no_higher_than_the_ceiling():
    latency, clock = _latency()
    for _ in range(10):
        _seconds(latency, clock, 2, [-400.0] * 30)
    assert latency.ms == lat.CEILING_MS


def test_a_fixed_delay_never_moves_and_what_is_not_a_number_is_ignored():
    fixed = DelayPolicy(30).latency()
    fixed.report([-100.0] * 50)
    assert fixed.ms == 30 and not fixed.adaptive
    latency, clock = _latency()
    clock.t += 1.0
    latency.report([float("nan"), float("inf"), float("-inf")] * 10)
    assert latency.ms == 50
    assert DelayPolicy().latency().ms == lat.START_MS


TB = Fraction(1, 90_000)
FRAME = 3000  # a 30 fps frame in 90 kHz ticks


def test_frames_follow_a_rise_at_once_and_a_fall_gently_never_going_back():
    latency = Latency(50, now=Clock())
    presenter = Presenter(latency)
    ats = []
    for n in range(90):
        if n == 30:
            latency.ms = 80.0
        if n == 60:
            latency.ms = 20.0
        arrival = 1000 + n * 33.333
        ats.append(presenter.at(n * FRAME, TB, arrival))
    steps = [b - a for a, b in itertools.pairwise(ats)]
    assert ats[29] - (1000 + 29 * 33.333) == pytest.approx(50, abs=0.1)
    assert ats[30] - (1000 + 30 * 33.333) == pytest.approx(80, abs=0.1)  # at once
    assert min(steps) >= 33.333 - SLEW_MS - 0.01  # a fall: SLEW_MS a frame at most
    assert ats[89] - (1000 + 89 * 33.333) == pytest.approx(20, abs=0.1)
    assert presenter.reanchored == 0
