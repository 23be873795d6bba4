"""The failover operations through the client, on a real group: two hosts (in process)
on one PostgreSQL database, each naming the other."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tests.client.conftest import recording, refused
from tests.support.http import ADMIN, PASSWORD
from tilewall.client import Client
from tilewall.server import make_app

FIRST, SECOND = "http://127.0.0.1:19001", "http://127.0.0.1:19002"


@pytest.fixture
def pair(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Client, Client]]:
    """The active host and a standby, both logged in (the standby with the active one's
    session: its own login would be forwarded to an address nothing listens on)."""
    monkeypatch.setenv("TILEWALL_ADMIN_USER", ADMIN)
    monkeypatch.setenv("TILEWALL_ADMIN_PASSWORD", PASSWORD)
    apps = [
        make_app(tmp_path / name, database=postgres_url, address=address)
        for name, address in (("first", FIRST), ("second", SECOND))
    ]
    with (
        TestClient(apps[0], base_url="http://first/api") as one,
        TestClient(apps[1], base_url="http://second/api") as two,
    ):
        first = recording(Client(user=ADMIN, password=PASSWORD, http=one))
        first.system.info()
        second = recording(Client(http=two, session=first.transport.token))
        deadline = time.monotonic() + 5
        while True:  # the standby follows the session within a second
            try:
                second.system.info()
                break
            except Exception:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        yield first, second


def test_a_group_through_the_client(pair: tuple[Client, Client]) -> None:
    first, second = pair
    ids = {c: c.system.info()["licenseSystemId"] for c in (first, second)}
    systems = {"first": ids[first], "second": ids[second]}
    for client in (first, second):
        joined = client.failover.join_v1("atrium", systems, autofailback=True)
        assert joined["groupname"] == "atrium"
    assert [s["isLocalHost"] for s in second.failover.get_v1()["systems"]] == [False, True]
    assert first.system.mapping_data_version() == second.system.mapping_data_version() != "-1"
    refused(lambda: first.failover.join_v2("atrium", "127.0.0.1:19002", "pw"), 409, "already")
    assert first.failover.leave_v1()["message"] and second.failover.leave_v1()["message"]
    refused(first.failover.get_v1, 404)

    group = first.failover.join_v2("lobby", "127.0.0.1:19002", "s3cret", primary=True)
    assert group["password"] == "" and group["primary"] is True
    second.failover.join_v2("lobby", "127.0.0.1:19001", "s3cret")
    assert second.failover.get_v2()["peerIP"] == "127.0.0.1:19001"
    refused(lambda: first.failover.join_v1("g", {"x": "SYS-ELSEWHERE"}), 409, "already")
    assert first.failover.leave_v2()["message"]
    refused(lambda: first.failover.join_v2("g", "192.0.2.20", "pw"), 409, "share one database")
    refused(first.failover.leave_v2, 404)
