"""Errors of the machine adapters, as kinds of the host's errors.

Each subclasses one kind from :mod:`tilewall.host.errors`, so the interface layer maps
them to HTTP statuses without knowing the adapters.
"""

from tilewall.host.errors import Busy, Invalid, Unavailable


class InvalidSetting(Invalid, ValueError):
    """A requested machine setting is not acceptable; nothing was changed."""


class MachineBusy(Busy):
    """An earlier change is still being applied to the machine."""


class CommandFailed(Unavailable):
    """A command that changes the machine did not succeed."""

    def __init__(self, argv: list[str], returncode: int, stderr: str) -> None:
        detail = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit status {returncode}"
        super().__init__(f"{argv[0]} failed: {detail}")
        self.argv = argv
        self.returncode = returncode
        self.stderr = stderr
