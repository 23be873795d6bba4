"""The audit trail: who changed what, when, and how it ended; each entry chained to the
one before it by a SHA-256 hash, so an entry edited, removed or inserted afterwards is
found (:func:`first_bad`).

Who acts is carried in context (:data:`ACTOR`, :data:`OPERATION`): the interface sets
them for each request, the host's own services (the schedule, failover, receivers'
agents) for their tasks. The one change path (:meth:`tilewall.host.state.Core.change`)
turns each committed change into an :class:`AuditRecord` written in the same store
transaction as the change (:func:`record_of_change`); logins and logouts are written
with the session they open or end.
"""

import contextlib
import contextvars
import functools
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import msgspec

#: the ``prev`` of the very first entry
GENESIS = "0" * 64
#: what a secret field's values read as
REDACTED = "(redacted)"
#: the host's own actors, for what no user asked for
SCHEDULE, FAILOVER, AGENT, HOST = "schedule", "failover", "agent", "host"
#: who shares a screen with a display's code, without a session (the code's display is
#: named where a session would be)
GUEST = "guest"
#: what a change is when nothing named its operation
UNNAMED = "change"
OK = "ok"
#: the default retention of entries, in days
RETENTION_DAYS = 365

#: settings that only count or derive (they change with what they count): not recorded
_INTERNAL_SETTINGS = frozenset({"mapping_generation"})
#: a field is secret when its name holds one of these (a password, a licence's code,
#: a station key's hash, ...): that it changed is recorded, never its value
_SECRET_PARTS = ("password", "secret", "token", "key")
_SECRET_NAMES = frozenset({"code"})
#: the user and password of a URL: ``scheme://user:password@``
_URL_PASSWORD = re.compile(r"(://[^/@:\s]*):[^/@\s]*@")
_URL_SHOWN = rf"\1:{REDACTED}@"


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a user with the address and session they act from, or one of the host's
    own actors (:data:`SCHEDULE`, ...) with neither."""

    user: str
    address: str = ""
    #: a short handle of the session (a prefix of its id's hash, never the id), or the
    #: seat of the receiver whose agent acts
    session: str = ""


#: who the current task acts for (None: the host itself)
ACTOR: contextvars.ContextVar[Actor | None] = contextvars.ContextVar("audit_actor", default=None)
#: the operation the current task carries out, as the interface names it
OPERATION: contextvars.ContextVar[str] = contextvars.ContextVar("audit_operation", default="")


@contextlib.contextmanager
def acting(actor: Actor, operation: str) -> Iterator[None]:
    """What the block changes is done by ``actor``, as ``operation`` (the host's own
    services: the schedule applying an event, failover switching a display)."""
    actor_token = ACTOR.set(actor)
    operation_token = OPERATION.set(operation)
    try:
        yield
    finally:
        OPERATION.reset(operation_token)
        ACTOR.reset(actor_token)


@dataclass(frozen=True, slots=True)
class Target:
    kind: str
    id: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """One entry as the host makes it; the store numbers and chains it."""

    at_ms: int
    user: str
    address: str
    session: str
    operation: str
    target: Target | None
    #: canonical JSON of what changed (:func:`encode_changes`)
    changes: str
    outcome: str = OK


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """An entry as stored: numbered from 1 without gaps, chained by ``prev``."""

    id: int
    record: AuditRecord
    prev: str
    hash: str


@dataclass(frozen=True, slots=True)
class AuditQuery:
    """Which entries to read, newest first: ``before`` (an id) continues a page."""

    since_ms: int | None = None
    until_ms: int | None = None
    user: str | None = None
    target: str | None = None
    operation: str | None = None
    before: int | None = None
    limit: int = 100


def canonical(value: Any) -> bytes:
    """The one encoding hashed and stored: JSON, keys sorted, no spaces."""
    return msgspec.json.encode(value, order="sorted")


def encode_changes(changes: list[dict[str, Any]]) -> str:
    return canonical(changes).decode()


def entry_hash(entry_id: int, record: AuditRecord, prev: str) -> str:
    """SHA-256 over the entry's content and the previous entry's hash."""
    target = record.target or Target("", "", "")
    content = [
        entry_id,
        record.at_ms,
        record.user,
        record.address,
        record.session,
        record.operation,
        target.kind,
        target.id,
        target.name,
        record.changes,
        record.outcome,
        prev,
    ]
    return hashlib.sha256(canonical(content)).hexdigest()


def chain(
    records: Iterable[AuditRecord], last_id: int, last_hash: str, last_at_ms: int = 0
) -> list[AuditEntry]:
    """``records`` numbered and chained after the entry ``last_id`` of hash ``last_hash``
    written at ``last_at_ms``. An entry is never dated before the one it follows (a clock
    stepped back, another member's clock a little behind): its time is that one's then, so
    the entries' times rise with their ids and a window of time is a range of ids."""
    entries = []
    for record in records:
        if record.at_ms < last_at_ms:
            record = replace(record, at_ms=last_at_ms)
        last_at_ms = record.at_ms
        last_id += 1
        digest = entry_hash(last_id, record, last_hash)
        entries.append(AuditEntry(last_id, record, last_hash, digest))
        last_hash = digest
    return entries


def first_bad(
    entries: Iterable[AuditEntry], base: tuple[int, str], head: tuple[int, str] | None
) -> int | None:
    """The id of the first entry that breaks the chain (None: it holds).

    ``entries`` in order of id. ``base`` is (id, hash) of the entry the first one must
    follow (the last one retention removed, or (0, :data:`GENESIS`)); ``head``, when
    given, is (id, hash) of the last entry written, which the last one must be. An
    edited entry is named by its id, a removed one by the id it had, an inserted one by
    its own id or by the id of the entry whose place it took."""
    expected_id, expected_hash = base
    for entry in entries:
        if entry.id != expected_id + 1:
            return min(entry.id, expected_id + 1)
        if entry.prev != expected_hash:
            return entry.id
        if entry_hash(entry.id, entry.record, entry.prev) != entry.hash:
            return entry.id
        expected_id, expected_hash = entry.id, entry.hash
    if head is not None and (expected_id, expected_hash) != head:
        # the last entries were removed, one was added after the last written, or the
        # last one was replaced
        return expected_id + 1 if expected_id < head[0] else min(expected_id, head[0] + 1)
    return None


# --- what a change changed


@functools.lru_cache(maxsize=1024)
def _secret(field: str) -> bool:
    """(Remembered: the same few field names come again and again.)"""
    lowered = field.lower()
    return lowered in _SECRET_NAMES or any(part in lowered for part in _SECRET_PARTS)


def _shown(field: str, value: Any) -> Any:
    return REDACTED if value is not None and _secret(field) else _scrubbed(value)


def _scrubbed(value: Any) -> Any:
    """``value`` without the secrets it holds: a field named as a secret, the value of a
    source's param named so (``{"paramName": "Password", "paramValue": ...}``), the
    password of a URL (``rtsp://user:password@camera/``)."""
    if isinstance(value, str):
        # only a URL with a user in it can hold a password (most strings have no "@")
        return _URL_PASSWORD.sub(_URL_SHOWN, value) if "@" in value else value
    if isinstance(value, list):
        return [_scrubbed(item) for item in value]
    if not isinstance(value, dict):
        return value
    named = value.get("paramName")
    secret_param = isinstance(named, str) and _secret(named)
    out = {}
    for key, item in value.items():
        hidden = _secret(key) or (secret_param and key == "paramValue")
        out[key] = REDACTED if hidden and item not in (None, "") else _scrubbed(item)
    return out


def _as_fields(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    return value if isinstance(value, dict) else {"value": value}


def _fields(before: Any, after: Any) -> dict[str, Any]:
    """Before and after of each top-level field that differs (a value that is not an
    object is one field, ``value``)."""
    before, after = _as_fields(before), _as_fields(after)
    out = {}
    for field in sorted(before.keys() | after.keys()):
        old, new = before.get(field), after.get(field)
        if old != new:
            out[field] = {"before": _shown(field, old), "after": _shown(field, new)}
    return out


def _name_of(value: Any) -> str:
    if isinstance(value, dict):
        for field in ("name", "seat_id"):
            if isinstance(value.get(field), str):
                return str(value[field])
    return ""


def _decoded(body: bytes | None) -> Any:
    return None if body is None else msgspec.json.decode(body)


def describe_change(
    before: Mapping[tuple[str, str], bytes | None],
    after: Mapping[tuple[str, str], bytes | None],
) -> tuple[Target | None, list[dict[str, Any]]]:
    """The target (the first document changed) and what changed in each document: its
    kind, id, name and the before and after of its changed fields."""
    target: Target | None = None
    changes = []
    for (kind, key), body in after.items():
        if kind == "setting" and key in _INTERNAL_SETTINGS:
            continue
        old, new = _decoded(before.get((kind, key))), _decoded(body)
        fields = _fields(old, new)
        if not fields:
            continue
        name = _name_of(new) or _name_of(old)
        if target is None:
            target = Target(kind, key, name)
        action = "created" if old is None else "deleted" if new is None else "changed"
        changes.append({"kind": kind, "id": key, "name": name, action: fields})
    return target, changes


def current_actor() -> Actor:
    return ACTOR.get() or Actor(HOST)


def record_of_change(
    at_ms: int,
    before: Mapping[tuple[str, str], bytes | None],
    after: Mapping[tuple[str, str], bytes | None],
    context: contextvars.Context | None = None,
) -> AuditRecord | None:
    """The entry of a committed change (``after``: what it wrote; ``before``: what was
    committed under it), for the actor of ``context`` (else the current one); None when
    it changed nothing worth recording."""
    target, changes = describe_change(before, after)
    if not changes:
        return None
    actor = (context.get(ACTOR) if context is not None else ACTOR.get()) or Actor(HOST)
    operation = (context.get(OPERATION) if context is not None else OPERATION.get()) or UNNAMED
    return event(at_ms, actor, operation, target, changes)


def event(
    at_ms: int,
    actor: Actor,
    operation: str,
    target: Target | None = None,
    changes: list[dict[str, Any]] | None = None,
    outcome: str = OK,
) -> AuditRecord:
    """An entry for ``actor``: of what is not a change of documents (a login, a logout, a
    refusal), or of a change (:func:`record_of_change`)."""
    return AuditRecord(
        at_ms,
        actor.user,
        actor.address,
        actor.session,
        operation,
        target,
        encode_changes(changes or []),
        outcome,
    )
