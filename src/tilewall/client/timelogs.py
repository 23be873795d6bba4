"""What the client's two logs, the play log and the audit trail, share: the setting of
how many days are kept."""

from __future__ import annotations

from tilewall.client.base import Resource


class TimeLog(Resource):
    """A log that forgets what is older than its retention."""

    #: the path of its retention setting
    settings = ""

    def retention_days(self) -> int:
        return int(self._t.json("GET", self.settings)["retentionDays"])

    def set_retention_days(self, days: int) -> int:
        """Keep ``days`` days (what is older is removed now)."""
        answer = self._t.json("PUT", self.settings, json={"retentionDays": days})
        return int(answer["retentionDays"])
