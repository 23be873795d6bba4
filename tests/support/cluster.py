"""Hosts of a group as real processes: ``tilewall serve --database URL`` on free ports,
started, killed (``SIGKILL``) and restarted as an operator or a power cut would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.support.http import ADMIN, PASSWORD
from tests.support.pgserver import PostgresServer, free_port

ENV = {"TILEWALL_ADMIN_USER": ADMIN, "TILEWALL_ADMIN_PASSWORD": PASSWORD}
WEB_SOURCE = {
    "sourceName": "Page",
    "sourceType": "Web Browser",
    "params": [{"type": "URL", "paramName": "URL", "paramValue": "https://example.org/"}],
}


def web_source(name: str, page: str = "https://example.org/") -> dict[str, Any]:
    return {
        **WEB_SOURCE,
        "sourceName": name,
        "params": [{"type": "URL", "paramName": "URL", "paramValue": page}],
    }


def wait_for(check: Callable[[], Any], timeout: float = 10.0, every: float = 0.05) -> Any:
    """``check()``'s first truthy answer within ``timeout`` seconds (AssertionError after)."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except (httpx.HTTPError, AssertionError, KeyError) as error:
            last = error
        else:
            if last:
                return last
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {last!r}")


def shared_media(cluster: Cluster) -> tuple[str, ...]:
    """The options that give the members of ``cluster`` one media directory."""
    return ("--media-dir", str(cluster.root / "shared-media"))


def signage(host: Host, name: str, file: str) -> str:
    """A signage player source ``name`` showing the media ``file``; its id."""
    from tests.support.sources import files_value, source_body

    body = source_body("Signage Player", name, Media=files_value(file), Slide_Interval="30")
    answer = host.api.post("/sources", json=body)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["sourceId"])


class Host:
    """One member: a ``tilewall serve`` process on its own data directory and port."""

    def __init__(
        self, cluster: Cluster, name: str, *extra: str, database: str | None = None
    ) -> None:
        self.cluster = cluster
        self.database = database or cluster.database
        self.name = name
        self.data_dir = cluster.root / name
        self.port = free_port()
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = cluster.root / f"{name}.log"
        self._client: httpx.Client | None = None
        self.token = ""

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return f"{self.address}/api"

    def start(self, timeout: float = 90.0) -> Host:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from tilewall.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
                "--database",
                self.database,
                *self.extra,
            ],
            env={**os.environ, **ENV},
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log.read_text()[-3000:]}")
            try:
                httpx.get(f"{self.base}/openapi.json", timeout=1.0)
                self._client = None
                return self
            except httpx.TransportError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"{self.name} did not start in time: {self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """``kill -9``: no goodbye to the database or anyone."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    @property
    def api(self) -> httpx.Client:
        """A logged-in client of this host (logged in again after a restart)."""
        if self._client is None:
            client = httpx.Client(base_url=self.base, timeout=10)
            # a member just started answers 503 until it knows the active host, and says
            # to retry in a few seconds
            deadline = time.monotonic() + 30
            while True:
                answer = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
                if answer.status_code != 503 or time.monotonic() > deadline:
                    break
                time.sleep(0.25)
            assert answer.status_code == 200, answer.text
            self.token = answer.json()["session"]["value"]
            client.cookies.clear()
            client.cookies.set("JSESSIONID", self.token)
            self._client = client
        return self._client

    def group(self) -> dict[str, Any]:
        answer = self.api.get("/group")
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body

    def role(self) -> str:
        return str(self.group()["role"])

    def source_names(self) -> list[str]:
        answer = self.api.get("/sources")
        assert answer.status_code == 200, answer.text
        return sorted(s["sourceName"] for s in answer.json()["sources"])

    def has_source(self, name: str) -> bool:
        return name in self.source_names()

    def lists_sources(self, names: list[str]) -> bool:
        """The host's sources are ``names`` (sorted), no more."""
        return self.source_names() == names

    def creates_source(self, name: str) -> bool:
        """A web source ``name`` is created (False when the host refuses it now)."""
        return self.api.post("/sources", json=web_source(name)).status_code == 200

    def is_standby(self) -> bool:
        return self.role() == "standby"

    def becomes(self, role: str, timeout: float) -> None:
        """Wait until the host reports ``role``; failing, say what it reported last (its
        view of the group: connected, the active member, the lease's age, its renewals)."""
        seen: dict[str, Any] = {}

        def reports() -> bool:
            seen.clear()
            seen.update(self.group())
            return seen["role"] == role

        try:
            wait_for(reports, timeout=timeout, every=0.1)
        except AssertionError as error:
            raise AssertionError(f"{self.name} not {role} within {timeout} s: {seen}") from error

    def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        """``GET /metrics`` read with prometheus-client's parser: each sample's value by
        its name and its labels (sorted)."""
        from prometheus_client.parser import text_string_to_metric_families

        answer = self.api.get(f"{self.address}/metrics")
        assert answer.status_code == 200, answer.text
        return {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text)
            for sample in family.samples
        }


class Cluster:
    """The hosts of one test on one database."""

    def __init__(self, server: PostgresServer, database: str, root: Path) -> None:
        self.server = server
        self.database = database
        self.root = root
        self.hosts: list[Host] = []

    def host(self, name: str, *extra: str, database: str | None = None) -> Host:
        made = Host(self, name, *extra, database=database)
        self.hosts.append(made)
        return made

    def start(self, *names: str, extra: tuple[str, ...] = ()) -> list[Host]:
        """Start hosts one after the other: the first becomes the active one."""
        return [self.host(name, *extra).start() for name in names]

    def active(self) -> Host:
        """The one running host that says it is active (waits for one)."""

        def find() -> Host | None:
            running = [h for h in self.hosts if h.proc is not None and h.database == self.database]
            found = [h for h in running if h.role() == "active"]
            assert len(found) <= 1, [h.name for h in found]
            return found[0] if found else None

        host: Host = wait_for(find, timeout=10)
        return host

    def stop_all(self) -> None:
        for host in self.hosts:
            host.kill()
