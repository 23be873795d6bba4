"""POST /session and DELETE /session, the cookie, expiry and bounds (login throttling: tests/system/test_login_throttle.py)."""

import time
from pathlib import Path

from tests.support.app import app_client, host_of, run
from tests.support.http import ADMIN, PASSWORD, error, login, ok

CREDENTIALS = {"user": ADMIN, "password": PASSWORD}


def test_login_answers_session_object(anon):
    response = anon.post("/session", json=CREDENTIALS)
    body = ok(response)
    assert set(body) == {"session"}
    session = body["session"]
    assert session["name"] == "JSESSIONID"
    assert session["version"] == "1.9"
    assert isinstance(session["value"], str)
    assert len(session["value"]) >= 32


def test_login_sets_cookie_for_browsers(anon):
    response = anon.post("/session", json=CREDENTIALS)
    token = ok(response)["session"]["value"]
    cookies = response.headers.get_list("set-cookie")
    assert len(cookies) == 1, cookies
    header = cookies[0]
    first, *attributes = [part.strip() for part in header.split(";")]
    assert first == f"JSESSIONID={token}"
    lowered = [a.lower() for a in attributes]
    assert "path=/" in lowered
    assert "httponly" in lowered
    assert "samesite=lax" in lowered


def test_cookie_from_login_response_is_enough(anon):
    """A browser-like client keeps the Set-Cookie and needs nothing else."""
    ok(anon.post("/session", json=CREDENTIALS))
    ok(anon.get("/sources"))


def test_bad_password_401(anon):
    response = anon.post("/session", json={"user": ADMIN, "password": "wrong password"})
    error(response, 401)
    assert "set-cookie" not in response.headers


def test_unknown_user_401(anon):
    error(anon.post("/session", json={"user": "nobody", "password": PASSWORD}), 401)


def test_login_body_without_content_type(anon):
    """Sloppy clients post JSON without a Content-Type header."""
    response = anon.post(
        "/session",
        content=b'{"user": "%s", "password": "%s"}' % (ADMIN.encode(), PASSWORD.encode()),
    )
    assert "content-type" not in {k.lower() for k in response.request.headers}
    assert ok(response)["session"]["value"]


def test_login_malformed_body_400(anon):
    error(
        anon.post("/session", content=b"{user", headers={"content-type": "application/json"}), 400
    )


def test_keep_logged_in_query_accepted(anon):
    response = anon.post("/session", params={"keepLoggedIn": "true"}, json=CREDENTIALS)
    assert ok(response)["session"]["value"]


def test_cookie_header_with_other_cookies_and_attributes(anon):
    token = login(anon)
    anon.forget_session()
    response = anon.get("/sources", headers={"cookie": f"a=b; JSESSIONID={token}; Path=/"})
    assert ok(response) == {"sources": []}


def test_cookie_header_with_spaces_and_quotes(anon):
    token = login(anon)
    anon.forget_session()
    ok(anon.get("/sources", headers={"cookie": f'theme=dark;JSESSIONID = "{token}" ; lang=en'}))


def test_bogus_cookie_401(anon):
    login(anon)
    anon.forget_session()
    error(anon.get("/sources", headers={"cookie": "JSESSIONID=not-a-session"}), 401)


def test_logout_then_401(api):
    ok(api.get("/sources"))
    ok(api.delete("/session"))
    error(api.get("/sources"), 401)
    error(api.delete("/session"), 401)


def test_logout_ends_only_that_session(anon):
    first = login(anon)
    second = login(anon)
    anon.forget_session()
    ok(anon.delete("/session", headers={"cookie": f"JSESSIONID={first}"}))
    error(anon.get("/sources", headers={"cookie": f"JSESSIONID={first}"}), 401)
    ok(anon.get("/sources", headers={"cookie": f"JSESSIONID={second}"}))


def test_session_ids_unique_and_long(anon):
    tokens = {login(anon) for _ in range(5)}
    assert len(tokens) == 5
    assert all(len(t) >= 32 for t in tokens)


def test_idle_expiry_and_keep_logged_in(data_dir: Path):
    with app_client(data_dir, session=False, session_idle_seconds=1.0) as client:
        short = login(client)
        kept = login(client, keep=True)
        client.forget_session()
        ok(client.get("/sources", headers={"cookie": f"JSESSIONID={short}"}))
        time.sleep(1.5)
        error(client.get("/sources", headers={"cookie": f"JSESSIONID={short}"}), 401)
        ok(client.get("/sources", headers={"cookie": f"JSESSIONID={kept}"}))


def test_activity_keeps_an_idle_session_alive(data_dir: Path):
    with app_client(data_dir, session=False, session_idle_seconds=0.6) as client:
        token = login(client)
        client.forget_session()
        for _ in range(4):
            time.sleep(0.3)
            ok(client.get("/sources", headers={"cookie": f"JSESSIONID={token}"}))


def test_many_logins_stay_bounded(anon):
    """Sessions nobody ends are bounded; the newest ones still work."""
    accounts = host_of(anon).accounts
    accounts.max_sessions = 200

    async def open_many(count: int) -> list[str]:
        return [await accounts.open_session(ADMIN, False) for _ in range(count)]

    tokens = run(anon, open_many, 600)
    assert accounts.session_count <= 200
    # the newest, and new logins over HTTP, still work
    newest = [*tokens[-5:], login(anon), login(anon)]
    anon.forget_session()
    for token in newest:
        ok(anon.get("/sources", headers={"cookie": f"JSESSIONID={token}"}))
    assert accounts.session_count <= 200
    # the oldest were evicted
    error(anon.get("/sources", headers={"cookie": f"JSESSIONID={tokens[0]}"}), 401)
