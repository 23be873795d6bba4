"""The kiosk agent against a real host, each in its own process, as on a kiosk: the host
is ``tilewall serve`` (``tests.support.server``), the agent ``tilewall agent``. Tools the
tests cannot have for real here (a TV's CEC bus, a monitor's DDC/CI) are small scripts
on PATH that record how they were called."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import ServerProcess
from tests.support.waiting import wait_until


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One host for the tests of a module; each test uses seats of its own."""
    live = ServerProcess(tmp_path_factory.mktemp("agent-host") / "data")
    live.start()
    try:
        live.login()
        yield live
    finally:
        live.stop()


class AgentProcess:
    """``tilewall agent`` in a subprocess, logging to a file."""

    def __init__(
        self, host_url: str, seat: str, work: Path, args: list[str], env: dict[str, str]
    ) -> None:
        self.seat = seat
        self.work = work
        self.state_dir = work / "state"
        self.log_path = work / "agent.log"
        self.command = [
            sys.executable,
            "-c",
            "import sys; from tilewall.cli import main; sys.exit(main())",
            "agent",
            "--host",
            host_url,
            "--seat",
            seat,
            "--state-dir",
            str(self.state_dir),
            *args,
        ]
        self.env = {**os.environ, **env}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> "AgentProcess":
        self.work.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


AgentFactory = Callable[..., AgentProcess]


@pytest.fixture
def agents(tmp_path: Path) -> Iterator[AgentFactory]:
    """Start agents: ``agents(host, seat, *args, env={...}, name=...)``; all are stopped
    at the end of the test."""
    started: list[AgentProcess] = []

    def start(
        host: ServerProcess,
        seat: str,
        *args: str,
        env: dict[str, str] | None = None,
        name: str = "",
    ) -> AgentProcess:
        work = tmp_path / (name or f"agent-{len(started)}")
        agent = AgentProcess(host.url, seat, work, list(args), env or {}).start()
        started.append(agent)
        return agent

    yield start
    for agent in started:
        agent.stop()


def agent_online(host: ServerProcess, seat: str, timeout: float = 20.0) -> dict[str, Any]:
    """The station once its agent is connected."""
    return host.wait_station(seat, lambda d: bool(d.get("agent") and d["agent"]["online"]), timeout)


@pytest.fixture
def fake_tools(tmp_path: Path) -> tuple[Path, Path]:
    """A bin directory with recording ``cec-client`` and ``ddcutil``, and the file they
    record to (one JSON line per call: argv and standard input). A tool prints and fails
    like the real one when the file ``FAIL`` beside it exists."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    record = tmp_path / "calls.jsonl"
    for tool in ("cec-client", "ddcutil"):
        script = bin_dir / tool
        script.write_text(
            textwrap.dedent(
                f"""\
                #!{sys.executable}
                import json, os, sys
                stdin = "" if sys.stdin.isatty() else sys.stdin.read()
                with open({str(record)!r}, "a") as f:
                    f.write(json.dumps({{"tool": {tool!r}, "argv": sys.argv[1:], "stdin": stdin}}) + "\\n")
                if os.path.exists({str(bin_dir / "FAIL")!r}):
                    if {tool!r} == "cec-client":
                        print("ERROR:   [            1]\\tcould not open a connection (try 1)")
                        sys.exit(0)
                    print("Display not found", file=sys.stderr)
                    sys.exit(1)
                """
            )
        )
        script.chmod(0o755)
    return bin_dir, record


def calls(record: Path) -> list[dict[str, Any]]:
    if not record.exists():
        return []
    return [json.loads(line) for line in record.read_text().splitlines() if line.strip()]


__all__ = ["AgentFactory", "agent_online", "calls", "wait_until"]
