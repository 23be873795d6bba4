"""Pure rules of a playback timeline. Each returns a new Timeline; nothing is mutated."""

import msgspec

from tilewall.host.model import Timeline

#: Receivers start a timeline that was just anchored (switch, play, resume, seek,
#: forward, rewind, a preset or schedule) this long after its anchor, all at that one
#: host instant: until then each pre-rolls (loads, seeks to the position the timeline
#: will have then, waits for a decoded frame). It covers telling every receiver and a
#: seek with a decoded frame: bench/wallsync.py reports it, and with nine Chromium tiles
#: on two busy CPUs the last tile was ready 150-210 ms after the command; a receiver not
#: ready by then joins at an instant of its own. The timeline itself (and every position the
#: interface reports) is not moved by it. ``TILEWALL_START_LEAD_MS`` sets another.
START_LEAD_MS = 300
_lead_ms = START_LEAD_MS


def set_start_lead_ms(ms: int) -> None:
    """Another start lead for this process (the host's configuration)."""
    global _lead_ms
    _lead_ms = max(int(ms), 0)


def start_ms(timeline: Timeline) -> int:
    """The host instant receivers start a playing timeline at (its anchor otherwise)."""
    if timeline.state == "playing":
        return timeline.anchor_ms + _lead_ms
    return timeline.anchor_ms


def position_ms(timeline: Timeline, now_ms: int) -> int:
    if timeline.state == "playing":
        return max(timeline.anchor_position_ms + (now_ms - timeline.anchor_ms), 0)
    return max(timeline.anchor_position_ms, 0)


def is_playing(timeline: Timeline) -> bool:
    return timeline.state == "playing" and not timeline.welcome


def shows_content(timeline: Timeline) -> bool:
    return timeline.state in ("playing", "paused") and not timeline.welcome


def playing_source_id(timeline: Timeline) -> str:
    if shows_content(timeline) and not timeline.videolist:
        return timeline.assigned_source_id
    return ""


def start(timeline: Timeline, now_ms: int, **changes: object) -> Timeline:
    """Play from the beginning (of a new source, list or layout)."""
    return msgspec.structs.replace(
        timeline,
        state="playing",
        welcome=False,
        anchor_ms=now_ms,
        anchor_position_ms=0,
        **changes,
    )


def switch(timeline: Timeline, source_id: str, now_ms: int, welcome: bool) -> Timeline:
    if welcome:
        return stop(timeline, now_ms, assigned_source_id=source_id, layout_id="")
    return start(timeline, now_ms, assigned_source_id=source_id, videolist=[], layout_id="")


def stop(timeline: Timeline, now_ms: int, **changes: object) -> Timeline:
    """Stop, showing the welcome screen (a switch to the welcome screen is one)."""
    return msgspec.structs.replace(
        timeline,
        state="stopped",
        welcome=True,
        anchor_ms=now_ms,
        anchor_position_ms=0,
        videolist=[],
        **changes,
    )


def pause(timeline: Timeline, now_ms: int) -> Timeline:
    if timeline.state != "playing":
        return timeline
    return msgspec.structs.replace(
        timeline, state="paused", anchor_ms=now_ms, anchor_position_ms=position_ms(timeline, now_ms)
    )


def resume(timeline: Timeline, now_ms: int) -> Timeline:
    if timeline.state != "paused":
        return timeline
    return msgspec.structs.replace(timeline, state="playing", anchor_ms=now_ms)


def seek(timeline: Timeline, now_ms: int, to_ms: int, limit_ms: int | None) -> Timeline:
    """Move to ``to_ms``, kept within 0 and ``limit_ms`` (the end, unless it repeats)."""
    to_ms = max(to_ms, 0)
    if limit_ms is not None:
        to_ms = min(to_ms, limit_ms)
    return msgspec.structs.replace(timeline, anchor_ms=now_ms, anchor_position_ms=to_ms)


def rebase(timeline: Timeline, now_ms: int) -> Timeline:
    """The same timeline restarted at ``now_ms``, as a recalled preset plays it."""
    if timeline.state == "playing":
        return msgspec.structs.replace(timeline, anchor_ms=now_ms, anchor_position_ms=0)
    return msgspec.structs.replace(timeline, anchor_ms=now_ms)
