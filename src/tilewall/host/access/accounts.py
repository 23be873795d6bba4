"""Users and sessions: argon2 password hashes, long random session ids, idle expiry,
a bound on live sessions, and refusal of repeated failed logins (:mod:`.throttle`)."""

import asyncio
import hashlib
import math
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tilewall.host.access.throttle import LoginThrottle
from tilewall.host.errors import Invalid, NotFound, TooManyAttempts
from tilewall.host.ports import AccountStore

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

    async def load(self, prune: bool = True) -> None:
        """Read users and sessions from the store; ``prune`` deletes the stale sessions
        there (only a host that writes does)."""
        if self._store is None:
            return
        stale = self.replace(await self._store.users(), await self._store.sessions())
        if prune:
            await self._store.delete_sessions(stale)

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
            raise TooManyAttempts(_locked_message(wait), math.ceil(wait))
        ok = await self.verify_password(user, password)
        self.throttle.record(address, user, ok)
        if not ok:
            return None
        return await self.open_session(user, keep)

    # sessions

    async def open_session(self, user: str, keep: bool) -> str:
        token = secrets.token_urlsafe(32)
        token_hash = _token_hash(token)
        evicted = self._expire()
        while len(self._sessions) >= self.max_sessions:
            evicted.append(self._sessions.popitem(last=False)[0])
        if self._store is not None:
            await self._store.delete_sessions(evicted)
            await self._store.put_session(token_hash, user, keep, int(time.time() * 1000))
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
            return None
        session.last_seen = now
        self._sessions.move_to_end(token_hash)
        return session

    async def close_session(self, token: str) -> None:
        token_hash = _token_hash(token)
        if self._sessions.pop(token_hash, None) is not None and self._store is not None:
            await self._store.delete_sessions([token_hash])

    def _expire(self) -> list[str]:
        now = time.monotonic()
        stale = [
            t
            for t, s in self._sessions.items()
            if not s.keep and now - s.last_seen > self.idle_timeout_s
        ]
        for token_hash in stale:
            del self._sessions[token_hash]
        return stale

    @property
    def session_count(self) -> int:
        return len(self._sessions)


def _locked_message(wait: float) -> str:
    return f"too many failed logins from this address; try again in {math.ceil(wait)} seconds"
