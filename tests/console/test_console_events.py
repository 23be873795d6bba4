"""The console follows the host by its push (GET /api/console/events), not by polling:
idle, no view sends the host a request; a change made through the interface shows at
once in the views that show it."""

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.http import Api
from tests.support.topology import source_id

IDLE_MS = 4000
#: every view of the console (app.js's routes)
VIEWS = [
    "overview",
    "presets",
    "alerts",
    "schedule",
    "playlog",
    "audit",
    "receivers",
    "sources",
    "media",
    "walls",
    "layouts",
    "settings",
]


def open_quietly(page: Any, url: str) -> list[str]:
    """Open the console at ``url`` and wait until it and the host are quiet; the interface
    requests the page makes from then on."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.goto(url)
    page.locator("#conn", has_text="Live").wait_for()
    assert any(u.endswith("/api/console/events") for u in asked), asked
    # a host just started still changes for a while (its demo receivers come online):
    # wait for two quiet seconds (the page's events are taken while Playwright waits)
    for _ in range(15):
        asked.clear()
        page.wait_for_timeout(2000)
        if not asked:
            break
    asked.clear()
    return asked


@pytest.mark.parametrize("view", VIEWS)
def test_an_idle_view_asks_the_host_nothing(page: Any, host_url: str, view: str) -> None:
    asked = open_quietly(page, f"{host_url}/#/{view}")
    page.wait_for_timeout(IDLE_MS)
    assert asked == [], f"an idle console asked the host: {asked}"


def test_the_overview_shows_a_change_made_elsewhere(page: Any, host_url: str, api: Api) -> None:
    asked = open_quietly(page, f"{host_url}/#/overview")
    page.wait_for_selector(".display-row .tile")
    group = api.get("/mirrorgroups").json()["mirrorgroups"][0]
    playing = api.get(f"/mirrorgroups/{group['id']}").json()["playingSourceId"]
    name = next(n for n in ("Demo Clip", "Welcome Slides") if source_id(api, n) != playing)
    answer = api.put(f"/mirrorgroups/{group['id']}/play", json={"sourceId": source_id(api, name)})
    assert answer.status_code == 200, answer.text
    page.locator(".display-row .tile .tile-caption", has_text=name).first.wait_for(timeout=10_000)
    assert any(u.endswith("/api/mirrorgroups") for u in asked), "the console read again"


def rename_a_receiver(api: Api) -> Callable[[], None]:
    answer = api.put("/network/demo-5", json={"name": "Renamed elsewhere", "location": ""})
    assert answer.status_code == 200, answer.text
    return lambda: None


def broadcast_an_alert(api: Api) -> Callable[[], None]:
    alert = {"message": "Told elsewhere", "alertLevel": "GREEN_LEVEL", "lengthMillisec": 60_000}
    answer = api.put("/system/broadcast/start", json=alert)
    assert answer.status_code == 200, answer.text
    return lambda: api.put("/system/broadcast/stop")


def schedule_an_event(api: Api) -> Callable[[], None]:
    display = api.get("/displays").json()["displays"][0]["displayId"]
    event = {
        "name": "Made elsewhere",
        "start": "2030-03-04T09:00:00",
        "durationSeconds": 600,
        "action": {"kind": "switch", "displayId": display, "sourceName": "Demo Clip"},
    }
    answer = api.post("/schedule", json=event)
    assert answer.status_code in (200, 201), answer.text
    return lambda: api.delete(f"/schedule/{answer.json()['id']}")


@pytest.mark.parametrize(
    ("view", "ready", "change", "shown"),
    [
        ("receivers", "tr[data-seat-id='demo-5']", rename_a_receiver, "Renamed elsewhere"),
        ("alerts", "text=No alert is showing", broadcast_an_alert, "An alert is showing"),
        ("schedule", "#week-title >> text=Week of", schedule_an_event, "Made elsewhere"),
    ],
)
def test_a_view_that_polled_shows_a_change_made_elsewhere(
    page: Any,
    host_url: str,
    api: Api,
    view: str,
    ready: str,
    change: Callable[[Api], Callable[[], None]],
    shown: str,
) -> None:
    asked = open_quietly(page, f"{host_url}/#/{view}")
    page.wait_for_selector(ready)
    assert asked == [], f"an idle console asked the host: {asked}"
    undo = change(api)
    try:
        page.locator("main", has_text=shown).wait_for(timeout=10_000)
    finally:
        undo()
