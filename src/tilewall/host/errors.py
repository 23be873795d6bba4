"""Domain errors. The interface layer maps each kind to one HTTP status."""


class HostError(Exception):
    """A request the host refuses; ``str(error)`` is the message shown to clients."""


class NotFound(HostError):
    """The addressed object does not exist."""


class Invalid(HostError):
    """The request is malformed or names values the host does not accept."""


class Forbidden(HostError):
    """The licence does not allow what was asked."""


class Conflict(HostError):
    """The request is well formed but the current state does not allow it."""


class Busy(HostError):
    """An earlier change is still being applied."""


class Unavailable(HostError):
    """A device or service the request needs cannot be reached."""


class Failed(HostError):
    """A change was accepted but could not be carried out (the message says why)."""


class TooManyAttempts(HostError):
    """Too many failed logins from this address (or for this user from it): refused,
    without checking, until ``retry_after_s`` have passed."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class StoreFailed(Unavailable):
    """The store could not commit a change (disk full, I/O error, database gone).

    Nothing of the change was applied; the same request succeeds once the store works.
    """


class StoreFull(StoreFailed):
    """The store could not commit a change because its disk is full."""


class NotActive(StoreFailed):
    """The host is a standby of its group (or has just lost the active role): it does
    not write; the message names the active host where one is known."""
