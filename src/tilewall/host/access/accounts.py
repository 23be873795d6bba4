"""Users and sessions: argon2 password hashes, long random session ids, idle expiry,
a bound on live sessions, and refusal of repeated failed logins (:mod:`.throttle`).
Users have roles (:mod:`.roles`); managing them is :mod:`.managed`."""

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from tilewall.host import audit
from tilewall.host.access import passwords
from tilewall.host.access.managed import ManagedUsers
from tilewall.host.access.roles import Account
from tilewall.host.access.throttle import LoginThrottle
from tilewall.host.errors import TooManyAttempts
from tilewall.host.ports import AccountStore

log = logging.getLogger(__name__)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def session_handle(token: str) -> str:
    """How the audit trail names a session: a prefix of its id's hash (never the id)."""
    return _token_hash(token)[:HANDLE]


#: hex digits of a session's handle
HANDLE = 12
#: what the audit trail names the host's ending of an idle session
EXPIRY = "session expired"


def _now_ms() -> int:
    return int(time.time() * 1000)


def _expiry(token_hash: str, user: str) -> audit.AuditRecord:
    actor = audit.Actor(user, "", token_hash[:HANDLE])
    target = audit.Target("session", token_hash[:HANDLE], user)
    return audit.event(_now_ms(), actor, EXPIRY, target)


@dataclass
class Session:
    user: str
    keep: bool
    last_seen: float


