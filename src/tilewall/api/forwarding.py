"""A standby of a group forwards the interface's writes to the active member.

A write (POST, PUT, PATCH, DELETE under ``/api``) that reaches a standby is sent on to
the active member as it came (cookie and all: sessions are the group's), and its answer
is passed back; before answering, the standby waits (up to 2 s) until it has followed
the write, so a client that reads from the standby next sees what it wrote. The
operations about the member itself (its machine, its failover settings) are answered
by the member addressed. When no member is active, or the active one cannot be
reached, the write answers 503 with a message naming the active host where known.

The active member takes the client's address (for the audit trail, the login throttle,
a guest's share) from a forwarded write only when the standby proves it is a member: its
``X-Forwarded-For`` comes with ``X-Tilewall-Forwarded-Proof``, an HMAC-SHA256 under the
members' secret (in the group's database) of the member, the address, the method, the
path and the time. Anyone else's ``X-Forwarded-For`` (and a proof that does not hold) is
ignored: the address is the connection's.

An active member that stalled (frozen, its connections open) would hold a forwarded
write for the whole stall: a write not answered within :data:`PATIENCE_S` is given up
with a 503 as soon as the active member's lease is late (it renews it every second), or
another member became active meanwhile. Once a member is active, writes are forwarded
to it again.
"""

import asyncio
import contextlib
import hashlib
import hmac
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

import msgspec
from litestar.enums import ScopeType
from litestar.types import (
    ASGIApp,
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Message,
    Receive,
    Scope,
    Send,
)

from tilewall.host.host import Host

if TYPE_CHECKING:  # the HTTP client is imported when a standby first forwards a write
    import httpx

log = logging.getLogger(__name__)

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: writes a member answers itself: its machine and its failover settings
MEMBER_LOCAL = (
    "/api/failover-group",
    "/api/system/hostname",
    "/api/system/timezone",
    "/api/system/networkinterfaces",
    "/api/system/reboot",
    "/api/system/shutdown",
    "/api/system/vpn",
    "/api/system/installthirdpartypackage",
    "/api/system/submittroubleshootingreport",
)
#: set on a forwarded request (naming the member that forwarded it)
FORWARDED = "x-tilewall-forwarded-by"
#: the client's address a standby forwards a write for, and the proof that a member says so
FORWARDED_FOR = "x-forwarded-for"
PROOF = "x-tilewall-forwarded-proof"
#: how old a proof may be (the members' clocks differ a little)
PROOF_AGE_S = 300.0
#: on the answer to a write of a member of a group: the revision the active member has
#: committed when it answers (the write's own, or a later one)
REVISION = "x-tilewall-revision"
FOLLOW_TIMEOUT_S = 2.0
FORWARD_TIMEOUT_S = 30.0
#: how long a forwarded write waits for its answer before a late lease ends the wait
PATIENCE_S = 2.0
_HOP = frozenset(
    {
        "host",
        "connection",
        "keep-alive",
        "transfer-encoding",
        "te",
        "upgrade",
        "proxy-connection",
        "content-length",
        "content-encoding",
    }
)


def proof(key: bytes, member: str, client: str, method: str, path: str, at_ms: int) -> str:
    """What a member signs a forwarded write's client address with: ``<at_ms>.<hmac>``."""
    message = "\n".join((member, client, method, path, str(at_ms))).encode()
    return f"{at_ms}.{hmac.new(key, message, hashlib.sha256).hexdigest()}"


def vouched_client(scope: Scope, key: bytes) -> str | None:
    """The client address a member of the group forwarded this request for, when its
    proof holds under ``key``; None otherwise (not forwarded, or not by a member)."""
    member, client, given = (_header(scope, h.encode()) for h in (FORWARDED, FORWARDED_FOR, PROOF))
    if not key or member is None or client is None or given is None:
        return None
    stamp = given.partition(".")[0]
    if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 16):
        return None
    if abs(time.time() - int(stamp) / 1000) > PROOF_AGE_S:
        return None
    method, path = str(scope.get("method", "")), str(scope.get("path", ""))
    expected = proof(key, member, client, method, path, int(stamp))
    # as bytes: a header may hold what no ASCII string comparison takes
    return client if hmac.compare_digest(expected.encode(), given.encode("latin-1")) else None


#: what only a member says of a forwarded write: never passed on from a client
_SAID_BY_MEMBERS = frozenset(h.encode() for h in (FORWARDED, FORWARDED_FOR, PROOF))


def member_local(path: str) -> bool:
    return any(
        path == p or path.startswith(p + "/") or path.startswith(p + "-") for p in MEMBER_LOCAL
    )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def _answer(
    send: Send, status: int, message: str, extra: dict[str, str] | None = None
) -> None:
    body = msgspec.json.encode({"status": status, "message": message})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await _send(send, status, headers, body)


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": status,
        "headers": headers,
    }
    await send(start)
    done: HTTPResponseBodyEvent = {"type": "http.response.body", "body": body, "more_body": False}
    await send(done)


async def _body(receive: Receive) -> AsyncIterator[bytes]:
    """The request's body as it arrives (a media upload may be large)."""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return
        chunk = message.get("body", b"")
        if chunk:
            yield chunk
        if not message.get("more_body"):
            return


