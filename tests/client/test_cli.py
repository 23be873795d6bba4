"""The command line as a user drives it: a real ``tilewall serve --demo`` on a free
port, and ``tilewall GROUP COMMAND`` run against it (as a process where exit status and
streams matter, in process through click's runner elsewhere)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.http import ADMIN, PASSWORD
from tests.support.server import ServerProcess, free_port, running
from tilewall.cli import main
from tilewall.client import Client

CONNECTION = ("TILEWALL_URL", "TILEWALL_USER", "TILEWALL_PASSWORD")
#: what the commands are run without: the connection settings, and a terminal's width
#: (pytest-xdist's workers have COLUMNS=80; the output goes to a pipe, as to a script)
UNSET = (*CONNECTION, "COLUMNS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "cli", demo=True)


@pytest.fixture(scope="module")
def env(server: ServerProcess) -> dict[str, str]:
    """The environment of a user of that host."""
    return {"TILEWALL_URL": server.url, "TILEWALL_USER": ADMIN, "TILEWALL_PASSWORD": PASSWORD}


@pytest.fixture(scope="module")
def host(server: ServerProcess) -> Iterator[Client]:
    """The test's own view of the host, to check what the commands did."""
    with Client(server.url, ADMIN, PASSWORD) as client:
        yield client


def tilewall_program() -> list[str]:
    """``tilewall`` as a user runs it: the console script of this environment."""
    script = Path(sys.executable).parent / "tilewall"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from tilewall.cli import main; sys.exit(main())"]


def tilewall(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``tilewall ARGS`` as a process, with only ``env``'s connection settings."""
    base = {k: v for k, v in os.environ.items() if k not in UNSET}
    return subprocess.run(
        [*tilewall_program(), *args],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def run(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    """``tilewall ARGS`` in this process."""
    result = CliRunner().invoke(main, list(args), env={**dict.fromkeys(UNSET), **env})
    return result.exit_code, result.stdout, result.stderr


def test_a_table_lists_the_demo_displays(env: dict[str, str]) -> None:
    done = tilewall("displays", "list", env=env)
    assert done.returncode == 0, done.stderr
    for n in range(1, 7):
        assert f"demo-{n}" in done.stdout
    assert "VIDEOWALL" in done.stdout and "STANDALONE" in done.stdout
    assert "Welcome Slides" in done.stdout  # what plays, by source name
    assert done.stderr == ""


def test_json_is_the_hosts_json(server: ServerProcess) -> None:
    options = ["--url", server.url, "--user", ADMIN, "--password", PASSWORD]
    code, out, err = run("zones", "list", "--json", *options, env={})
    assert code == 0, err
    zones = json.loads(out)["zones"]
    assert {z["zoneName"] for z in zones} == {"Lobby Top", "Lobby Bottom"}
    code, out, err = run("zones", *options, "show", "--json", "Lobby Top", env={})
    assert code == 0, err
    assert json.loads(out)["zoneId"] == next(
        z["zoneId"] for z in zones if z["zoneName"] == "Lobby Top"
    )


def test_zones_switch(env: dict[str, str], host: Client) -> None:
    code, out, err = run("zones", "switch", "Lobby Top", "--source", "Project Page", env=env)
    assert code == 0, err
    page = host.sources.get("Project Page")["sourceId"]
    assert page in out
    assert host.zones.get("Lobby Top")["playingSourceId"] == page


def test_presets_save_and_recall(env: dict[str, str], host: Client) -> None:
    host.zones.switch("Lobby Bottom", "Demo Clip")
    code, out, err = run("presets", "save", "Evening", env=env)
    assert code == 0, err
    assert "preset 'Evening' saved" in out
    host.zones.switch("Lobby Bottom", "Project Page")
    code, out, err = run("presets", "recall", "Evening", env=env)
    assert code == 0, err
    assert "preset 'Evening' recalled" in out
    clip = host.sources.get("Demo Clip")["sourceId"]
    assert host.zones.get("Lobby Bottom")["playingSourceId"] == clip


def test_a_wrong_password_exits_with_the_hosts_message(env: dict[str, str]) -> None:
    done = tilewall("displays", "list", env={**env, "TILEWALL_PASSWORD": "not the password"})
    assert done.returncode == 1
    assert "invalid user name or password" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_an_unknown_source_exits_with_the_hosts_message(env: dict[str, str]) -> None:
    done = tilewall("zones", "switch", "Lobby Top", "--source", "No Such Source", env=env)
    assert done.returncode == 1
    assert "source 'No Such Source' not found" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_no_host_listening_exits_saying_so() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    done = tilewall("presets", "list", env={"TILEWALL_URL": url, "TILEWALL_PASSWORD": "x"})
    assert done.returncode == 3
    assert f"cannot reach the host at {url}/api" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_without_credentials_the_error_says_how_to_give_them(env: dict[str, str]) -> None:
    code, _, err = run("presets", "list", env={"TILEWALL_URL": env["TILEWALL_URL"]})
    assert code == 1
    assert "log in first" in err and "TILEWALL_PASSWORD" in err


def test_the_commands_import_no_part_of_the_server() -> None:
    probe = (
        "import sys, tilewall.commands; "
        "print([m for m in sys.modules if m.split('.')[:2] in "
        "(['tilewall', 'host'], ['tilewall', 'api'], ['tilewall', 'server'], "
        "['tilewall', 'store'], ['tilewall', 'receivers'], ['tilewall', 'platform']) "
        "or m.split('.')[0] in ('litestar', 'sqlalchemy')])"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
