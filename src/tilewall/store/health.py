"""How a store reports that it cannot write: the host's kinds of failure, and a log that
names the cause once per outage rather than once per refused write."""

import errno
import logging

import sqlalchemy as sa

from tilewall.host.errors import StoreFailed, StoreFull

log = logging.getLogger("tilewall.store")

#: what a database driver or the disk under it raises when a write cannot be made: the
#: database's own errors (translated by SQLAlchemy), and the system's (a refused or
#: timed-out connection, a full disk)
FAILURES: tuple[type[BaseException], ...] = (sa.exc.SQLAlchemyError, OSError)


def is_full(error: BaseException) -> bool:
    """Whether ``error`` (or one of its causes) says the disk is full."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno == errno.ENOSPC:
            return True
        text = str(seen)
        if "disk is full" in text or "No space left" in text:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def describe(error: BaseException) -> str:
    """The cause of ``error`` in one line, without the statement or its parameters."""
    cause = error.orig if isinstance(error, sa.exc.DBAPIError) and error.orig else error
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0]}" if text and text[0] else type(cause).__name__


class Health:
    """Logs the first failure of an outage with its cause, and the recovery; the
    failures in between are counted, so a full disk or a database that is gone does not
    flood the log."""

    def __init__(self) -> None:
        self.failures = 0

    def failed(self, error: BaseException) -> StoreFailed:
        """The host's kind of failure for ``error``, logged if it starts an outage."""
        if self.failures == 0:
            log.error("the store cannot write: %s", describe(error))
        self.failures += 1
        if is_full(error):
            return StoreFull("the host's disk is full: nothing was changed; free space and retry")
        kind = type(getattr(error, "orig", None) or error).__name__
        return StoreFailed(f"the host's store cannot write ({kind}): nothing was changed")

    def succeeded(self) -> None:
        if self.failures:
            log.warning("the store writes again after %d failed writes", self.failures)
            self.failures = 0