def group_forwarding(host_of: Callable[[Scope], Host | None]) -> Callable[[ASGIApp], ASGIApp]:
    """The middleware, finding the host of a request with ``host_of``."""
    client: list[httpx.AsyncClient] = []

    def wrap(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            host = host_of(scope) if scope["type"] == ScopeType.HTTP else None
            path = str(scope.get("path", ""))
            method = str(scope.get("method", ""))
            if (
                host is None
                or method not in WRITES
                or not path.startswith("/api/")
                or member_local(path)
            ):
                await app(scope, receive, send)
                return
            forwarded = _header(scope, FORWARDED.encode()) is not None
            if host.hostgroup.serving:
                member = host.hostgroup.coordination is not None
                vouched = vouched_client(scope, host.hostgroup.member_key) if member else None
                if vouched is not None:  # what follows sees the client, not the standby
                    scope["client"] = (vouched, 0)
                await app(scope, receive, _with_revision(send, host) if member else send)
                return
            await _forward(host, scope, receive, send, forwarded, client)

        return middleware

    return wrap


def _with_revision(send: Send, host: Host) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            status = host.hostgroup.status()
            revision = status.revision if status else 0
            headers = [*message.get("headers", []), (REVISION.encode(), str(revision).encode())]
            start: HTTPResponseStartEvent = {**message, "headers": headers}
            await send(start)
            return
        await send(message)

    return sending


def _no_active(active: str | None, forwarded: bool, was_active: bool) -> str:
    """Why a write that reached a standby cannot be forwarded."""
    if was_active and not forwarded:  # its view of the group is from before it stepped down
        return (
            "this host is no longer the active host of its group (it stalled or lost its "
            "database) and does not know the new one yet: nothing was changed; retry in a "
            "few seconds"
        )
    where = f"; the active host is {active}" if active and not forwarded else ""
    return (
        "this host is a standby of its group and no other member is active yet: "
        f"nothing was changed; retry in a few seconds{where}"
    )


async def _forward(
    host: Host,
    scope: Scope,
    receive: Receive,
    send: Send,
    forwarded: bool,
    client: list["httpx.AsyncClient"],
) -> None:
    method = str(scope.get("method", ""))
    active = host.hostgroup.active_address()
    status = host.hostgroup.status()
    me = status.member(status.member_id) if status else None
    was_active = me is not None and active == me.address
    if forwarded or active is None or was_active:
        await _answer(send, 503, _no_active(active, forwarded, was_active), {"retry-after": "1"})
        return
    headers = [
        (k.decode("latin-1"), v.decode("latin-1"))
        for k, v in scope.get("headers", [])
        if (k.decode("latin-1").lower() not in _HOP or k.lower() == b"content-length")
        and k.lower() not in _SAID_BY_MEMBERS
    ]
    member_id = status.member_id if status else "?"
    headers.append((FORWARDED, member_id))
    client_ip = (scope.get("client") or ("", 0))[0]
    key = host.hostgroup.member_key
    if client_ip and key:
        at_ms = int(time.time() * 1000)
        signed = proof(key, member_id, client_ip, method, str(scope["path"]), at_ms)
        headers += [(FORWARDED_FOR, client_ip), (PROOF, signed)]
    query = scope.get("query_string", b"").decode("latin-1")
    raw = scope.get("raw_path") or scope["path"].encode()
    url = active + raw.decode("latin-1") + (f"?{query}" if query else "")
    import httpx

    if not client:
        client.append(httpx.AsyncClient(timeout=FORWARD_TIMEOUT_S))
    request = asyncio.ensure_future(
        client[0].request(method, url, headers=headers, content=_body(receive))
    )
    try:
        answer = await _answer_while_alive(host, request, active)
    except _Stalled as stalled:
        log.warning("gave up forwarding %s %s to %s: %s", method, scope["path"], active, stalled)
        await _answer(
            send,
            503,
            f"this host is a standby of its group; the active host {active} {stalled}: "
            "the write was not acknowledged; retry in a few seconds",
            {"retry-after": "1"},
        )
        return
    except httpx.HTTPError as error:
        log.warning("could not forward %s %s to %s: %s", method, scope["path"], active, error)
        await _answer(
            send,
            503,
            f"this host is a standby of its group; the active host {active} cannot be "
            f"reached ({type(error).__name__}): nothing was changed",
            {"retry-after": "1"},
        )
        return
    revision = answer.headers.get(REVISION)
    if revision and revision.isdigit():
        await host.hostgroup.wait_revision(int(revision), FOLLOW_TIMEOUT_S)
    out = [
        (k.encode("latin-1"), v.encode("latin-1"))
        for k, v in answer.headers.multi_items()
        if k.lower() not in _HOP
    ]
    out.append((b"content-length", str(len(answer.content)).encode()))
    await _send(send, answer.status_code, out, answer.content)


class _Stalled(Exception):
    """The active member a write was forwarded to stalled or was replaced."""


async def _answer_while_alive(
    host: Host, request: "asyncio.Future[httpx.Response]", active: str
) -> "httpx.Response":
    """The answer to ``request``, unless after :data:`PATIENCE_S` the member it was sent
    to stalls or is replaced (:class:`_Stalled`, and the request is cancelled)."""
    started = time.monotonic()
    while True:
        done, _ = await asyncio.wait({request}, timeout=0.25)
        if done:
            return request.result()
        if time.monotonic() - started < PATIENCE_S:
            continue
        status = host.hostgroup.status()
        reason = None
        if host.hostgroup.active_address() != active:
            reason = "was replaced while it had the write"
        elif status is not None and status.active_late():
            age = (status.lease_age_ms or 0) / 1000
            reason = f"has not renewed its lease for {age:.1f} s (it may have stalled)"
        if reason is not None:
            request.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await request
            raise _Stalled(reason)
