"""packaging/tilewall.service: systemd reads it, and its exposure stays low (an
unprivileged user, a state directory, the machine read-only)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "packaging" / "tilewall.service"

pytestmark = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


def test_systemd_reads_the_unit_without_complaint_but_the_missing_install() -> None:
    answer = subprocess.run(
        ["systemd-analyze", "verify", str(UNIT)], capture_output=True, text=True, timeout=60
    )
    complaints = [
        line
        for line in (answer.stdout + answer.stderr).splitlines()
        if line.strip() and "/opt/tilewall/venv/bin/tilewall" not in line
    ]
    assert complaints == []


def test_the_service_is_confined() -> None:
    text = UNIT.read_text()
    for line in (
        "User=tilewall",
        "StateDirectory=tilewall",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
    ):
        assert f"\n{line}\n" in text, line
    answer = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    level = re.search(r"Overall exposure level for tilewall.service: ([\d.]+)", answer.stdout)
    assert level is not None, answer.stdout[-2000:] + answer.stderr
    assert float(level.group(1)) <= 2.0
