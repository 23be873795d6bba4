"""/api/users: administrators list, create, change, reset and delete users; a user
changes their own password with the old one; the last administrator stays; sessions of
a user whose role changes or who is disabled end at once."""

from typing import Any

from tests.support.http import ADMIN, PASSWORD, Api, error, login, ok
from tests.support.topology import make_wall

PW = "a-fine-password"


def create(api: Api, name: str, role: str, **extra: Any) -> dict[str, Any]:
    return ok(api.post("/users", json={"userName": name, "password": PW, "role": role, **extra}))


def session_of(api: Api, name: str, password: str = PW) -> str:
    token = login(api, user=name, password=password)
    login(api)  # back to the administrator
    return token


def answers(api: Api, token: str, path: str = "/zones") -> int:
    """The status ``path`` answers the session ``token``; the client's own session is kept."""
    own = api.session
    api.use_session(token)
    try:
        return int(api.get(path).status_code)
    finally:
        assert own is not None
        api.use_session(own)


def test_create_list_read_update_delete(api: Api) -> None:
    created = create(api, "desk", "operator")
    assert created == {
        "userName": "desk",
        "role": "operator",
        "scope": None,
        "scopedReads": False,
        "disabled": False,
    }
    listed = ok(api.get("/users"))["users"]
    assert [u["userName"] for u in listed] == [ADMIN, "desk"]
    assert listed[0]["role"] == "administrator"
    assert ok(api.get("/users/desk")) == created
    changed = ok(api.put("/users/desk", json={"role": "viewer"}))
    assert changed["role"] == "viewer" and changed["disabled"] is False
    ok(api.delete("/users/desk"))
    error(api.get("/users/desk"), 404, "desk")
    assert [u["userName"] for u in ok(api.get("/users"))["users"]] == [ADMIN]


def test_the_new_user_logs_in_with_the_interfaces_own_session(api: Api) -> None:
    create(api, "reception", "viewer")
    token = session_of(api, "reception")
    assert answers(api, token) == 200
    assert answers(api, token, "/users") == 403


def test_bad_input_is_refused_and_nothing_is_created(api: Api) -> None:
    body = {"userName": "x", "password": PW, "role": "operator"}
    error(api.post("/users", json={**body, "role": "superuser"}), 400, "role")
    error(api.post("/users", json={**body, "password": "short"}), 400, "password")
    error(api.post("/users", json={**body, "userName": ""}), 400, "userName")
    error(api.post("/users", json={**body, "extra": 1}), 400, "extra")
    error(api.post("/users", json={**body, "role": "viewer", "scope": {}}), 400, "operator")
    error(api.post("/users", json={**body, "scope": {"zones": ["no such zone"]}}), 400, "zone")
    error(api.post("/users", json={**body, "scope": {"displays": [999]}}), 400, "display")
    assert [u["userName"] for u in ok(api.get("/users"))["users"]] == [ADMIN]
    create(api, "x", "operator")
    error(api.post("/users", json=body), 409, "exists")
    error(api.put("/users/nobody", json={"role": "viewer"}), 404, "nobody")
    error(api.delete("/users/nobody"), 404, "nobody")


def test_scope_names_are_resolved_to_ids_when_set(api: Api) -> None:
    wall = make_wall(api, "Scoped wall")
    left = wall.zones["Left"]
    scope = {"walls": ["Scoped wall"], "zones": ["Left", wall.zone_id("Right")]}
    created = create(api, "desk", "operator", scope=scope, scopedReads=True)
    assert created["scope"] == {
        "walls": [wall.id],
        "zones": sorted([left["zoneId"], wall.zone_id("Right")]),
        "mirrorGroups": [],
        "displays": [],
        "sources": [],
    }
    assert created["scopedReads"] is True
    unlimited = ok(api.put("/users/desk", json={"scope": None}))
    assert unlimited["scope"] is None
    error(api.put("/users/desk", json={"role": "administrator", "scope": scope}), 400, "operator")
    assert ok(api.get("/users/desk"))["role"] == "operator"


def test_the_last_administrator_stays_one(api: Api) -> None:
    error(api.put(f"/users/{ADMIN}", json={"role": "operator"}), 409, "last administrator")
    error(api.put(f"/users/{ADMIN}", json={"disabled": True}), 409, "last administrator")
    error(api.delete(f"/users/{ADMIN}"), 409, "last administrator")
    create(api, "second", "administrator")
    ok(api.put(f"/users/{ADMIN}", json={"role": "operator"}))
    login(api, user="second", password=PW)
    error(api.delete("/users/second"), 409, "last administrator")
    ok(api.delete(f"/users/{ADMIN}"))


