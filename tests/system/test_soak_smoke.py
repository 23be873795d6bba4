"""The soak benchmark (bench/soak.py, make bench-soak) runs: a tiny fleet of churning
receivers with operators locking, switching and unlocking, for a few seconds. It must see
no 5xx; memory growth is measured by the benchmark, never asserted here."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(120)
def test_a_tiny_soak_churns_and_sees_no_server_error(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    command = [sys.executable, "-m", "bench.soak", "--receivers", "8", "--seconds", "10"]
    done = subprocess.run(
        [*command, "--operators", "2", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=110,
    )
    # its exit status also judges memory growth, which a run this short cannot measure
    assert out.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    assert "receivers, 10 s" in done.stdout, done.stdout
    result = json.loads(out.read_text())
    assert result["server_errors_5xx"] == 0, result["errors"]
    assert result["transport_errors"] == 0, result["errors"]
    operations = result["operations"]
    for name in ("lock", "switch", "unlock", "list network"):
        assert operations[name]["statuses"].get("200", 0) > 0, (name, operations)
    # receivers left and came back, showing the keys of their locked stations
    assert result["receiver_connects"] > 8
    # none refused: a key lost as a receiver left at the moment of its lock is held
    # for its next connection (docs/protocol.md, "Station keys")
    assert result["receiver_refused"] == 0
    assert len(result["memory_mb"]["samples"]) >= 5
    assert result["memory_mb"]["start"] > 0 and "memory_growth_percent" in result
