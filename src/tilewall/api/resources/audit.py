"""The audit trail (a tilewall extension): who changed what, when, from where, and how it
ended; each entry chained to the one before by its hash. As JSON by pages, or as CSV."""

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import get
from litestar.di import Provide
from litestar.params import Parameter
from litestar.response import Stream

from tilewall.api.common import extension
from tilewall.api.timelogs import (
    csv_cell,
    csv_text,
    instant_param,
    retention_routes,
    window,
)
from tilewall.host.access.trail import MAX_PAGE
from tilewall.host.audit import AuditEntry, AuditQuery
from tilewall.host.host import Host
from tilewall.host.schedule import occurrences as occ

TAGS = ["Audit trail"]
CSV_COLUMNS = [
    "id",
    "at",
    "user",
    "address",
    "session",
    "operation",
    "targetKind",
    "targetId",
    "targetName",
    "changes",
    "outcome",
    "prev",
    "hash",
]


class AuditTarget(msgspec.Struct):
    kind: str
    id: str
    name: str


class AuditItem(msgspec.Struct):
    id: int
    #: ISO 8601, UTC (host time)
    at: str
    #: a user's name, or the host's own actor: schedule, failover, agent, host
    user: str
    address: str
    #: a short handle of the session (not its id)
    session: str
    #: the method and path template of the interface's operation, or what the host did
    operation: str
    target: AuditTarget | None
    #: each document changed: kind, id, name, and the before and after of its fields
    changes: list[dict[str, Any]]
    #: ``ok``, or why it was refused
    outcome: str
    #: the previous entry's hash, and this one's (SHA-256 over its content and ``prev``)
    prev: str
    hash: str


class AuditPage(msgspec.Struct):
    entries: list[AuditItem]
    #: pass as ``before`` for the next (older) page; null when this is the last
    next: int | None
    #: every entry holds its content and follows the entry before it
    verified: bool


def item(entry: AuditEntry) -> AuditItem:
    record = entry.record
    target = record.target
    return AuditItem(
        entry.id,
        occ.iso_instant(record.at_ms),
        record.user,
        record.address,
        record.session,
        record.operation,
        None if target is None else AuditTarget(target.kind, target.id, target.name),
        msgspec.json.decode(record.changes),
        record.outcome,
        entry.prev,
        entry.hash,
    )


USER = Parameter(query="user", default=None, required=False, description="Only this actor's")
TARGET = Parameter(
    query="target", default=None, required=False, description="Only those about this id"
)
OPERATION = Parameter(
    query="operation",
    default=None,
    required=False,
    description="Only this operation (as entries name it: 'PUT /api/sources/{sourceId}')",
)
BEFORE = Parameter(
    query="before",
    default=None,
    required=False,
    ge=1,
    description="Only entries older than this id (the previous page's next)",
)
LIMIT = Parameter(query="limit", default=100, required=False, ge=1, le=MAX_PAGE)


def audit_query(
    host: Host,
    since: str | None = instant_param("since", "entries before it are left out"),
    until: str | None = instant_param("until", "entries at or after it are left out"),
    user: str | None = USER,
    target: str | None = TARGET,
    operation: str | None = OPERATION,
    before: int | None = BEFORE,
) -> AuditQuery:
    """The dependency ``matching``: the filters of a page or an export, as many entries as
    one page holds at most."""
    since_ms, until_ms = window(host, since, until)
    return AuditQuery(since_ms, until_ms, user, target, operation, before, MAX_PAGE)


FILTERED = {"matching": Provide(audit_query, sync_to_thread=False)}


@extension(
    get,
    "/audit",
    TAGS,
    "Who changed what and when, newest first, a page at a time",
    description="Answers 400 when until is not after since.",
    dependencies=FILTERED,
)
async def audit_page(host: Host, matching: AuditQuery, limit: int = LIMIT) -> AuditPage:
    query = dataclasses.replace(matching, limit=limit)
    entries, verified = await host.audit.page(query)
    more = len(entries) == query.limit and entries[-1].id > 1
    return AuditPage([item(e) for e in entries], entries[-1].id if more else None, verified)


@extension(
    get,
    "/audit.csv",
    TAGS,
    "Every entry of the audit trail that matches, newest first, as CSV",
    description="Answers 400 when until is not after since.",
    media_type="text/csv",
    dependencies=FILTERED,
)
async def audit_csv(host: Host, matching: AuditQuery) -> Stream:
    first, _ = await host.audit.page(matching)  # a bad query answers 400 before the stream
    return Stream(
        _rows(host, matching, first),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="audit.csv"'},
    )


async def _rows(host: Host, query: AuditQuery, page: list[AuditEntry]) -> AsyncIterator[str]:
    yield csv_text([CSV_COLUMNS])
    while page:
        yield csv_text(_cells(entry) for entry in page)
        if len(page) < query.limit:
            return
        query = dataclasses.replace(query, before=page[-1].id)
        page, _ = await host.audit.page(query)


def _cells(entry: AuditEntry) -> list[str]:
    record = entry.record
    target = record.target
    return [
        str(entry.id),
        occ.iso_instant(record.at_ms),
        csv_cell(record.user),
        record.address,
        record.session,
        record.operation,
        target.kind if target else "",
        csv_cell(target.id) if target else "",
        csv_cell(target.name) if target else "",
        csv_cell(record.changes),
        csv_cell(record.outcome),
        entry.prev,
        entry.hash,
    ]


ROUTES = [
    audit_page,
    audit_csv,
    *retention_routes(
        "/audit/settings",
        TAGS,
        "audit entries",
        "the oldest are removed, the chain of those kept still verifies",
        lambda host: host.audit,
    ),
]
