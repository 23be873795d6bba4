"""tilewall: an open host for displays and video walls."""

from typing import Any

__version__ = "0.1.0"
INTERFACE_VERSION = "1.9"


class LazyConsole:
    """rich's console on standard error, made when first printed to (rich is not needed
    to serve, and importing it costs start-up time)."""

    def __init__(self) -> None:
        self._console: Any = None

    def print(self, *objects: Any, **options: Any) -> None:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=True)
        self._console.print(*objects, **options)
