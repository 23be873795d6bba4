"""Troubleshooting reports: what an operator says went wrong, with what support needs to
see why, in one tar.bz2 — and nothing secret.

The archive holds ``report.json`` (the form, when, and what the host is),
``configuration.json`` (configuration and settings, redacted), ``diagnostics.json``,
``state.json`` (stations, displays, topology, sources, presets; redacted) and
``logs/`` (the interface log with its rotated files). Left out by construction: password
hashes (only user names are listed), session ids (only their count), licence activation
codes and any private key (the host holds none; issuers keep theirs). Any value whose
key looks like a secret is replaced by ``<redacted>``.
"""

import io
import json
import re
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tilewall.host.errors import Invalid, NotFound

REPORT_DIR = "troubleshooting"
REPORT_FILE = "tilewall-troubleshooting-report.tar.bz2"
MAX_FIELD = 20_000
#: the newest part of each log file that goes into a report
MAX_LOG_BYTES = 8 * 1024 * 1024
REDACTED = "<redacted>"
_SECRET_KEY = re.compile(
    r"pass(word|wd)?|secret|token|private|session_?id|cookie|credential|^code$", re.IGNORECASE
)


@dataclass(frozen=True)
class ReportForm:
    name: str = ""
    email: str = ""
    catagory: str = ""
    whatDoing: str = ""
    description: str = ""
    additionalText: str = ""

    def check(self) -> "ReportForm":
        for field, value in vars(self).items():
            if not isinstance(value, str):
                raise Invalid(f"{field} must be a string")
            if len(value) > MAX_FIELD:
                raise Invalid(f"{field} is longer than {MAX_FIELD} characters")
        if self.email and not re.fullmatch(r"[^@\s]+@[^@\s]+", self.email.strip()):
            raise Invalid(f"email {self.email!r} is not an e-mail address")
        return self


def redact(value: Any) -> Any:
    """``value`` with every entry whose key names a secret replaced, recursively."""
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and _SECRET_KEY.search(k) and v not in (None, "")
            else redact(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        # params of sources: {paramName: "password", paramValue: ...}
        return [_redact_param(v) if isinstance(v, dict) else redact(v) for v in value]
    return value


def _redact_param(item: dict[str, Any]) -> Any:
    name = item.get("paramName")
    if isinstance(name, str) and _SECRET_KEY.search(name) and "paramValue" in item:
        return {
            **redact({k: v for k, v in item.items() if k != "paramValue"}),
            "paramValue": REDACTED,
        }
    return redact(item)


def report_path(data_dir: Path) -> Path:
    return data_dir / REPORT_DIR / REPORT_FILE


def _add(archive: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = int(mtime)
    info.mode = 0o644
    archive.addfile(info, io.BytesIO(data))


def _tail(path: Path) -> bytes:
    with path.open("rb") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - MAX_LOG_BYTES))
        return f.read()


def write_report(
    target: Path,
    documents: dict[str, Any],
    logs: Iterable[Path],
    created: float,
) -> Path:
    """Write the archive atomically: ``documents`` as JSON files, then ``logs``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with tarfile.open(partial, "w:bz2") as archive:
        for name, document in documents.items():
            body = json.dumps(document, indent=2, sort_keys=True, default=str).encode()
            _add(archive, name, body, created)
        for path in logs:
            try:
                _add(archive, f"logs/{path.name}", _tail(path), path.stat().st_mtime)
            except OSError:
                continue
    partial.replace(target)
    return target


def existing_report(data_dir: Path | None) -> Path:
    if data_dir is not None:
        path = report_path(data_dir)
        if path.is_file():
            return path
    raise NotFound("no troubleshooting report: POST /system/submittroubleshootingreport first")
