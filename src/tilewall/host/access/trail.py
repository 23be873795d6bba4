"""Reading the audit trail (:mod:`tilewall.host.audit`) and checking its chain."""

from tilewall.host.audit import AuditEntry, AuditQuery
from tilewall.host.errors import Invalid
from tilewall.host.ports import AuditStore

#: entries per page, at most
MAX_PAGE = 1000


class AuditTrail:
    def __init__(self, store: AuditStore | None) -> None:
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
            raise Invalid("until must be after since")
        if self._store is None:
            return [], True
        return await self._store.audit_page(query)

    async def verify(self) -> int | None:
        """The id of the first entry that breaks the chain; None when it holds."""
        if self._store is None:
            return None
        return await self._store.verify_audit()
