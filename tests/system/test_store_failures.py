"""A store that cannot write: the request answers 503 with a JSON message, nothing of it
is applied (not in memory, not after a restart), and the same request succeeds once the
store works again. Tried with a store that fails on command and with the data directory
on a real, full file system."""

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.app import app_client
from tests.support.http import Api
from tests.support.server import ServerProcess
from tilewall.host.errors import StoreFailed

WEB_SOURCE = {
    "sourceName": "Lobby page",
    "sourceType": "Web Browser",
    "params": [{"type": "URL", "paramName": "URL", "paramValue": "https://example.org/"}],
}


class FailOnCommand:
    """Wraps the host's real store; writes raise StoreFailed while ``failing``."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    async def apply(self, changes: Any, audit: Any = ()) -> None:
        if self.failing:
            raise StoreFailed("the host's store cannot write (test): nothing was changed")
        await self.real.apply(changes, audit)


def names(client: Api) -> list[str]:
    response = client.get("/sources")
    assert response.status_code == 200
    return sorted(s["sourceName"] for s in response.json()["sources"])


def test_failing_store_answers_503_and_applies_nothing(data_dir: Path) -> None:
    with app_client(data_dir) as client:
        host = client.transport.app.state.host
        store = FailOnCommand(host.core.store)
        host.core.store = store
        store.failing = True
        response = client.post("/sources", json=WEB_SOURCE)
        assert response.status_code == 503
        assert response.json()["status"] == 503
        assert "nothing was changed" in response.json()["message"]
        assert names(client) == []
        store.failing = False
        assert client.post("/sources", json=WEB_SOURCE).status_code == 200
        assert names(client) == ["Lobby page"]
    with app_client(data_dir) as client:
        assert names(client) == ["Lobby page"]


# --- a real full disk: the data directory on a small tmpfs filled to the brim


def _mount_tmpfs(where: Path, size: str) -> bool:
    if shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
        capture_output=True,
    )
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "small-disk"
    where.mkdir()
    if not _mount_tmpfs(where, "16m"):
        pytest.skip("mounting a tmpfs needs root (CI runs as root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the file system has no byte left."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler


@pytest.mark.timeout(120)
def test_full_disk_answers_503_and_the_same_request_succeeds_once_space_is_back(
    small_disk: Path, tmp_path: Path
) -> None:
    data_dir = small_disk / "data"
    # the server's own log lives off the full disk, so what it says about it is kept
    server = ServerProcess(data_dir, log_path=tmp_path / "server.log").start()
    try:
        client = server.api
        warm_up = client.post("/sources", json={**WEB_SOURCE, "sourceName": "warm-up"})
        assert warm_up.status_code == 200, warm_up.text
        assert client.delete(f"/sources/{warm_up.json()['sourceId']}").status_code == 200
        filler = fill(small_disk)

        for _ in range(3):
            response = client.post("/sources", json=WEB_SOURCE)
            assert response.status_code in (503, 507), response.text
            assert response.json()["status"] == response.status_code
            assert "disk is full" in response.json()["message"]
        assert client.get("/sources").json() == {"sources": []}

        filler.unlink()
        response = client.post("/sources", json=WEB_SOURCE)
        assert response.status_code == 200, response.text
        assert names(client) == ["Lobby page"]
    finally:
        server.stop()
    log = server.log()
    # the cause is logged once for the whole outage, and the recovery once
    assert log.count("the store cannot write") == 1, log[-3000:]
    assert "full" in log and "the store writes again after 3 failed writes" in log

    server.start()
    try:
        assert names(server.api) == ["Lobby page"]
    finally:
        server.close()
