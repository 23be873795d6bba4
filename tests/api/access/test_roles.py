"""Roles: a viewer reads, an operator also plays, an administrator does everything; a
request outside the role answers 403 naming what is missing and changes nothing (the
whole matrix of operations: test_role_matrix.py)."""

import hashlib
from typing import Any

from tests.support.app import host_of, run
from tests.support.http import ADMIN, PASSWORD, Api, error, login, ok
from tests.support.ports import FailingWrites
from tests.support.sources import create_source
from tests.support.topology import make_wall
from tilewall.host.access.roles import Account, Role, Scope

WALL = {"name": "Lobby", "monitors": []}


def add_user(
    api: Api,
    name: str,
    role: Role,
    password: str = "a-fine-password",
    scope: Scope | None = None,
) -> None:
    run(api, host_of(api).accounts.add_user, name, password, Account("", role, scope))


def as_user(api: Api, name: str, password: str = "a-fine-password") -> str:
    return login(api, user=name, password=password)


def test_the_first_user_is_an_administrator(api: Api) -> None:
    account = host_of(api).accounts.account(ADMIN)
    assert account is not None and account.role is Role.ADMINISTRATOR


def test_a_viewer_reads_and_is_refused_any_change(api: Api) -> None:
    add_user(api, "reception", Role.VIEWER)
    as_user(api, "reception")
    walls = ok(api.get("/videowalls"))
    message = error(api.post("/videowalls", json=WALL), 403, "viewer", "administer")
    assert "licen" not in message.lower()  # not the licence's own 403
    assert ok(api.get("/videowalls")) == walls
    error(api.put("/system/broadcast/start", json=_ALERT), 403, "viewer", "operate")
    assert ok(api.get("/system/broadcast"))["isDisplayed"] is False
    ok(api.delete("/session"))  # everyone may log out


_ALERT: dict[str, Any] = {
    "message": "Fire drill",
    "alertLevel": "RED_LEVEL",
    "lengthMillisec": 60_000,
}


def test_an_operator_plays_but_does_not_configure(api: Api) -> None:
    add_user(api, "desk", Role.OPERATOR)
    as_user(api, "desk")
    ok(api.put("/system/broadcast/start", json=_ALERT))
    assert ok(api.get("/system/broadcast"))["isDisplayed"] is True
    ok(api.put("/system/broadcast/stop"))
    error(api.post("/videowalls", json=WALL), 403, "operator", "administer")
    error(api.put("/system/hostname", json={"hostname": "taken"}), 403, "operator")
    login(api, user=ADMIN, password=PASSWORD)
    assert ok(api.get("/videowalls"))["videowalls"] == []


def test_unknown_operations_answer_404_whatever_the_role(api: Api) -> None:
    add_user(api, "reception", Role.VIEWER)
    as_user(api, "reception")
    error(api.put("/no/such/thing"), 404)


def test_an_operator_with_public_client_habits(api: Api) -> None:
    """A client that logs in before every call and echoes the cookie it was given (with
    others beside it) works within an operator's rights, and is refused the rest."""
    wall = make_wall(api, "Habits wall")
    zone = wall.zone_id("Left")
    source = create_source(api, "Web Browser", "Habits page")["sourceId"]
    add_user(api, "desk", Role.OPERATOR)
    api.forget_session()
    transport = api.transport

    def call(method: str, path: str, **kwargs: Any) -> Any:
        transport.cookies.clear()
        logged_in = transport.post("/session", json={"user": "desk", "password": "a-fine-password"})
        assert logged_in.status_code == 200, logged_in.text
        echoed = logged_in.headers["set-cookie"].split(";")[0]
        headers = {"Cookie": f"theme=dark;  {echoed} ; lang=en"}
        transport.cookies.clear()
        return transport.request(method, path, headers=headers, **kwargs)

    ok(call("GET", "/zones"))
    ok(call("PUT", f"/zones/{zone}/switch", json={"sourceId": source}))
    assert ok(call("GET", f"/zones/{zone}"))["playingSourceId"] == source
    ok(call("PUT", f"/zones/{zone}/stop"))
    ok(call("PUT", "/system/broadcast/start", json=_ALERT))
    ok(call("PUT", "/system/broadcast/stop"))
    error(call("DELETE", f"/zones/{zone}"), 403, "operator")
    assert ok(call("GET", f"/zones/{zone}"))["zoneName"] == "Left"


