"""The command line: users are added, changed and removed in the data directory."""

import asyncio
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tilewall.assembly import open_host
from tilewall.cli import main
from tilewall.server import ensure_admin


def users(data_dir: Path) -> list[str]:
    async def read() -> list[str]:
        host = await open_host(data_dir)
        try:
            return host.accounts.users()
        finally:
            await host.close()

    return asyncio.run(read())


def check(data_dir: Path, user: str, password: str) -> bool:
    async def read() -> bool:
        host = await open_host(data_dir)
        try:
            return host.accounts.check_password(user, password)
        finally:
            await host.close()

    return asyncio.run(read())


def test_user_add_passwd_remove(tmp_path: Path) -> None:
    runner = CliRunner()
    data = str(tmp_path)
    added = runner.invoke(
        main,
        ["user", "add", "operator", "--data-dir", data],
        input="first-password\nfirst-password\n",
    )
    assert added.exit_code == 0, added.output
    assert users(tmp_path) == ["operator"]
    assert check(tmp_path, "operator", "first-password")

    again = runner.invoke(
        main, ["user", "add", "operator", "--data-dir", data], input="x-password\nx-password\n"
    )
    assert again.exit_code == 1

    changed = runner.invoke(
        main,
        ["user", "passwd", "operator", "--data-dir", data],
        input="second-password\nsecond-password\n",
    )
    assert changed.exit_code == 0, changed.output
    assert check(tmp_path, "operator", "second-password")
    assert not check(tmp_path, "operator", "first-password")

    short = runner.invoke(
        main, ["user", "passwd", "operator", "--data-dir", data], input="short\nshort\n"
    )
    assert short.exit_code == 1

    # the last administrator stays
    last = runner.invoke(main, ["user", "remove", "operator", "--data-dir", data])
    assert last.exit_code == 1
    assert "last administrator" in last.output
    assert users(tmp_path) == ["operator"]

    other = runner.invoke(
        main, ["user", "add", "admin", "--data-dir", data], input="an-admin-pw\nan-admin-pw\n"
    )
    assert other.exit_code == 0, other.output
    removed = runner.invoke(main, ["user", "remove", "operator", "--data-dir", data])
    assert removed.exit_code == 0
    assert users(tmp_path) == ["admin"]
    assert runner.invoke(main, ["user", "remove", "operator", "--data-dir", data]).exit_code == 1


def test_first_start_generates_admin_password(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("TILEWALL_ADMIN_PASSWORD", raising=False)

    async def start() -> None:
        host = await open_host(tmp_path)
        try:
            await ensure_admin(host, tmp_path)
        finally:
            await host.close()

    asyncio.run(start())
    password = (tmp_path / "initial-admin-password").read_text().strip()
    assert len(password) >= 12
    assert check(tmp_path, "admin", password)
    assert (tmp_path / "initial-admin-password").stat().st_mode & 0o077 == 0


def test_each_command_group_lives_in_the_module_named_as_it() -> None:
    from tilewall import cli, commands
    from tilewall.cli import groups

    interface = {p.stem for p in Path(commands.__file__).parent.glob("*.py")}
    local = {p.stem for p in Path(cli.__file__).parent.glob("*.py")}
    assert set(groups.GROUPS) == (interface - {"__init__", "base", "transport"}) | (
        local - {"__init__", "groups", "local"}
    )
    for name, where in groups.GROUPS.items():
        module = where.split(":")[0]
        assert module in (f"tilewall.commands.{name}", f"tilewall.cli.{name}"), where
        group = groups.command_group(name)
        assert group is not None and group.name == name
    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0
    assert all(f"  {name} " in listed.output for name in groups.GROUPS)


def test_user_roles_offline(tmp_path: Path) -> None:
    runner = CliRunner()
    data = str(tmp_path)

    def invoke(*args: str, password: str | None = None) -> Any:
        given = None if password is None else f"{password}\n{password}\n"
        return runner.invoke(main, [*args, "--data-dir", data], input=given)

    assert invoke("user", "add", "boss", password="boss-password").exit_code == 0
    added = invoke("user", "add", "lobby", "--role", "viewer", password="lobby-password")
    assert added.exit_code == 0, added.output
    assert "(viewer)" in added.output
    listed = invoke("user", "list")
    assert "boss: administrator" in listed.output and "lobby: viewer" in listed.output
    assert invoke("user", "role", "lobby", "operator").exit_code == 0
    assert invoke("user", "disable", "lobby").exit_code == 0
    assert "lobby: operator (disabled)" in invoke("user", "list").output
    assert invoke("user", "enable", "lobby").exit_code == 0
    demoted = invoke("user", "role", "boss", "viewer")
    assert demoted.exit_code == 1 and "last administrator" in demoted.output
    assert invoke("user", "disable", "boss").exit_code == 1
    assert invoke("user", "role", "nobody", "viewer").exit_code == 1
