"""tilewall backup / restore: a consistent copy of a host that keeps writing, restored
into a new data directory a host starts from with everything as it was."""

import io
import json
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.media import png_bytes
from tests.support.serving import ADMIN, PASSWORD, Served, logged_in
from tilewall import backup
from tilewall.host.licence.codes import generate_signing_key, public_key_text

CLI = [sys.executable, "-c", "from tilewall.cli import main; main()"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


def web_source(name: str) -> dict[str, Any]:
    return {
        "sourceName": name,
        "sourceType": "Web Browser",
        "params": [
            {"type": "URL", "paramName": "URL", "paramValue": f"https://example.org/{name}"}
        ],
    }


class Writer(threading.Thread):
    """Creates sources w00001, w00002, ... one after the other until stopped."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.client = logged_in(base, verify=False)
        self.acknowledged: list[tuple[float, str]] = []
        self.stopping = threading.Event()

    def run(self) -> None:
        n = 0
        while not self.stopping.is_set():
            n += 1
            name = f"w{n:05d}"
            response = self.client.post("/sources", json=web_source(name))
            assert response.status_code == 200, response.text
            self.acknowledged.append((time.monotonic(), name))

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)
        self.client.close()


def snapshot(client: httpx.Client) -> dict[str, Any]:
    """What a client sees of a host, ids and all."""
    media = client.get("/media").json()["files"]
    return {
        "sources": sorted(client.get("/sources").json()["sources"], key=lambda s: s["sourceId"]),
        "presets": client.get("/presets").json(),
        "videowalls": client.get("/videowalls").json(),
        "media": sorted((f["name"], f["size"]) for f in media),
        "media_bytes": {f["name"]: client.get(f"/media/{f['name']}").content for f in media},
    }


@pytest.mark.timeout(240)
def test_a_backup_of_a_host_under_writes_restores_as_it_was(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "trusted-keys").mkdir()
    key_text = public_key_text(generate_signing_key())
    (data / "trusted-keys" / "vendor.pub").write_text(key_text + "\n")
    with Served(data, "--tls", "self-signed") as served:
        client = logged_in(served.base, verify=False)
        kept_token = client.post(
            "/session", params={"keepLoggedIn": "true"}, json={"user": ADMIN, "password": PASSWORD}
        ).json()["session"]["value"]
        client.put("/media/folder/still.png", content=png_bytes()).raise_for_status()
        client.put("/media/other.png", content=png_bytes((1, 2, 3))).raise_for_status()
        client.post("/sources", json=web_source("before")).raise_for_status()
        client.post("/presets", json={"name": "Morning"}).raise_for_status()

        writer = Writer(served.base)
        writer.start()
        time.sleep(1.0)
        started = time.monotonic()
        made = cli("backup", "--data-dir", str(data), str(tmp_path / "host.tar.gz"))
        finished = time.monotonic()
        time.sleep(0.5)
        writer.stop()
        assert made.returncode == 0, made.stderr
        before_backup = [n for t, n in writer.acknowledged if t < started]
        during = [n for t, n in writer.acknowledged if started <= t <= finished]
        assert len(before_backup) > 3 and during, (len(before_backup), len(during))
        live = snapshot(client)
        client.close()

    manifest = backup.read_manifest(tmp_path / "host.tar.gz")
    assert manifest["format"] == "tilewall-backup" and manifest["version"] == 1
    assert {"tilewall.db", "media/folder/still.png", "trusted-keys/vendor.pub"} <= set(
        manifest["files"]
    )
    assert "tls/self-signed.key" in manifest["files"]
    assert oct((tmp_path / "host.tar.gz").stat().st_mode & 0o777) == "0o600"

    restored_dir = tmp_path / "restored"
    done = cli("restore", str(tmp_path / "host.tar.gz"), "--data-dir", str(restored_dir))
    assert done.returncode == 0, done.stderr
    with Served(restored_dir, "--tls", "self-signed") as again:
        assert "(kept)" in again.output()  # the same certificate
        # the session opened before the backup is still good, and so is the password
        old = httpx.Client(base_url=again.base, verify=False, cookies={"JSESSIONID": kept_token})
        assert old.get("/system").status_code == 200
        restored = snapshot(logged_in(again.base, verify=False))
        old.close()
    assert (restored_dir / "trusted-keys" / "vendor.pub").read_text().strip() == key_text

    # consistent: every source acknowledged before the backup began, then an unbroken
    # run of the ones written while it ran; nothing written after it finished
    names = sorted(s["sourceName"] for s in restored["sources"] if s["sourceName"][0] == "w")
    assert names == [f"w{n:05d}" for n in range(1, len(names) + 1)]
    assert len(before_backup) <= len(names) <= len(before_backup) + len(during)
    # everything else as it was; the sources exactly those of the live host, up to the copy
    live_sources = {s["sourceId"]: s for s in live["sources"]}
    for source in restored["sources"]:
        assert live_sources[source["sourceId"]] == source
    for part in ("presets", "videowalls", "media", "media_bytes"):
        assert restored[part] == live[part], part


def _body(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes | None:
    extracted = tar.extractfile(member) if member.isfile() else None
    return None if extracted is None else extracted.read()


def test_restore_refuses_a_non_empty_directory_and_damaged_archives(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with Served(data):
        pass
    archive = tmp_path / "a.tar.gz"
    backup.backup(data, archive)
    target = tmp_path / "target"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    refused = cli("restore", str(archive), "--data-dir", str(target))
    assert refused.returncode == 1 and "not empty" in refused.stderr
    assert not (target / "tilewall.db").exists()
    forced = cli("restore", str(archive), "--data-dir", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (target / "tilewall.db").is_file() and (target / "notes.txt").is_file()

    # a damaged member, a newer format: refused, nothing written
    with tarfile.open(archive) as tar:
        members = [(m, _body(tar, m)) for m in tar]
    for label, change in (("damaged", "file"), ("newer", "manifest")):
        broken = tmp_path / f"{label}.tar.gz"
        with tarfile.open(broken, "w:gz") as out:
            for member, body in members:
                if body is not None and change == "file" and member.name == "tilewall.db":
                    body = body[:-10] + b"0123456789"
                if member.name == "manifest.json" and change == "manifest":
                    manifest = json.loads(body or b"{}")
                    manifest["version"] = 99
                    body = json.dumps(manifest).encode()
                    member.size = len(body)
                out.addfile(member, None if body is None else io.BytesIO(body))
        empty = tmp_path / f"into-{label}"
        answer = cli("restore", str(broken), "--data-dir", str(empty))
        assert answer.returncode == 1
        assert ("damaged" if label == "damaged" else "format version 99") in answer.stderr
        assert not (empty / "tilewall.db").exists()
