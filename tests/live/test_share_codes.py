"""Guests sharing a screen with the code a display shows: shown on demand or always on a
display in presentation mode, good for that display only and only while shown, used up
by the share it starts, and wrong codes refused, then the address held off (429).
A real host; the guest's frames come from tests.support.sharer (PyAV's libx264)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.http import error
from tests.support.server import InProcessServer, running
from tests.support.sharer import Sharer, new_display, playing
from tests.support.waiting import wait_until

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    for server in running(tmp_path_factory, "share-codes", in_process=True):
        assert isinstance(server, InProcessServer)
        yield server


@pytest.fixture
def guest(host: Any) -> Iterator[httpx.Client]:
    """A client of the interface without a session."""
    with httpx.Client(base_url=host.base) as client:
        yield client


def _overlay(host: Any, display_id: int) -> Any:
    return host.ok("GET", f"/displays/{display_id}/render")["overlays"].get("shareCode")


def _codes(host: Any) -> dict[int, dict[str, Any]]:
    return {c["displayId"]: c for c in host.ok("GET", "/shares/codes")["codes"]}


def test_a_code_shown_on_demand_lets_a_guest_share_to_that_display_only(
    host: Any, guest: httpx.Client
) -> None:
    shown, other = new_display(host), new_display(host)
    assert _overlay(host, shown) is None
    code = host.ok("PUT", f"/shares/codes/{shown}", json={"minutes": 5})
    assert code["displayId"] == shown and len(code["code"]) == 6 and code["code"].isdigit()
    assert code["until"] is not None and code["presentation"] is False
    overlay = _overlay(host, shown)
    assert overlay["code"] == code["code"] and overlay["untilMs"] > 0
    assert _codes(host)[shown]["code"] == code["code"]

    sharer = Sharer(host.url)
    error(sharer.start(guest, "display", str(other), code=code["code"]), 403, "not the code")
    error(sharer.start(guest, "zone", "x", code=code["code"]), 400, "a display only")
    error(sharer.start(guest, "display", str(shown)), 401, "code")
    started = sharer.start(guest, "display", str(shown), code=code["code"], name="Anna")
    assert started.status_code == 201, started.text
    assert sharer.share["sharedBy"] == "Anna (guest)" and sharer.share["guest"] is True
    assert sharer.share["targetName"] == f"display {shown}"
    # used up: the display shows it no more, and it starts nothing else
    assert _overlay(host, shown) is None and _codes(host).get(shown) is None
    again = Sharer(host.url)
    error(again.start(guest, "display", str(shown), code=code["code"]), 403)
    host.ok("DELETE", f"/shares/{sharer.source_id}")


async def test_a_presentation_display_always_shows_a_code_but_not_over_a_share(
    host: Any, guest: httpx.Client
) -> None:
    display = new_display(host)
    first = host.ok("PUT", f"/shares/presentation/{display}", json={"presentation": True})
    assert first["presentation"] is True and first["until"] is None and first["code"]
    assert _overlay(host, display) == {"code": first["code"], "untilMs": 0}
    sharer = Sharer(host.url)
    # no target: the display showing the code
    assert sharer.start(guest, None, "", code=first["code"]).status_code == 201
    assert sharer.share["targetName"] == f"display {display}"
    await sharer.connect()
    await sharer.send(10)
    assert playing(host, display) == sharer.source_id
    assert _overlay(host, display) is None  # the share covers it
    covered = _codes(host)[display]
    assert covered["code"] is None and covered["presentation"] is True
    await sharer.close()
    wait_until(lambda: _overlay(host, display) is not None, 10, what="the code back")
    second = _overlay(host, display)["code"]
    assert second != first["code"]  # the one used is gone
    host.ok("PUT", f"/shares/presentation/{display}", json={"presentation": False})
    assert _overlay(host, display) is None


async def test_a_guests_share_is_recorded_as_a_guest_with_the_code_display_and_address(
    host: Any, guest: httpx.Client
) -> None:
    display = new_display(host)
    code = host.ok("PUT", f"/shares/codes/{display}", json={"minutes": 5})["code"]
    sharer = Sharer(host.url)
    started = sharer.start(guest, "display", str(display), code=code, name="admin")
    assert started.status_code == 201, started.text
    await sharer.connect()
    await sharer.send(10)
    assert playing(host, display) == sharer.source_id
    await sharer.close()
    wait_until(lambda: playing(host, display) != sharer.source_id, 10, what="the share ended")
    entries = host.ok("GET", "/audit", params={"limit": 1000})["entries"]
    of_share = [e for e in entries if sharer.source_id in str(e["changes"])]
    # newest first: started (its source made, the code used up), shown, ended
    assert [e["operation"] for e in of_share] == ["share: end", "share: show", "POST /api/shares"]
    for entry in of_share:
        assert entry["user"] == "guest"  # never the name the guest gave
        assert entry["address"] == "127.0.0.1"
        assert entry["session"] == f"display {display}"
        assert entry["outcome"] == "ok"
    made = of_share[-1]
    assert made["target"] == {
        "kind": "source",
        "id": sharer.source_id,
        "name": "Screen of admin (guest)",
    }
    assert {c["kind"] for c in made["changes"]} >= {"source"}
    shown = of_share[1]
    assert shown["target"]["kind"] == "display" and shown["target"]["id"] == str(display)


def test_showing_and_hiding_codes_checks_thenew_display(host: Any) -> None:
    error(host.call("PUT", "/shares/codes/99999"), 404, "display")
    error(host.call("PUT", f"/shares/codes/{new_display(host)}", json={"minutes": 0}), 400)
    error(host.call("PUT", "/shares/presentation/99999", json={"presentation": True}), 404)
    display = new_display(host)
    host.ok("PUT", f"/shares/codes/{display}")
    host.ok("DELETE", f"/shares/codes/{display}")
    assert _overlay(host, display) is None


def test_wrong_codes_are_refused_then_the_address_is_held_off(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    for server in running(tmp_path_factory, "share-guess", in_process=True):
        display = new_display(server)
        code = server.ok("PUT", f"/shares/codes/{display}")["code"]
        wrong = f"{(int(code) + 1) % 1_000_000:06d}"
        with httpx.Client(base_url=server.base) as guest:
            sharer = Sharer(server.url)
            for _ in range(5):
                error(sharer.start(guest, "display", str(display), code=wrong), 403)
            held = sharer.start(guest, "display", str(display), code=code)
            error(held, 429, "too many wrong share codes")
            assert int(held.headers["Retry-After"]) > 0
        assert server.ok("GET", "/shares")["shares"] == []
