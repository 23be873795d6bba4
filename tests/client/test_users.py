"""The client's users: an administrator manages them; a viewer's client is refused what
its role does not allow, with the host's 403."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.client.conftest import recording, refused
from tilewall.client import Client
from tilewall.client.users import scope


def test_an_administrator_manages_users(client: Client) -> None:
    made = client.users.create(
        "desk", "desk-password", "operator", scope(zones=["Lobby Top"]), scoped_reads=True
    )
    top = client.zones.get("Lobby Top")["zoneId"]
    assert made["scope"]["zones"] == [top] and made["scopedReads"] is True
    assert "desk" in [u["userName"] for u in client.users.list()]
    assert client.users.get("desk")["role"] == "operator"
    changed = client.users.update("desk", role="viewer", scope=None, scoped_reads=False)
    assert (changed["role"], changed["scope"]) == ("viewer", None)
    assert client.users.update("desk", disabled=True)["disabled"] is True
    client.users.update("desk", disabled=False)
    client.users.set_password("desk", "another-password")
    client.users.delete("desk")
    refused(lambda: client.users.get("desk"), 404, "desk")


def test_a_viewer_changes_its_own_password_and_nothing_else(
    app: TestClient, client: Client
) -> None:
    client.users.create("lobby", "lobby-password", "viewer")
    viewer = recording(Client(user="lobby", password="lobby-password", http=app))
    assert viewer.zones.list()
    refused(lambda: viewer.zones.stop("Lobby Top"), 403, "viewer", "operate")
    refused(lambda: viewer.users.list(), 403, "viewer", "administer")
    viewer.users.set_password("lobby", "lobby-password-2", old_password="lobby-password")
    again = Client(user="lobby", password="lobby-password-2", http=app)
    assert again.zones.list()
    client.users.delete("lobby")
