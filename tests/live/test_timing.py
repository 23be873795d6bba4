"""When frames are shown (tilewall.live.timing): on the host clock, in the source's
rhythm whatever the network does, never one before the frame ahead of it."""

import itertools
from fractions import Fraction

from tilewall.live.timing import Presenter

TB = Fraction(1, 90_000)
FRAME = 3000  # 90 kHz ticks of a 30 fps frame


def _run(presenter: Presenter, arrivals: list[float]) -> list[float]:
    return [presenter.at(n * FRAME, TB, arrival) for n, arrival in enumerate(arrivals)]


def test_first_frame_is_shown_the_delay_after_it_came_then_in_the_sources_rhythm():
    ats = _run(Presenter(50), [1000 + n * 33.333 + (7 if n % 2 else 0) for n in range(30)])
    assert ats[0] == 1050
    steps = {round(b - a, 2) for a, b in itertools.pairwise(ats)}
    assert steps == {33.33}  # the jitter of arrival is gone


def test_a_bursty_stream_keeps_one_offset_and_every_frame_is_in_time():
    # ten frames at a time, every third of a second (a muxer flushing its buffer)
    arrivals = [1000 + (n // 10) * 333.33 + 300 + (n % 10) * 0.1 for n in range(300)]
    presenter = Presenter(50)
    ats = _run(presenter, arrivals)
    assert ats == sorted(ats)
    late = [at - arrival for at, arrival in zip(ats, arrivals, strict=False)]
    assert min(late[10:]) >= 0  # after the first burst, no frame is due before it came
    assert presenter.reanchored <= 1


def test_a_stall_moves_the_offset_later_and_then_it_creeps_back_without_going_back():
    # the network holds frames 60 to 72 back 400 ms, then all is on time again
    on_time = [1000 + n * 33.333 for n in range(600)]
    arrivals = [max(t, on_time[60] + 400) if 60 <= n <= 72 else t for n, t in enumerate(on_time)]
    presenter = Presenter(50)
    ats = _run(presenter, arrivals)
    assert presenter.reanchored == 1
    assert all(b > a for a, b in itertools.pairwise(ats))
    shown_after = [at - arrival for at, arrival in zip(ats, arrivals, strict=False)]
    assert abs(shown_after[60] - 50) < 1  # the late frame sets the new offset
    assert shown_after[100] > 300  # the frames after it wait as long, at first
    assert shown_after[-1] <= 50 + 10 + 1  # then the offset creeps back, to within 10 ms


def test_a_share_wins_its_latency_back_within_seconds_after_a_stall():
    # the sharer's page stalls 1.5 s (a busy machine): frames 60 to 105 come at once
    on_time = [1000 + n * 33.333 for n in range(600)]
    arrivals = [max(t, on_time[60] + 1500) if 60 <= n <= 105 else t for n, t in enumerate(on_time)]
    presenters = [Presenter(50), Presenter(50, early_for_ms=250, catch_up=0.5)]
    runs = [_run(p, arrivals) for p in presenters]
    for ats in runs:
        assert all(b > a for a, b in itertools.pairwise(ats))  # never one before the last
    after = [[at - arr for at, arr in zip(ats, arrivals, strict=True)] for ats in runs]
    assert after[0][300] > 800  # a camera's even rhythm: still most of the stall behind
    assert after[1][300] <= 50 + 10 + 1  # a share: back within 10 ms of the delay
    steps = {round(b - a, 1) for a, b in itertools.pairwise(runs[1][300:])}
    assert steps == {33.3}  # and in the sharer's rhythm again
