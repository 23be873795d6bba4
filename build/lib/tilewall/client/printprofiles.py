"""Print profiles, one per print queue."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilewall.client.base import ApiError, Items, Json, Resource, seg

KEY = "printProfiles"


class PrintProfiles(Resource):
    def list(self) -> Items:
        return self._t.array("GET", "/printprofiles", KEY)

    def get(self, queue: str) -> Json:
        """The profile of one queue."""
        profiles = self._t.array("GET", "/printprofiles" + seg(queue), KEY)
        if not profiles:
            raise ApiError(404, f"no print profile for queue {queue!r}")
        return profiles[0]

    def save(self, profiles: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Items:
        """Create profiles, or update those of the same ``queueName`` (all or none).
        Fields may be given under either of their names (``print_dialog`` or
        ``showDialog``); what a profile leaves out keeps its value."""
        items = [profiles] if isinstance(profiles, Mapping) else list(profiles)
        return self._t.array("POST", "/printprofiles", KEY, json={KEY: [dict(p) for p in items]})

    def delete(self, queue: str) -> Json:
        return self._t.json("DELETE", "/printprofiles" + seg(queue))
