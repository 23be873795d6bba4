"""The console follows the host by its push (GET /api/console/events), not by polling:
idle, it sends the host no request; a change made through the interface shows at once."""

from typing import Any

from tests.support.http import Api
from tests.support.topology import source_id

IDLE_MS = 6000


def test_an_idle_console_asks_nothing_and_shows_a_change_made_elsewhere(
    page: Any, host_url: str, api: Api
) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.goto(f"{host_url}/#/overview")
    page.wait_for_selector(".display-row .tile")
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
    page.wait_for_timeout(IDLE_MS)
    assert asked == [], f"an idle console asked the host: {asked}"

    group = api.get("/mirrorgroups").json()["mirrorgroups"][0]
    playing = api.get(f"/mirrorgroups/{group['id']}").json()["playingSourceId"]
    name = next(n for n in ("Demo Clip", "Welcome Slides") if source_id(api, n) != playing)
    answer = api.put(f"/mirrorgroups/{group['id']}/play", json={"sourceId": source_id(api, name)})
    assert answer.status_code == 200, answer.text
    page.locator(".display-row .tile .tile-caption", has_text=name).first.wait_for(timeout=3000)
    assert any(u.endswith("/api/mirrorgroups") for u in asked), "the console read again"
