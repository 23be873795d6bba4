"""Small helpers that build topology over HTTP, as a client would, for tests.

Receivers say hello over a WebSocket; tests that need a station without one run the
host's ``hello`` on the TestClient's event loop through its portal.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from litestar.testing import TestClient

Client = TestClient  # type: ignore[type-arg]


def run(api: Client, fn: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
    """Run a coroutine function of the host on the app's event loop."""

    async def call() -> Any:
        return await fn(*args, **kwargs)

    return api.blocking_portal.call(call)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def error(response: Any, status: int, *words: str) -> str:
    """Assert an error answer of ``status`` whose message mentions every word."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["status"] == status
    message: str = body["message"]
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def station(api: Client, seat_id: str, ip: str = "192.0.2.10") -> None:
    """A receiver has said hello: an available station."""
    run(api, api.app.state.host.stations.hello, seat_id, ip)


def display(api: Client, seat_id: str) -> int:
    """A locked station; its display id."""
    station(api, seat_id)
    body = ok(api.put(f"/network/{seat_id}/lock"))
    assert body["status"] == "CONNECTED", body
    displays = ok(api.get("/displays"))["displays"]
    return int(next(d["displayId"] for d in displays if d["seatId"] == seat_id))


def wall_zone(
    api: Client, zone_name: str, seats: tuple[str, ...] = ("wall-a", "wall-b")
) -> dict[str, Any]:
    """A video wall of the given seats' displays side by side, with one zone of all of them."""
    ids = [display(api, seat) for seat in seats]
    monitors = [
        {
            "displayId": d,
            "monitorGeometry": {
                "width": 1000,
                "height": 600,
                "centerX": 500 + 1000 * i,
                "centerY": 300,
            },
        }
        for i, d in enumerate(ids)
    ]
    wall = ok(api.post("/videowalls", json={"name": f"wall of {zone_name}", "monitors": monitors}))
    zone: dict[str, Any] = ok(
        api.post(
            "/zones",
            json={
                "zoneName": zone_name,
                "videowallId": wall["id"],
                "displayIds": ids,
            },
        )
    )
    return zone


def web_source(api: Client, name: str, url: str = "https://example.org/") -> str:
    body = ok(
        api.post(
            "/sources",
            json={
                "sourceName": name,
                "sourceType": "Web Browser",
                "params": [{"type": "URL", "paramName": "URL", "paramValue": url}],
            },
        )
    )
    return str(body["sourceId"])


def control_source(api: Client, name: str, layouts: list[str]) -> str:
    """A Command and Control source listing ``layouts`` (ids or names)."""
    import json

    body = ok(
        api.post(
            "/sources",
            json={
                "sourceName": name,
                "sourceType": "Command and Control",
                "params": [
                    {
                        "type": "LAYOUT_SELECT",
                        "paramName": "Layouts",
                        "paramValue": json.dumps(layouts),
                    }
                ],
            },
        )
    )
    return str(body["sourceId"])


def reopened_settings(data_dir: Any) -> dict[str, Any]:
    """The settings a host opened afresh on ``data_dir`` finds: what was made durable."""
    import asyncio

    from tilewall.host.host import Host

    async def load() -> dict[str, Any]:
        host = await Host.open(data_dir)
        try:
            return dict(host.core.state.settings)
        finally:
            await host.close()

    return asyncio.run(load())
