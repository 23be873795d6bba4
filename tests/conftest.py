"""Shared fixtures: an app on a fresh data directory, driven over HTTP as clients do."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tilewall.host.system import accounts
from tilewall.server import make_app

ADMIN = "admin"
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def fast_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 with its production cost takes about half a second per login on a busy
    machine; tests only need it to be argon2, so they use the cheapest parameters."""
    from argon2 import PasswordHasher

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    monkeypatch.setattr(accounts, "_hasher", cheap)
    monkeypatch.setattr(accounts, "_DUMMY_HASH", cheap.hash("not a password of anyone"))


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TILEWALL_ADMIN_USER", ADMIN)
    monkeypatch.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
    # tests never act on the machine, and trust only the keys they make
    monkeypatch.delenv("TILEWALL_HOST_MANAGEMENT", raising=False)
    monkeypatch.delenv("TILEWALL_LICENCE_KEYS", raising=False)
    return tmp_path / "data"


@pytest.fixture
def anon(data_dir: Path) -> Iterator[TestClient]:  # type: ignore[type-arg]
    """A client without a session."""
    with TestClient(make_app(data_dir), base_url="http://testserver.local/api") as client:
        yield client


def login(client: TestClient, keep: bool = False) -> str:  # type: ignore[type-arg]
    response = client.post(
        "/session", params={"keepLoggedIn": keep}, json={"user": ADMIN, "password": PASSWORD}
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["session"]["value"]
    return token


@pytest.fixture
def api(anon: TestClient) -> TestClient:  # type: ignore[type-arg]
    """A logged-in client."""
    token = login(anon)
    anon.cookies.set("JSESSIONID", token)
    return anon


@pytest.fixture
def host(api: TestClient):  # type: ignore[no-untyped-def,type-arg]
    return api.app.state.host
