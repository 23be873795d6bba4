"""A real host with receiver pages in Chromium: an event created over HTTP survives a
crash of the host, fires on time after it restarts (over HTTP and on the screen), and
what played before comes back when it ends; an occurrence missed while the host was
down, still running, is applied when the host starts."""

import io
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from tests.support.browser import BLUE, RED, open_receiver, rig, wait_colour
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.browser]

ZONE = "Asia/Kolkata"  # not the machine's: the event's local time is the host's zone's


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Any]]:
    yield from rig(tmp_path_factory, "schedule")


def solid(path: Path, colour: tuple[int, int, int]) -> Path:
    out = io.BytesIO()
    Image.new("RGB", (64, 36), colour).save(out, "PNG")
    path.write_bytes(out.getvalue())
    return path


def local(at: float) -> str:
    """The local time in ZONE of the Unix time ``at``, rounded up to a whole second."""
    moment = datetime.fromtimestamp(int(at) + 1, ZoneInfo(ZONE))
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def instant(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_an_event_survives_a_crash_and_fires_on_time(
    both: tuple[ServerProcess, Any], tmp_path: Path
) -> None:
    host, context = both
    host.ok("PUT", "/system/timezone", json={"timezone": ZONE})
    host.upload("red.png", solid(tmp_path / "red.png", RED))
    host.upload("blue.png", solid(tmp_path / "blue.png", BLUE))
    idle = host.signage("Idle", ["red.png"])
    ads = host.signage("Ads", ["blue.png"])
    page = open_receiver(context, host, "sched-a")
    other = open_receiver(context, host, "sched-b")
    display, missed_display = host.lock("sched-a"), host.lock("sched-b")
    for d in (display, missed_display):
        host.ok("PUT", f"/displays/{d}/switch", params={"destinationSourceId": idle})
    wait_colour(page, RED, name="schedule-before")

    now = time.time()
    on_time = host.ok(
        "POST",
        "/schedule",
        json={
            "name": "On time",
            "start": local(now + 20),
            "durationSeconds": 6,
            "action": {"kind": "switch", "displayId": display, "sourceId": ads},
        },
    )
    missed = host.ok(
        "POST",
        "/schedule",
        json={
            "name": "Missed",
            "start": local(now + 3),
            "durationSeconds": 120,
            "action": {"kind": "switch", "displayId": missed_display, "sourceName": "Ads"},
        },
    )
    assert on_time["timeZone"] == ZONE and on_time["next"] is not None
    due_at = instant(on_time["next"])
    host.kill()
    # down while "Missed" starts
    wait_until(lambda: time.time() > instant(missed["next"]) + 1, timeout=10)
    host.start()
    assert time.time() < due_at - 1, "the host took too long to start for this test"

    def plays_of(d: int) -> str:
        return str(host.ok("GET", f"/displays/{d}")["playingSourceId"])

    assert plays_of(missed_display) == ads, "applied when the host started"
    assert plays_of(display) == idle
    wait_until(lambda: plays_of(display) == ads, timeout=due_at - time.time() + 3, interval=0.05)
    seen_at = time.time()
    assert due_at <= seen_at + 0.05 and seen_at - due_at < 1.0, seen_at - due_at
    wait_colour(page, BLUE, name="schedule-fired", timeout=10)
    entries = host.ok("GET", "/playlog", params={"displayId": display})["entries"]
    started = [e for e in entries if e["cause"] == "On time"]
    assert len(started) == 1 and started[0]["trigger"] == "schedule"
    assert 0 <= instant(started[0]["start"]) - due_at < 1.0

    # it ends: what played before comes back, on the screen too
    wait_until(lambda: plays_of(display) == idle, timeout=10, interval=0.05)
    assert time.time() - (due_at + 6) < 1.0
    wait_colour(page, RED, name="schedule-ended", timeout=10)
    wait_colour(other, BLUE, name="schedule-missed-applied", timeout=10)
    last = host.ok("GET", f"/schedule/{missed['id']}")["lastRun"]
    assert last["result"] == "applied"
    assert instant(last["at"]) > instant(missed["next"]) + timedelta(seconds=1).total_seconds()
