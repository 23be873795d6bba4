"""Where the simulated adapters keep the machine state they pretend to have changed."""

import copy
from typing import Any

from tilewall.host.machine.ports import SettingsStore

__all__ = ["MemorySettingsStore", "SettingsStore"]


class MemorySettingsStore:
    """A settings store that lives as long as the process; for tests and demos."""

    def __init__(self, values: dict[str, Any] | None = None) -> None:
        self.values: dict[str, Any] = dict(values or {})

    def get(self, name: str) -> Any | None:
        # copies, so callers cannot change stored state by mutating what they read
        return copy.deepcopy(self.values.get(name))

    async def put(self, name: str, value: Any) -> None:
        if value is None:
            self.values.pop(name, None)
        else:
            self.values[name] = copy.deepcopy(value)
