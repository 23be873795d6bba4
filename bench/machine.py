"""The facts a run's figures stand on: the machine, the versions of what ran, the commit."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
from pathlib import Path
from typing import Any

import psutil

from bench import chromium
from bench.loadgen import wrk_version
from bench.procs import BENCH, prism_version

ROOT = BENCH.parent


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return "not installed"
    return subprocess.run(
        [node, "--version"], capture_output=True, text=True, timeout=30
    ).stdout.strip()


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _filesystem(path: Path) -> str:
    best = ("", "unknown")
    for part in psutil.disk_partitions(all=True):
        mount = part.mountpoint
        if str(path).startswith(mount) and len(mount) > len(best[0]):
            best = (mount, part.fstype)
    return best[1]


def machine(work: Path) -> dict[str, Any]:
    return {
        "logical_cpus": os.cpu_count(),
        "physical_cpus": psutil.cpu_count(logical=False),
        "cpu_model": _cpu_model(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "os": f"{platform.system()} {platform.release()}",
        "data_dir_filesystem": _filesystem(work),
    }


def versions() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "tilewall": _version("tilewall"),
        "litestar": _version("litestar"),
        "msgspec": _version("msgspec"),
        "uvicorn": _version("uvicorn"),
        "granian": _version("granian"),
        "wrk": wrk_version(),
        "prism": prism_version(),
        "node": _node_version(),
        "websockets": _version("websockets"),
        "playwright": _version("playwright"),
        "chromium": chromium.version(),
    }


def git_commit() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        )
        if done.returncode == 0:
            return done.stdout.strip()
    return "unknown"
