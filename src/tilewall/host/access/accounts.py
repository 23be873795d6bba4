"""Users and sessions: argon2 password hashes, long random session ids, idle expiry,
a bound on live sessions, and refusal of repeated failed logins (:mod:`.throttle`)."""

import asyncio
import hashlib
import logging
import math
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tilewall.host import audit
from tilewall.host.access.throttle import LoginThrottle
from tilewall.host.errors import Invalid, NotFound, TooManyAttempts
from tilewall.host.ports import AccountStore

log = logging.getLogger(__name__)

_hasher = PasswordHasher()
#: verified against when the user does not exist, so both cases cost the same
_DUMMY_HASH: str | None = None


def _dummy_hash() -> str:
    """Made on first use, not at import (a hash costs tens of milliseconds and 64 MiB)."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _hasher.hash("not a password of anyone")
    return _DUMMY_HASH


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


class Accounts:
    def __init__(
        self,
        store: AccountStore | None,
        idle_timeout_s: float = 1800.0,
        max_sessions: int = 10_000,
    ) -> None:
        self._store = store
        self.idle_timeout_s = idle_timeout_s
        self.max_sessions = max_sessions
        self._users: dict[str, str] = {}
        #: token hash -> session, least recently used first
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self.throttle = LoginThrottle()
        #: writes of the ends of sessions found expired, under way
        self._endings: set[asyncio.Task[None]] = set()

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
        self, users: dict[str, str], sessions: list[tuple[str, str, bool, int]]
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
            if user in self._users and fresh:
                live[token_hash] = self._sessions.get(token_hash) or Session(user, keep, now)
            else:
                stale.append(token_hash)
        self._sessions = live
        return stale

    def absorb(
        self,
        users: dict[str, str | None],
        sessions: dict[str, tuple[str, bool, int] | None],
    ) -> None:
        """Take in users and sessions another member of the group committed (None:
        removed)."""
        for name, hashed in users.items():
            if hashed is None:
                self._users.pop(name, None)
                for token_hash in [t for t, s in self._sessions.items() if s.user == name]:
                    del self._sessions[token_hash]
            else:
                self._users[name] = hashed
        now = time.monotonic()
        for token_hash, row in sessions.items():
            if row is None:
                self._sessions.pop(token_hash, None)
            elif token_hash not in self._sessions and row[0] in self._users:
                self._sessions[token_hash] = Session(row[0], row[1], now)

    # users

    def users(self) -> list[str]:
        return sorted(self._users)

    async def set_password(self, user: str, password: str) -> None:
        if not user or len(user) > 64 or not user.isprintable():
            raise Invalid("user names are 1 to 64 printable characters")
        if len(password) < 8:
            raise Invalid("passwords are at least 8 characters")
        # argon2 takes a good part of a second on purpose: off the event loop, which
        # keeps serving (and keeps a group member's link to its database alive)
        hashed = await asyncio.to_thread(_hasher.hash, password)
        if self._store is not None:
            await self._store.put_user(user, hashed, int(time.time() * 1000))
        self._users[user] = hashed

    async def remove_user(self, user: str) -> None:
        if user not in self._users:
            raise NotFound(f"user {user!r} not found")
        if self._store is not None:
            await self._store.delete_user(user)
        del self._users[user]
        for token_hash in [t for t, s in self._sessions.items() if s.user == user]:
            del self._sessions[token_hash]

    async def verify_password(self, user: str, password: str) -> bool:
        """:meth:`check_password` off the event loop."""
        return await asyncio.to_thread(self.check_password, user, password)

    def check_password(self, user: str, password: str) -> bool:
        hashed = self._users.get(user)
        try:
            return _hasher.verify(hashed or _dummy_hash(), password) and hashed is not None
        except (VerificationError, InvalidHashError):
            return False

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
        return await self.open_session(user, keep, address)

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

    async def close_session(self, token: str) -> None:
        token_hash = _token_hash(token)
        session = self._sessions.pop(token_hash, None)
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
