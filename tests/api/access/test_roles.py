"""Roles: a viewer reads, an operator also plays, an administrator does everything; a
request outside the role answers 403 naming what is missing and changes nothing (the
whole matrix of operations: test_role_matrix.py)."""

from typing import Any

from tests.support.app import host_of, run
from tests.support.http import ADMIN, PASSWORD, Api, error, login, ok
from tests.support.sources import create_source
from tests.support.topology import make_wall
from tilewall.host.access.roles import Account, Role

WALL = {"name": "Lobby", "monitors": []}


def add_user(api: Api, name: str, role: Role, password: str = "a-fine-password") -> None:
    run(api, host_of(api).accounts.add_user, name, password, Account("", role))


def as_user(api: Api, name: str, password: str = "a-fine-password") -> None:
    login(api, user=name, password=password)


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
