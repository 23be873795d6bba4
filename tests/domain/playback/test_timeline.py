"""Playback timelines: position while playing and paused, pause, resume, seek, rebase."""

from typing import Any

import pytest

from tilewall.host.model import Timeline
from tilewall.host.playback import timeline as tl

T0 = 1_000_000


def playing(at: int = T0, position: int = 0, **kw: Any) -> Timeline:
    return Timeline(
        assigned_source_id="s",
        state="playing",
        welcome=False,
        anchor_ms=at,
        anchor_position_ms=position,
        **kw,
    )


def test_position_while_playing_advances_with_the_clock():
    t = playing()
    assert tl.position_ms(t, T0) == 0
    assert tl.position_ms(t, T0 + 1500) == 1500
    assert tl.position_ms(playing(position=200), T0 + 300) == 500


def test_position_never_negative():
    assert tl.position_ms(playing(), T0 - 10_000) == 0


def test_position_while_paused_or_stopped_holds():
    paused = tl.pause(playing(), T0 + 700)
    assert paused.state == "paused"
    assert tl.position_ms(paused, T0 + 700) == 700
    assert tl.position_ms(paused, T0 + 99_000) == 700
    assert tl.position_ms(Timeline(), T0 + 5) == 0


def test_pause_resume_continue_from_where_it_was():
    paused = tl.pause(playing(), T0 + 1000)
    resumed = tl.resume(paused, T0 + 60_000)
    assert resumed.state == "playing"
    assert tl.position_ms(resumed, T0 + 60_000) == 1000
    assert tl.position_ms(resumed, T0 + 60_250) == 1250


def test_pause_and_resume_are_idempotent():
    t = playing()
    paused = tl.pause(t, T0 + 10)
    assert tl.pause(paused, T0 + 500) == paused
    assert tl.resume(t, T0 + 500) == t
    stopped = Timeline()
    assert tl.pause(stopped, T0) == stopped
    assert tl.resume(stopped, T0) == stopped


@pytest.mark.parametrize(
    ("to", "limit", "expected"),
    [(5000, None, 5000), (-5, None, 0), (9000, 8000, 8000), (100, 8000, 100)],
)
def test_seek_clamps(to, limit, expected):
    t = tl.seek(playing(), T0 + 3000, to, limit)
    assert tl.position_ms(t, T0 + 3000) == expected
    assert tl.position_ms(t, T0 + 3100) == expected + 100


def test_seek_while_paused_stays_paused():
    paused = tl.pause(playing(), T0 + 10)
    moved = tl.seek(paused, T0 + 20, 4000, None)
    assert moved.state == "paused"
    assert tl.position_ms(moved, T0 + 10_000) == 4000


def test_rebase_restarts_a_playing_timeline_and_keeps_a_paused_position():
    rebased = tl.rebase(playing(position=3000), T0 + 50_000)
    assert tl.position_ms(rebased, T0 + 50_000) == 0
    assert tl.position_ms(rebased, T0 + 50_400) == 400
    paused = tl.pause(playing(), T0 + 2500)
    rebased = tl.rebase(paused, T0 + 90_000)
    assert rebased.state == "paused"
    assert tl.position_ms(rebased, T0 + 95_000) == 2500


def test_switch_start_stop():
    t = tl.switch(Timeline(), "src", T0, welcome=False)
    assert t.assigned_source_id == "src" and t.state == "playing" and not t.welcome
    assert tl.playing_source_id(t) == "src" and tl.is_playing(t)
    w = tl.switch(t, "other", T0 + 5, welcome=True)
    assert w.assigned_source_id == "other" and w.welcome and not tl.is_playing(w)
    assert tl.playing_source_id(w) == ""
    s = tl.stop(t, T0 + 9)
    assert s.state == "stopped" and not tl.shows_content(s)
    assert s.assigned_source_id == "src"  # play brings it back


def test_timeline_functions_do_not_mutate():
    t = playing()
    before = (t.state, t.anchor_ms, t.anchor_position_ms)
    tl.pause(t, T0 + 5)
    tl.seek(t, T0 + 5, 10, None)
    tl.rebase(t, T0 + 5)
    tl.stop(t, T0 + 5)
    assert (t.state, t.anchor_ms, t.anchor_position_ms) == before


def test_videolist_is_not_a_playing_source():
    t = playing(videolist=["a.png"])
    assert tl.playing_source_id(t) == ""
    assert tl.is_playing(t)


def test_receivers_start_a_lead_after_the_anchor_positions_do_not_move():
    t = tl.seek(playing(), T0 + 3000, 5000, None)
    assert tl.start_ms(t) == T0 + 3000 + tl.START_LEAD_MS
    # the timeline itself (what the interface reports) is not moved by the lead
    assert tl.position_ms(t, T0 + 3000) == 5000
    assert tl.position_ms(t, T0 + 3100) == 5100
    paused = tl.pause(t, T0 + 4000)
    assert tl.start_ms(paused) == paused.anchor_ms
    try:
        tl.set_start_lead_ms(40)
        assert tl.start_ms(tl.resume(paused, T0 + 9000)) == T0 + 9040
    finally:
        tl.set_start_lead_ms(tl.START_LEAD_MS)
