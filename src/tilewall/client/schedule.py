"""Scheduled events and the play log (tilewall extensions).

An event is a dict as the host takes it: ``name``, ``start`` (local
``YYYY-MM-DDTHH:MM:SS``), optional ``timeZone``, ``end`` or ``durationSeconds``,
``recurrence`` (an RFC 5545 RRULE), ``exdates``, ``priority``, ``enabled`` and an
``action`` (``{"kind": "switch", "zoneName": ..., "sourceName": ...}``, ``recallPreset``,
``broadcast`` or ``power``). Times of windows are ISO 8601 strings; without an offset
the host reads them in its own time zone.
"""

from __future__ import annotations

from tilewall.client.base import Items, Json, Resource, given, seg
from tilewall.client.timelogs import TimeLog


class Schedule(Resource):
    def list(self) -> Items:
        """Every event, with its next start and how it last ran."""
        return self._t.array("GET", "/schedule", "events")

    def occurrences(self, start: str, end: str | None = None) -> Items:
        """Occurrences that start in ``[start, end)`` (a week when ``end`` is left out)
        or are running at ``start``."""
        params = given(**{"from": start, "to": end})
        return self._t.array("GET", "/schedule", "occurrences", params=params)

    def get(self, event_id: str) -> Json:
        return self._t.json("GET", f"/schedule{seg(event_id)}")

    def create(self, event: Json) -> Json:
        """Create an event; the host's answer has its ``id``."""
        return self._t.json("POST", "/schedule", json=event)

    def replace(self, event_id: str, event: Json) -> Json:
        return self._t.json("PUT", f"/schedule{seg(event_id)}", json=event)

    def delete(self, event_id: str) -> Json:
        return self._t.json("DELETE", f"/schedule{seg(event_id)}")


class PlayLog(TimeLog):
    settings = "/playlog/settings"

    def entries(
        self,
        since: str | None = None,
        until: str | None = None,
        display_id: int | None = None,
        limit: int | None = None,
    ) -> Items:
        """Plays that overlap the window, oldest first."""
        params = given(since=since, until=until, displayId=display_id, limit=limit)
        return self._t.array("GET", "/playlog", "entries", params=params)

    def csv(
        self,
        since: str | None = None,
        until: str | None = None,
        display_id: int | None = None,
        limit: int | None = None,
    ) -> str:
        """The same plays as CSV."""
        params = given(since=since, until=until, displayId=display_id, limit=limit)
        return self._t.text("GET", "/playlog.csv", params=params)
