"""tilewall users ...: an administrator manages the host's users from the command line;
a user changes their own password; an operator is refused what its role does not allow."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.http import ADMIN, PASSWORD
from tests.support.server import ServerProcess, running
from tilewall.cli import main
from tilewall.client import Client

CONNECTION = ("TILEWALL_URL", "TILEWALL_USER", "TILEWALL_PASSWORD")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "cli-users", demo=True)


def run(server: ServerProcess, *args: str, user: str = ADMIN, password: str = PASSWORD) -> Any:
    env = {**dict.fromkeys(CONNECTION), "TILEWALL_URL": server.url}
    env |= {"TILEWALL_USER": user, "TILEWALL_PASSWORD": password}
    return CliRunner().invoke(main, list(args), env=env)


def test_users_add_list_set_passwd_delete(server: ServerProcess) -> None:
    added = run(
        server,
        "users",
        "add",
        "desk",
        "--role",
        "operator",
        "--zone",
        "Lobby Top",
        "--new-password",
        "desk-password",
    )
    assert added.exit_code == 0, added.output
    listed = run(server, "users", "list", "--json")
    users = {u["userName"]: u for u in json.loads(listed.stdout)["users"]}
    assert users["desk"]["role"] == "operator"
    with Client(server.url, ADMIN, PASSWORD) as host:
        top = host.zones.get("Lobby Top")["zoneId"]
    assert users["desk"]["scope"]["zones"] == [top]
    table = run(server, "users", "list")
    assert "desk" in table.stdout and "zones" in table.stdout

    # the operator works within its scope, and is refused the rest
    switched = run(server, "zones", "stop", "Lobby Top", user="desk", password="desk-password")
    assert switched.exit_code == 0, switched.output
    other = run(server, "zones", "stop", "Lobby Bottom", user="desk", password="desk-password")
    assert other.exit_code == 1
    assert "outside the scope" in other.stderr
    refused = run(server, "users", "list", user="desk", password="desk-password")
    assert refused.exit_code == 1 and "not allowed for the role operator" in refused.stderr

    own = run(
        server,
        "users",
        "passwd",
        "--old-password",
        "desk-password",
        "--new-password",
        "desk-password-2",
        user="desk",
        password="desk-password",
    )
    assert own.exit_code == 0, own.output
    changed = run(server, "users", "set", "desk", "--role", "viewer", "--unlimited")
    assert changed.exit_code == 0, changed.output
    assert json.loads(run(server, "users", "show", "desk", "--json").stdout)["scope"] is None
    reset = run(server, "users", "passwd", "desk", "--new-password", "reset-password")
    assert reset.exit_code == 0, reset.output
    assert run(server, "zones", "list", user="desk", password="reset-password").exit_code == 0
    assert run(server, "users", "delete", "desk").exit_code == 0
    assert "desk" not in run(server, "users", "list").stdout


def test_the_last_administrator_cannot_be_demoted(server: ServerProcess) -> None:
    done = run(server, "users", "set", ADMIN, "--role", "viewer")
    assert done.exit_code == 1
    assert "last administrator" in done.stderr