def test_an_operation_refused_for_the_role_is_in_the_audit_trail(api: Api) -> None:
    add_user(api, "reception", Role.VIEWER)
    as_user(api, "reception")
    error(api.post("/videowalls", json=WALL), 403, "viewer")
    error(api.get("/audit"), 403, "viewer")
    login(api, user=ADMIN, password=PASSWORD)
    entries = ok(api.get("/audit", params={"user": "reception"}))["entries"]
    refused = [e for e in entries if e["outcome"].startswith("refused")]
    assert [e["operation"] for e in refused] == ["GET /api/audit", "POST /api/videowalls"]
    newest = refused[-1]
    assert "not allowed for the role viewer" in newest["outcome"]
    assert newest["changes"] == []
    assert newest["target"]["id"] == "reception"


def test_an_operation_outside_the_scope_is_in_the_audit_trail(api: Api) -> None:
    wall = make_wall(api, "Scoped wall")
    left, right = wall.zone_id("Left"), wall.zone_id("Right")
    source = create_source(api, name="Scoped page")["sourceId"]
    add_user(api, "desk", Role.OPERATOR, scope=Scope.of(zones=[left], sources=[source]))
    session = as_user(api, "desk")
    message = error(api.put(f"/zones/{right}/switch", json={"sourceId": source}), 403, "scope")
    error(api.put("/system/broadcast/start", json=_ALERT), 403, "scope", "every display")
    ok(api.put(f"/zones/{left}/switch", json={"sourceId": source}))
    login(api, user=ADMIN, password=PASSWORD)
    assert ok(api.get(f"/zones/{right}"))["playingSourceId"] != source
    entries = ok(api.get("/audit", params={"user": "desk"}))["entries"]
    assert [e["operation"] for e in entries[:3]] == [
        "PUT /api/zones/{zoneId}/switch",
        "PUT /api/system/broadcast/start",
        "PUT /api/zones/{zoneId}/switch",
    ]
    allowed, alert, switch = entries[:3]
    assert allowed["outcome"] == "ok" and allowed["target"]["id"] == left
    assert switch["outcome"] == f"refused: {message}"
    assert "outside the scope of 'desk'" in switch["outcome"]
    assert switch["target"] == {"kind": "zone", "id": right, "name": "Right"}
    assert switch["changes"] == []
    assert switch["address"] == "testclient"
    assert switch["session"] == hashlib.sha256(session.encode()).hexdigest()[:12]
    assert alert["target"] == {"kind": "display", "id": "*", "name": "every display"}
    assert "a broadcast alert reaches every display" in alert["outcome"]


def test_a_scope_refusal_the_store_cannot_record_answers_503(api: Api) -> None:
    wall = make_wall(api, "Scoped wall")
    left, right = wall.zone_id("Left"), wall.zone_id("Right")
    add_user(api, "desk", Role.OPERATOR, scope=Scope.of(zones=[left]))
    accounts = host_of(api).accounts
    failing = FailingWrites(accounts._store)
    as_user(api, "desk")
    accounts._store = failing
    failing.failing = True
    try:
        error(api.put(f"/zones/{right}/stop"), 503, "cannot write")
    finally:
        accounts._store = failing.real
    error(api.put(f"/zones/{right}/stop"), 403, "scope")


def test_changes_of_users_are_in_the_audit_trail_without_passwords(api: Api) -> None:
    add_user(api, "desk", Role.OPERATOR)
    ok(api.put("/users/desk", json={"role": "viewer", "disabled": True}))
    ok(api.put("/users/desk/password", json={"password": "a-new-password"}))
    entries = ok(api.get("/audit", params={"target": "desk"}))["entries"]
    changed = [e for e in entries if e["operation"] == "PUT /api/users/{userName}"]
    assert changed[0]["user"] == ADMIN
    assert changed[0]["changes"][0]["changed"] == {
        "disabled": {"before": False, "after": True},
        "role": {"before": "operator", "after": "viewer"},
    }
    reset = next(e for e in entries if e["operation"] == "PUT /api/users/{userName}/password")
    assert reset["changes"][0]["changed"] == {
        "password": {"before": "(redacted)", "after": "(redacted)"}
    }
    assert "a-new-password" not in str(entries) and "argon2" not in str(entries)
