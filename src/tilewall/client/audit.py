"""The audit trail: who changed what, when, from where, and how it ended."""

from __future__ import annotations

from tilewall.client.base import Json, given
from tilewall.client.timelogs import TimeLog


class Audit(TimeLog):
    settings = "/audit/settings"

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
        params = given(
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
        params = given(since=since, until=until, user=user, target=target, operation=operation)
        return self._t.text("GET", "/audit.csv", params=params)
