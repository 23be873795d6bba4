"""The audit trail (a tilewall extension): who changed what, when, from where, and how it
ended; each entry chained to the one before by its hash. As JSON by pages, or as CSV."""

import csv
import dataclasses
import io
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import get, put
from litestar.params import Parameter
from litestar.response import Stream

from tilewall.api.common import EXTENSION_TAG, Extension, documented, errors
from tilewall.api.resources.schedule import INSTANT
from tilewall.host.access.trail import MAX_PAGE, MAX_RETENTION_DAYS
from tilewall.host.audit import AuditEntry, AuditQuery
from tilewall.host.host import Host
from tilewall.host.schedule import occurrences as occ

TAGS = [EXTENSION_TAG, "Audit trail"]
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


SINCE = Parameter(
    query="since",
    default=None,
    required=False,
    pattern=INSTANT,
    description="ISO 8601 (without an offset: the host's local time); entries before it "
    "are left out",
)
UNTIL = Parameter(
    query="until",
    default=None,
    required=False,
    pattern=INSTANT,
    description="ISO 8601 (without an offset: the host's local time); entries at or after "
    "it are left out",
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


def _query(
    host: Host,
    since: str | None,
    until: str | None,
    user: str | None,
    target: str | None,
    operation: str | None,
    before: int | None,
    limit: int,
) -> AuditQuery:
    tz = occ.zone(host.schedule.host_zone())
    since_ms = None if not since else occ.parse_instant(since, "since", tz)
    until_ms = None if not until else occ.parse_instant(until, "until", tz)
    return AuditQuery(since_ms, until_ms, user, target, operation, before, limit)


@get(
    "/audit",
    tags=TAGS,
    summary="Who changed what and when, newest first, a page at a time",
    description="Answers 400 when until is not after since.",
    responses=errors(),
    operation_class=Extension,
)
async def audit_page(
    host: Host,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    user: str | None = USER,
    target: str | None = TARGET,
    operation: str | None = OPERATION,
    before: int | None = BEFORE,
    limit: int = LIMIT,
) -> AuditPage:
    query = _query(host, since, until, user, target, operation, before, limit)
    entries, verified = await host.audit.page(query)
    more = len(entries) == query.limit and entries[-1].id > 1
    return AuditPage([item(e) for e in entries], entries[-1].id if more else None, verified)


@get(
    "/audit.csv",
    tags=TAGS,
    summary="Every entry of the audit trail that matches, newest first, as CSV",
    description="Answers 400 when until is not after since.",
    responses=errors(),
    operation_class=Extension,
    media_type="text/csv",
)
async def audit_csv(
    host: Host,
    since: str | None = SINCE,
    until: str | None = UNTIL,
    user: str | None = USER,
    target: str | None = TARGET,
    operation: str | None = OPERATION,
    before: int | None = BEFORE,
) -> Stream:
    query = _query(host, since, until, user, target, operation, before, MAX_PAGE)
    first, _ = await host.audit.page(query)  # a bad query answers 400 before the stream
    return Stream(
        _rows(host, query, first),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="audit.csv"'},
    )


async def _rows(host: Host, query: AuditQuery, page: list[AuditEntry]) -> AsyncIterator[str]:
    yield _line(CSV_COLUMNS)
    while page:
        yield "".join(_line(_cells(entry)) for entry in page)
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
        _cell(record.user),
        record.address,
        record.session,
        record.operation,
        target.kind if target else "",
        _cell(target.id) if target else "",
        _cell(target.name) if target else "",
        _cell(record.changes),
        _cell(record.outcome),
        entry.prev,
        entry.hash,
    ]


def _line(cells: list[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(cells)
    return out.getvalue()


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class AuditRetention(msgspec.Struct):
    retentionDays: Annotated[int, documented(minimum=1, maximum=MAX_RETENTION_DAYS)]


@get(
    "/audit/settings",
    tags=TAGS,
    summary="How many days audit entries are kept",
    responses=errors(),
    operation_class=Extension,
)
async def get_audit_retention(host: Host) -> AuditRetention:
    return AuditRetention(host.audit.retention_days())


@put(
    "/audit/settings",
    tags=TAGS,
    summary="Set how many days audit entries are kept (the oldest are removed, the chain "
    "of those kept still verifies)",
    responses=errors(),
    operation_class=Extension,
)
async def set_audit_retention(host: Host, data: AuditRetention) -> AuditRetention:
    return AuditRetention(await host.audit.set_retention_days(data.retentionDays))


ROUTES = [audit_page, audit_csv, get_audit_retention, set_audit_retention]
