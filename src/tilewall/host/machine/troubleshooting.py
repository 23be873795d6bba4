"""Troubleshooting reports: what an operator says went wrong, with what support needs to
see why, in one tar.bz2 — and nothing secret. The archive is written through the
:class:`~tilewall.host.ports.DataFiles` port.

The archive holds ``report.json`` (the form, when, and what the host is),
``configuration.json`` (configuration and settings, redacted), ``diagnostics.json``,
``state.json`` (stations, displays, topology, sources, presets; redacted) and
``logs/`` (the interface log with its rotated files). Left out by construction: password
hashes (only user names are listed), session ids (only their count), licence activation
codes and any private key (the host holds none; issuers keep theirs). Any value whose
key looks like a secret is replaced by ``<redacted>``.
"""

import json
import re
from dataclasses import dataclass
from typing import Any

from tilewall.host.errors import Invalid

MAX_FIELD = 20_000
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


def encode(documents: dict[str, Any]) -> dict[str, bytes]:
    """The report's documents as the JSON files of the archive."""
    return {
        name: json.dumps(document, indent=2, sort_keys=True, default=str).encode()
        for name, document in documents.items()
    }
