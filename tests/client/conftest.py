"""Client tests run the real app in process (Litestar's TestClient is the client's
``http``), seeded with the demo topology: a 2x2 wall "Lobby Wall" with zones "Lobby Top"
and "Lobby Bottom", mirror group "Reception", sources "Welcome Slides", "Demo Clip",
"Project Page" and "Control Room", layouts "Two Up" and "Quad", preset "Demo Start", and
one receiver (demo-7) not locked yet. One app per test module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.support.http import ADMIN, PASSWORD
from tilewall.client import ApiError, Client
from tilewall.host.licence.codes import generate_signing_key, public_key_text
from tilewall.server import make_app

#: the hosts of these tests trust licence codes signed with this key
SIGNING_KEY = generate_signing_key()

#: the groups of a Client
GROUPS = (
    "displays",
    "zones",
    "mirrorgroups",
    "presets",
    "sources",
    "media",
    "network",
    "videowalls",
    "system",
    "failover",
    "printprofiles",
    "serial",
    "controlroom",
    "users",
)

#: "group.method" of every client call that succeeded, across the client tests
CALLED: set[str] = set()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The check of ``CALLED`` (test_every_method.py) runs after every other test."""
    last = [item for item in items if item.path.name == "test_every_method.py"]
    items[:] = [item for item in items if item not in last] + last


def public_methods() -> set[str]:
    """Every operation of the client, as "group.method"."""
    client = Client("http://unused.invalid")
    names = set()
    for group in GROUPS:
        kind = type(getattr(client, group))
        names |= {
            f"{group}.{name}"
            for name in dir(kind)
            if not name.startswith("_") and callable(getattr(kind, name))
        }
    client.close()
    return names


class Recording:
    """A client group that notes each call that succeeds."""

    def __init__(self, name: str, group: Any) -> None:
        self._name = name
        self._group = group

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._group, attr)
        if attr.startswith("_") or not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            result = value(*args, **kwargs)
            CALLED.add(f"{self._name}.{attr}")
            return result

        return call


def recording(client: Client) -> Client:
    for group in GROUPS:
        setattr(client, group, Recording(group, getattr(client, group)))
    return client


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The demo host of this module, behind Litestar's TestClient."""
    from argon2 import PasswordHasher

    from tilewall.host.access import passwords

    cheap = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    data_dir: Path = tmp_path_factory.mktemp("host") / "data"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TILEWALL_ADMIN_USER", ADMIN)
        mp.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
        mp.delenv("TILEWALL_HOST_MANAGEMENT", raising=False)
        mp.setenv("TILEWALL_LICENCE_KEYS", public_key_text(SIGNING_KEY))
        mp.setattr(passwords, "_hasher", cheap)
        with TestClient(
            make_app(data_dir, demo=True), base_url="http://testserver.local/api"
        ) as test_client:
            yield test_client


@pytest.fixture(scope="module")
def client(app: TestClient) -> Client:
    """A client logged in as the admin (on its first call)."""
    return recording(Client(user=ADMIN, password=PASSWORD, http=app))


@pytest.fixture(scope="module")
def anon(app: TestClient) -> Client:
    """A client that never logs in."""
    return Client(http=app)


def refused(call: Callable[[], Any], status: int, *words: str) -> ApiError:
    """``call`` raises ApiError with ``status`` and a message naming ``words``."""
    with pytest.raises(ApiError) as caught:
        call()
    error = caught.value
    assert error.status == status, (error.status, error.message)
    assert error.message, error
    for word in words:
        assert word.casefold() in error.message.casefold(), (word, error.message)
    return error


def by_name(items: list[dict[str, Any]], name: str, field: str = "name") -> dict[str, Any]:
    return next(i for i in items if i[field] == name)
