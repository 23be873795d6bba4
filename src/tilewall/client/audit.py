"""The audit trail: who changed what, when, from where, and how it ended."""

from __future__ import annotations

from typing import Any

from tilewall.client.base import Json, Transport


def _params(**given: Any) -> dict[str, Any]:
    return {name: value for name, value in given.items() if value is not None}


class Audit:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def page(
        self,
        since: str | None = None,
        until: str | None = None,
        user: str | None = None,
        target: str | None = None,
        operation: str | None = None,
        before: int | None = None,
        limit: int | None = None,
    ) -> Json:
        """A page of entries, newest first: ``{"entries", "next", "verified"}``; pass
        ``next`` as ``before`` for the next page."""
        params = _params(
            since=since,
            until=until,
            user=user,
            target=target,
            operation=operation,
            before=before,
            limit=limit,
        )
        return self._t.json("GET", "/audit", params=params)

    def csv(
        self,
        since: str | None = None,
        until: str | None = None,
        user: str | None = None,
        target: str | None = None,
        operation: str | None = None,
    ) -> str:
        """Every entry that matches, newest first, as CSV."""
        params = _params(since=since, until=until, user=user, target=target, operation=operation)
        return self._t.text("GET", "/audit.csv", params=params)

    def retention_days(self) -> int:
        return int(self._t.json("GET", "/audit/settings")["retentionDays"])

    def set_retention_days(self, days: int) -> int:
        """Keep entries ``days`` days (the oldest are removed now)."""
        answer = self._t.json("PUT", "/audit/settings", json={"retentionDays": days})
        return int(answer["retentionDays"])
