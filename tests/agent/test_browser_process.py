"""The agent keeps the kiosk browser on the receiver page: a small script stands in for
Chromium and records each start (its process id and its arguments)."""

import json
import os
import signal
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until


@pytest.fixture
def browser(tmp_path: Path) -> tuple[Path, Path]:
    """A "browser" that records its start to a file and runs until killed."""
    starts = tmp_path / "starts.jsonl"
    script = tmp_path / "fake-chromium"
    script.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import json, os, sys, time
            with open({str(starts)!r}, "a") as f:
                f.write(json.dumps({{"pid": os.getpid(), "argv": sys.argv[1:]}}) + "\\n")
            while True:
                time.sleep(1)
            """
        )
    )
    script.chmod(0o755)
    return script, starts


def starts(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


def test_kiosk_browser_started_restarted_and_reset(
    host: ServerProcess, agents: AgentFactory, browser: tuple[Path, Path]
) -> None:
    script, record = browser
    agent = agents(host, "kiosk-b", "--browser", str(script))
    first = wait_until(lambda: starts(record), 15, what="the browser to start")[0]
    argv = first["argv"]
    for flag in (
        "--kiosk",
        "--no-first-run",
        "--autoplay-policy=no-user-gesture-required",
        "--noerrdialogs",
        "--disable-session-crashed-bubble",
    ):
        assert flag in argv
    assert any(a.startswith("--user-data-dir=") and str(agent.state_dir) in a for a in argv)
    assert argv[-1] == f"{host.url}/receiver/?seat=kiosk-b"
    assert agent_online(host, "kiosk-b")["agent"]["browser"] is True

    # the browser dies: it is started again
    os.kill(first["pid"], signal.SIGKILL)
    second = wait_until(lambda: len(starts(record)) >= 2 and starts(record)[1], 15)
    assert second["pid"] != first["pid"] and running(second["pid"])

    # locking gives the station a key; the page was not connected to get it, so the
    # browser is started again with the key for the page in the fragment
    display_id = host.lock("kiosk-b")
    third = wait_until(lambda: len(starts(record)) >= 3 and starts(record)[2], 15)
    key = (agent.state_dir / "kiosk-b.key").read_text().strip()
    assert third["argv"][-1] == f"{host.url}/receiver/?seat=kiosk-b#key={key}"
    wait_until(lambda: not running(second["pid"]), 10)

    # reset of the display: the browser is restarted
    host.ok("PUT", f"/displays/{display_id}/reset")
    fourth = wait_until(lambda: len(starts(record)) >= 4 and starts(record)[3], 15)
    wait_until(lambda: not running(third["pid"]), 10, what="the old browser to be gone")
    assert running(fourth["pid"])

    # the agent stops: so does its browser
    agent.stop()
    wait_until(lambda: not running(fourth["pid"]), 10)
