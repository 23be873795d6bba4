"""Roles in a group of hosts: a write sent to the standby is forwarded to the active host
and held to the same role there (a viewer refused, 403, nothing changed; an operator
allowed through either member); the audit entry of a forwarded write names the client's
address, which the active host takes from a member only (a client's own
X-Forwarded-For, or a forged proof, is ignored)."""

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.cluster import Cluster, Host, wait_for, web_source
from tests.support.http import ADMIN, PASSWORD

#: the test's clients connect from here; the members talk to each other from 127.0.0.1
CLIENT = "127.0.0.2"
ALERT = {"message": "Fire drill", "alertLevel": "RED_LEVEL", "lengthMillisec": 60_000}


@pytest.fixture
def clients() -> Iterator[list[httpx.Client]]:
    made: list[httpx.Client] = []
    yield made
    for client in made:
        client.close()


def logged_in(
    clients: list[httpx.Client], host: Host, user: str, password: str, token: str = ""
) -> httpx.Client:
    """A client of ``host`` from :data:`CLIENT`, logged in as ``user`` (or carrying the
    session ``token``, a session of the group's)."""
    transport = httpx.HTTPTransport(local_address=CLIENT)
    client = httpx.Client(base_url=host.base, timeout=10, transport=transport)
    clients.append(client)
    if not token:
        answer = client.post("/session", json={"user": user, "password": password})
        assert answer.status_code == 200, answer.text
        token = answer.json()["session"]["value"]
    client.cookies.clear()
    client.cookies.set("JSESSIONID", token)
    return client


def add_user(active: Host, name: str, role: str) -> None:
    body = {"userName": name, "password": f"{name}-password", "role": role}
    made = active.api.post("/users", json=body)
    assert made.status_code in (200, 201), made.text


def newest(active: Host, **params: Any) -> dict[str, Any]:
    answer = active.api.get("/audit", params={**params, "limit": 1})
    assert answer.status_code == 200, answer.text
    entries: list[dict[str, Any]] = answer.json()["entries"]
    assert entries, params
    return entries[0]


@pytest.mark.timeout(180)
def test_roles_hold_through_either_member(cluster: Cluster, clients: list[httpx.Client]) -> None:
    active, standby = cluster.start("active", "standby")
    assert standby.role() == "standby"
    add_user(active, "reception", "viewer")
    add_user(active, "desk", "operator")

    # a viewer, logged in through the standby (a forwarded write): refused either way
    viewer = logged_in(clients, standby, "reception", "reception-password")
    viewer_on_active = logged_in(clients, active, "", "", viewer.cookies["JSESSIONID"])
    walls = active.api.get("/videowalls").json()
    for client in (viewer, viewer_on_active):
        refused = client.post("/videowalls", json={"name": "Lobby", "monitors": []})
        assert refused.status_code == 403, refused.text
        assert "viewer" in refused.json()["message"]
        assert client.get("/videowalls").json() == walls
    assert active.api.get("/videowalls").json() == walls
    refusal = newest(active, user="reception")
    assert refusal["operation"] == "POST /api/videowalls"
    assert refusal["outcome"].startswith("refused: not allowed for the role viewer")

    # an operator plays through either member
    desk = logged_in(clients, standby, "desk", "desk-password")
    desk_on_active = logged_in(clients, active, "", "", desk.cookies["JSESSIONID"])
    started = desk.put("/system/broadcast/start", json=ALERT)
    assert started.status_code == 200, started.text
    assert desk.get("/system/broadcast").json()["isDisplayed"] is True  # read your write
    stopped = desk_on_active.put("/system/broadcast/stop")
    assert stopped.status_code == 200, stopped.text
    wait_for(lambda: standby.api.get("/system/broadcast").json()["isDisplayed"] is False)
    # and is refused configuration on both
    for client in (desk, desk_on_active):
        refused = client.post("/sources", json=web_source("not for operators"))
        assert refused.status_code == 403, refused.text
    assert "not for operators" not in active.source_names()


@pytest.mark.timeout(180)
def test_a_forwarded_write_is_recorded_with_the_clients_address(
    cluster: Cluster, clients: list[httpx.Client]
) -> None:
    active, standby = cluster.start("active", "standby")
    member_id = standby.group()["memberId"]  # the test's own sessions are made first
    active.api  # noqa: B018
    spoofed = {"X-Forwarded-For": "10.6.6.6"}

    # through the standby: the login and the write are the client's, not the standby's
    via_standby = logged_in(clients, standby, ADMIN, PASSWORD)
    login = newest(active, operation="POST /api/session")
    assert (login["user"], login["address"]) == (ADMIN, CLIENT)
    made = via_standby.post("/sources", json=web_source("via standby"), headers=spoofed)
    assert made.status_code == 200, made.text
    entry = newest(active, operation="POST /api/sources")
    assert entry["target"]["name"] == "via standby"
    assert entry["address"] == CLIENT  # the member's word, not the client's header

    # straight to the active host: a client's X-Forwarded-For, and the members' own
    # headers with a proof it cannot make, are ignored
    direct = logged_in(clients, active, "", "", via_standby.cookies["JSESSIONID"])
    forged = {
        **spoofed,
        "X-Tilewall-Forwarded-By": member_id,
        "X-Tilewall-Forwarded-Proof": f"{int(time.time() * 1000)}.{'0' * 64}",
    }
    for name, headers in (("spoofed", spoofed), ("forged", forged)):
        made = direct.post("/sources", json=web_source(name), headers=headers)
        assert made.status_code == 200, made.text
        entry = newest(active, operation="POST /api/sources")
        assert (entry["target"]["name"], entry["address"]) == (name, CLIENT)