def test_sessions_end_when_the_role_changes_or_the_user_is_disabled(api: Api) -> None:
    create(api, "desk", "operator")
    token = session_of(api, "desk")
    ok(api.put("/users/desk", json={"scopedReads": False}))  # no change of role
    assert answers(api, token) == 200
    ok(api.put("/users/desk", json={"role": "viewer"}))
    assert answers(api, token) == 401
    token = session_of(api, "desk")
    ok(api.put("/users/desk", json={"disabled": True}))
    assert answers(api, token) == 401
    refused = api.post("/session", json={"user": "desk", "password": PW})
    error(refused, 401)
    login(api)
    ok(api.put("/users/desk", json={"disabled": False}))
    assert answers(api, session_of(api, "desk")) == 200


def test_a_user_changes_their_own_password_with_the_old_one(api: Api) -> None:
    create(api, "reception", "viewer")
    create(api, "other", "viewer")
    login(api, user="reception", password=PW)
    error(api.put("/users/reception/password", json={"password": "new-password"}), 400, "old")
    wrong = {"password": "new-password", "oldPassword": "not-it-at-all"}
    error(api.put("/users/reception/password", json=wrong), 400, "old password")
    error(api.put("/users/other/password", json={"password": "x" * 9}), 403, "administrator")
    ok(api.put("/users/reception/password", json={"password": "new-password", "oldPassword": PW}))
    error(api.post("/session", json={"user": "reception", "password": PW}), 401)
    login(api, user="reception", password="new-password")


def test_an_administrator_resets_a_password_and_the_sessions_end(api: Api) -> None:
    create(api, "desk", "operator")
    token = session_of(api, "desk")
    ok(api.put("/users/desk/password", json={"password": "reset-password"}))
    assert answers(api, token) == 401
    login(api, user="desk", password="reset-password")
    login(api, user=ADMIN, password=PASSWORD)


def test_the_users_operations_are_documented(api: Api) -> None:
    document = ok(api.get("/openapi.json"))
    paths = document["paths"]
    assert set(paths["/api/users"]) >= {"get", "post"}
    assert set(paths["/api/users/{userName}"]) >= {"get", "put", "delete"}
    assert "put" in paths["/api/users/{userName}/password"]
    create_op = paths["/api/users"]["post"]
    assert create_op["x-tilewall-extension"] is True
    schemas = document["components"]["schemas"]
    user_in = next(s for name, s in schemas.items() if name.endswith("UserIn"))
    assert set(user_in["properties"]) == {"userName", "password", "role", "scope", "scopedReads"}
    assert set(user_in["required"]) == {"userName", "password", "role"}


def test_lists_show_an_operator_only_its_scope_when_set_so(api: Api) -> None:
    wall = make_wall(api, "Scoped wall")
    left = wall.zones["Left"]
    scope = {"zones": ["Left"]}
    create(api, "desk", "operator", scope=scope)
    create(api, "narrow", "operator", scope=scope, scopedReads=True)
    everything = {path: ok(api.get(path)) for path in ("/zones", "/videowalls", "/displays")}
    login(api, user="desk", password=PW)
    for path, answer in everything.items():  # reads are not secret
        assert ok(api.get(path)) == answer
    login(api, user="narrow", password=PW)
    assert [z["zoneId"] for z in ok(api.get("/zones"))["zones"]] == [left["zoneId"]]
    by_wall = ok(api.get(f"/zones/byvideowallid/{wall.id}"))["zones"]
    assert [z["zoneId"] for z in by_wall] == [left["zoneId"]]
    assert ok(api.get("/videowalls"))["videowalls"] == []
    shown = {d["displayId"] for d in ok(api.get("/displays"))["displays"]}
    assert shown == {d["displayId"] for d in left["zoneDisplays"] if d["isSelected"]}
    assert ok(api.get("/sources"))["sources"] == []
    # one object is read by its id whatever the scope
    ok(api.get(f"/zones/{wall.zone_id('Right')}"))


def test_the_session_says_who_is_logged_in(api: Api) -> None:
    assert ok(api.get("/session"))["role"] == "administrator"
    create(api, "desk", "operator", scope={"zones": []}, scopedReads=True)
    login(api, user="desk", password=PW)
    me = ok(api.get("/session"))
    assert (me["userName"], me["role"], me["scopedReads"]) == ("desk", "operator", True)
    assert me["scope"]["zones"] == []