class Accounts(ManagedUsers):
    def __init__(
        self,
        store: AccountStore | None,
        idle_timeout_s: float = 1800.0,
        max_sessions: int = 10_000,
    ) -> None:
        self._store = store
        self.idle_timeout_s = idle_timeout_s
        self.max_sessions = max_sessions
        self._users: dict[str, Account] = {}
        #: token hash -> session, least recently used first
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self.throttle = LoginThrottle()
        #: writes of the ends of sessions found expired, under way
        self._endings: set[asyncio.Task[None]] = set()
        #: resolved (and replaced) whenever sessions end, for the streams that carry one
        self._ended: asyncio.Future[None] | None = None

    async def load(self, prune: bool = True) -> None:
        """Read users and sessions from the store; ``prune`` deletes the stale sessions
        there (only a host that writes does)."""
        if self._store is None:
            return
        rows = await self._store.sessions()
        stale = self.replace(await self._store.users(), rows)
        if prune and stale:
            users = {token_hash: user for token_hash, user, _, _ in rows}
            records = [_expiry(token_hash, users[token_hash]) for token_hash in stale]
            await self._store.delete_sessions(stale, records)

    def replace(
        self, users: dict[str, Account], sessions: list[tuple[str, str, bool, int]]
    ) -> list[str]:
        """Make these users and sessions (as stored) the live ones, keeping the idle
        clock of sessions already live; the hashes of the stale sessions left out."""
        self._users = dict(users)
        now = time.monotonic()
        wall_ms = time.time() * 1000
        stale = []
        live: OrderedDict[str, Session] = OrderedDict()
        for token_hash, user, keep, created_ms in sessions:
            fresh = keep or wall_ms - created_ms < self.idle_timeout_s * 1000
            if self._may_log_in(user) and fresh:
                live[token_hash] = self._sessions.get(token_hash) or Session(user, keep, now)
            else:
                stale.append(token_hash)
        self._sessions = live
        self._tell_ended()
        return stale

    def absorb(
        self,
        users: dict[str, Account | None],
        sessions: dict[str, tuple[str, bool, int] | None],
    ) -> None:
        """Take in users and sessions another member of the group committed (None:
        removed)."""
        for name, account in users.items():
            if account is None:
                self._users.pop(name, None)
            else:
                self._users[name] = account
            if not self._may_log_in(name):
                self._end_sessions_of(name)
        now = time.monotonic()
        for token_hash, row in sessions.items():
            if row is None:
                if self._sessions.pop(token_hash, None) is not None:
                    self._tell_ended()
            elif token_hash not in self._sessions and self._may_log_in(row[0]):
                self._sessions[token_hash] = Session(row[0], row[1], now)

    async def verify_password(self, user: str, password: str) -> bool:
        """:meth:`check_password` off the event loop."""
        return await asyncio.to_thread(self.check_password, user, password)

    def check_password(self, user: str, password: str) -> bool:
        account = self._users.get(user)
        return passwords.matches(None if account is None else account.password_hash, password)

    # logging in

    async def login(self, address: str, user: str, password: str, keep: bool) -> str | None:
        """A new session's token for the right password, None for a wrong one.

        Raises :class:`TooManyAttempts` at once, checking nothing, while ``address`` (or
        ``user`` from it) is locked by earlier failures. The hash is checked off the
        event loop, so a burst of guesses does not stall other requests.
        """
        wait = self.throttle.retry_after(address, user)
        if wait > 0:
            await self._refused(address, user, "refused: too many failed logins")
            raise TooManyAttempts(_locked_message(wait), math.ceil(wait))
        ok = await self.verify_password(user, password)
        self.throttle.record(address, user, ok)
        if not ok:
            await self._refused(address, user, "refused: invalid user name or password")
            return None
        if not self._may_log_in(user):
            await self._refused(address, user, "refused: the user is disabled")
            return None
        return await self.open_session(user, keep, address)

    async def record_refusal(
        self, actor: audit.Actor, operation: str, why: str, target: audit.Target | None = None
    ) -> None:
        """Record in the audit trail an operation refused to ``actor``: for its role (the
        target is the user), or outside its scope (``target``: what it reached)."""
        if self._store is None:
            return
        target = target or audit.Target("user", actor.user, actor.user)
        record = audit.event(_now_ms(), actor, operation, target, None, f"refused: {why}")
        await self._store.append_audit([record])

    async def _refused(self, address: str, user: str, outcome: str) -> None:
        if self._store is None:
            return
        operation = audit.OPERATION.get() or "login"
        target = audit.Target("user", user, user)
        record = audit.event(
            _now_ms(), audit.Actor(user, address), operation, target, None, outcome
        )
        await self._store.append_audit([record])

    # sessions

    async def open_session(self, user: str, keep: bool, address: str = "") -> str:
        token = secrets.token_urlsafe(32)
        token_hash = _token_hash(token)
        evicted = [(t, s.user) for t, s in self._expire()]
        while len(self._sessions) >= self.max_sessions:
            oldest, session = self._sessions.popitem(last=False)
            evicted.append((oldest, session.user))
        if self._store is not None:
            ended = [_expiry(t, u) for t, u in evicted]
            await self._store.delete_sessions([t for t, _ in evicted], ended)
            handle = token_hash[:HANDLE]
            actor = audit.Actor(user, address, handle)
            operation = audit.OPERATION.get() or "login"
            opened = audit.event(_now_ms(), actor, operation, audit.Target("session", handle, user))
            await self._store.put_session(token_hash, user, keep, _now_ms(), [opened])
        self._sessions[token_hash] = Session(user, keep, time.monotonic())
        return token

    def session(self, token: str) -> Session | None:
        """The live session of ``token``, refreshing its idle clock; None if there is none."""
        if not token or len(token) > 200:
            return None
        token_hash = _token_hash(token)
        session = self._sessions.get(token_hash)
        if session is None:
            return None
        now = time.monotonic()
        if not session.keep and now - session.last_seen > self.idle_timeout_s:
            del self._sessions[token_hash]
            self._end_expired(token_hash, session.user)
            return None
        session.last_seen = now
        self._sessions.move_to_end(token_hash)
        return session

    def is_live(self, token: str) -> bool:
        """Whether ``token``'s session is live, without counting this as its use."""
        session = self._sessions.get(_token_hash(token)) if 0 < len(token) <= 200 else None
        if session is None:
            return False
        return session.keep or time.monotonic() - session.last_seen <= self.idle_timeout_s

    def sessions_ended(self) -> "asyncio.Future[None]":
        """A future resolved the next time any session ends (logged out, its user
        changed, disabled or removed): streams that carry a session look again then.
        Every caller shares one future underneath, shielded: a waiter that is cancelled
        (its stream closed) does not cancel the others' wait."""
        if self._ended is None or self._ended.done():
            self._ended = asyncio.get_running_loop().create_future()
        return asyncio.shield(self._ended)

    def _tell_ended(self) -> None:
        if self._ended is not None and not self._ended.done():
            self._ended.set_result(None)

    async def end_sessions(self, user: str) -> None:
        """End every session of ``user`` at once, in the store too (with their entries
        in the audit trail)."""
        ended = self._end_sessions_of(user)
        if ended and self._store is not None:
            actor = audit.current_actor()
            operation = audit.OPERATION.get() or "sessions ended"
            records = [
                audit.event(_now_ms(), actor, operation, audit.Target("session", t[:HANDLE], user))
                for t in ended
            ]
            await self._store.delete_sessions(ended, records)

    def _end_sessions_of(self, user: str) -> list[str]:
        ended = [t for t, s in self._sessions.items() if s.user == user]
        for token_hash in ended:
            del self._sessions[token_hash]
        if ended:
            self._tell_ended()
        return ended

    def _may_log_in(self, user: str) -> bool:
        account = self._users.get(user)
        return account is not None and not account.disabled

    async def close_session(self, token: str) -> None:
        token_hash = _token_hash(token)
        session = self._sessions.pop(token_hash, None)
        if session is not None:
            self._tell_ended()
        if session is not None and self._store is not None:
            handle = token_hash[:HANDLE]
            actor = audit.ACTOR.get() or audit.Actor(session.user, "", handle)
            operation = audit.OPERATION.get() or "logout"
            ended = audit.event(
                _now_ms(), actor, operation, audit.Target("session", handle, session.user)
            )
            await self._store.delete_sessions([token_hash], [ended])

    def _end_expired(self, token_hash: str, user: str) -> None:
        """Delete the stored session found expired, with its audit entry (off the
        request that found it: the request is answered 401 either way)."""
        if self._store is None:
            return
        store = self._store

        async def end() -> None:
            try:
                await store.delete_sessions([token_hash], [_expiry(token_hash, user)])
            except Exception as error:  # the next login or start ends it again
                log.warning("could not record the end of an expired session: %s", error)

        try:
            task = asyncio.get_running_loop().create_task(end())
        except RuntimeError:  # no loop: the next start prunes it
            return
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    def _expire(self) -> list[tuple[str, Session]]:
        now = time.monotonic()
        stale = [
            (t, s)
            for t, s in self._sessions.items()
            if not s.keep and now - s.last_seen > self.idle_timeout_s
        ]
        for token_hash, _ in stale:
            del self._sessions[token_hash]
        return stale

    @property
    def session_count(self) -> int:
        return len(self._sessions)


def _locked_message(wait: float) -> str:
    return f"too many failed logins from this address; try again in {math.ceil(wait)} seconds"
