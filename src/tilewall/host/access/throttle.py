"""Refusing password guessing: failed logins counted per address and per address and
user name, in bounded memory.

A few failures are free (people mistype). Past the threshold the key is locked for a
window; every further failure after the window has passed locks it again for twice as
long, up to a ceiling. While a key is locked a login is refused at once, without
checking the password, so guessing costs the host nothing and holds no connection.
A correct password clears its own address-and-user count; the address count is left to
fade, so one known account cannot be used to keep guessing at others. Counts are
forgotten after an hour without failures. Other addresses are never affected.
"""

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Policy:
    #: failures of one user name from one address before it is locked
    per_user: int = 5
    #: failures from one address (any user names) before the address is locked
    per_address: int = 20
    #: the first lock, in seconds; each further one doubles it
    first_lock_s: float = 30.0
    #: the longest lock
    max_lock_s: float = 900.0
    #: a key without failures for this long is forgotten
    forget_after_s: float = 3600.0
    #: keys kept per kind at most; the least recently failed are dropped first
    max_keys: int = 10_000


@dataclass
class _Count:
    failures: int = 0
    locks: int = 0
    last_failure: float = 0.0
    locked_until: float = 0.0


class _Counter:
    """Failures by key, least recently failed first, at most ``limit`` keys."""

    def __init__(self, free: int, policy: Policy, now: Callable[[], float]) -> None:
        self.free = free
        self.policy = policy
        self.now = now
        self.counts: OrderedDict[str, _Count] = OrderedDict()

    def _get(self, key: str) -> _Count | None:
        count = self.counts.get(key)
        if count is not None and self.now() - count.last_failure > self.policy.forget_after_s:
            del self.counts[key]
            return None
        return count

    def wait(self, key: str) -> float:
        """Seconds ``key`` stays locked; 0 when it may try."""
        count = self._get(key)
        if count is None:
            return 0.0
        left: float = count.locked_until - self.now()
        return max(0.0, left)

    def fail(self, key: str) -> float:
        """Count a failure; the lock it starts, in seconds (0 for none)."""
        now = self.now()
        count = self._get(key) or _Count()
        count.failures += 1
        count.last_failure = now
        self.counts[key] = count
        self.counts.move_to_end(key)
        while len(self.counts) > self.policy.max_keys:
            self.counts.popitem(last=False)
        if count.failures < self.free:
            return 0.0
        lock = min(self.policy.first_lock_s * 2.0**count.locks, self.policy.max_lock_s)
        count.locks += 1
        count.locked_until = now + lock
        return lock

    def clear(self, key: str) -> None:
        self.counts.pop(key, None)

    def __len__(self) -> int:
        return len(self.counts)


class LoginThrottle:
    def __init__(
        self, policy: Policy | None = None, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.policy = policy or Policy()
        self._addresses = _Counter(self.policy.per_address, self.policy, now)
        self._users = _Counter(self.policy.per_user, self.policy, now)

    @staticmethod
    def _user_key(address: str, user: str) -> str:
        return f"{address}\x00{user[:64]}"

    def retry_after(self, address: str, user: str) -> float:
        """Seconds before ``user`` may try from ``address``; 0 when the attempt may go on."""
        return max(self._addresses.wait(address), self._users.wait(self._user_key(address, user)))

    def record(self, address: str, user: str, ok: bool) -> float:
        """Count the outcome of a checked password; the lock a failure started (or 0)."""
        key = self._user_key(address, user)
        if ok:
            self._users.clear(key)
            return 0.0
        by_user = self._users.fail(key)
        by_address = self._addresses.fail(address)
        if by_address:
            log.warning(
                "failed logins: address %s locked for %.0f s after %d failures",
                address,
                by_address,
                self._addresses.counts[address].failures,
            )
        elif by_user:
            log.warning(
                "failed logins: user %r from %s locked for %.0f s after %d failures",
                user[:64],
                address,
                by_user,
                self._users.counts[key].failures,
            )
        else:
            log.info("failed login: user %r from %s", user[:64], address)
        return max(by_user, by_address)

    @property
    def tracked(self) -> int:
        """Keys held in memory, both kinds together."""
        return len(self._addresses) + len(self._users)
