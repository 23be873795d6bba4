"""Reading the audit trail (:mod:`tilewall.host.audit`), checking its chain, and how long
its entries are kept."""

from tilewall.host import audit
from tilewall.host.audit import AuditEntry, AuditQuery, AuditRecord
from tilewall.host.errors import Invalid
from tilewall.host.ports import AuditStore
from tilewall.host.retention import DAY_MS, keep_days
from tilewall.host.state import Core

#: entries per page, at most
MAX_PAGE = 1000
RETENTION_SETTING = "audit_retention_days"
#: how the trail names its own pruning
RETENTION = "audit retention"


class AuditTrail:
    def __init__(self, core: Core, store: AuditStore | None) -> None:
        self._core = core
        self._store = store

    async def page(self, query: AuditQuery) -> tuple[list[AuditEntry], bool]:
        """The entries ``query`` asks for, newest first, and whether they are verified
        (a host without a store keeps none)."""
        if not 1 <= query.limit <= MAX_PAGE:
            raise Invalid(f"limit is 1 to {MAX_PAGE}")
        if (
            query.since_ms is not None
            and query.until_ms is not None
            and query.until_ms <= query.since_ms
        ):
            raise Invalid("until: must be after since")
        if self._store is None:
            return [], True
        return await self._store.audit_page(query)

    async def verify(self) -> int | None:
        """The id of the first entry that breaks the chain; None when it holds."""
        if self._store is None:
            return None
        return await self._store.verify_audit()

    # --- retention

    def retention_days(self) -> int:
        return self._core.setting(RETENTION_SETTING, int, audit.RETENTION_DAYS)

    async def set_retention_days(self, days: int) -> int:
        await keep_days(self._core, RETENTION_SETTING, days)
        await self.prune()
        return days

    async def prune(self) -> int:
        """Remove the entries older than the retention, as a whole prefix (what is kept
        still verifies from its first entry), with an entry saying so; how many went.
        First the lookup keys of entries not keyed yet are written (the active host's
        scheduler prunes when it starts, then every hour: a host stopped before it keyed
        its last entries leaves them to the next)."""
        if self._store is None:
            return 0
        await self._store.write_audit_keys()
        now_ms = self._core.clock.now_ms()
        days = self.retention_days()

        def noted(first: int, last: int) -> AuditRecord:
            removed = {"first": first, "last": last, "retentionDays": days}
            change = {"kind": "audit", "id": f"{first}-{last}", "name": "", "deleted": removed}
            actor = audit.Actor(audit.HOST)
            return audit.event(now_ms, actor, RETENTION, None, [change])

        return await self._store.prune_audit(now_ms - days * DAY_MS, noted)
