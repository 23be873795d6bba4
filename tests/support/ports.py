"""Fakes of the host's ports: a store in memory that can be told to fail, and the
machine's simulated adapters (changes kept in the host's settings, nothing run)."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tilewall.host.access.roles import Account
from tilewall.host.audit import (
    GENESIS,
    AuditEntry,
    AuditQuery,
    AuditRecord,
    chain,
    first_bad,
)
from tilewall.host.errors import StoreFailed
from tilewall.host.machine.ports import SettingsStore
from tilewall.host.ports import Change
from tilewall.platform import Platform, platform_for
from tilewall.platform.runner import CommandResult


class MemoryStore:
    """Persistence in a dict. ``failing`` makes every write raise StoreFailed with that
    message, as a store on a full disk or a lost database would."""

    def __init__(self) -> None:
        self.documents: dict[str, dict[str, bytes]] = {}
        self.user_rows: dict[str, Account] = {}
        self.session_rows: dict[str, tuple[str, bool, int]] = {}
        self.failing: str | None = None
        self.commits = 0
        #: the audit trail, oldest first, and what its first entry follows
        self.audit: list[AuditEntry] = []
        self.audit_base = (0, GENESIS)

    def _check(self) -> None:
        if self.failing is not None:
            raise StoreFailed(self.failing)

    async def load_documents(self) -> dict[str, dict[str, bytes]]:
        return {kind: dict(docs) for kind, docs in self.documents.items()}

    def _append(self, records: Sequence[AuditRecord]) -> None:
        if self.audit:
            last = self.audit[-1]
            self.audit += chain(records, last.id, last.hash, last.record.at_ms)
        else:
            self.audit += chain(records, *self.audit_base)

    async def apply(self, changes: Iterable[Change], audit: Sequence[AuditRecord] = ()) -> None:
        self._check()
        self._append(audit)
        for change in changes:
            docs = self.documents.setdefault(change.kind, {})
            if change.body is None:
                docs.pop(change.key, None)
            else:
                docs[change.key] = change.body
        self.commits += 1

    async def users(self) -> dict[str, Account]:
        return dict(self.user_rows)

    async def put_user(
        self, name: str, account: Account, audit: Sequence[AuditRecord] = ()
    ) -> None:
        self._check()
        self._append(audit)
        self.user_rows[name] = account

    async def delete_user(self, name: str, audit: Sequence[AuditRecord] = ()) -> bool:
        self._check()
        self._append(audit)
        return self.user_rows.pop(name, None) is not None

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        return [(t, u, k, c) for t, (u, k, c) in self.session_rows.items()]

    async def put_session(
        self,
        token_hash: str,
        user: str,
        keep: bool,
        now_ms: int,
        audit: Sequence[AuditRecord] = (),
    ) -> None:
        self._check()
        self._append(audit)
        self.session_rows[token_hash] = (user, keep, now_ms)

    async def delete_sessions(
        self, token_hashes: Iterable[str], audit: Sequence[AuditRecord] = ()
    ) -> None:
        self._check()
        self._append(audit)
        for token_hash in token_hashes:
            self.session_rows.pop(token_hash, None)

    async def append_audit(self, records: Sequence[AuditRecord]) -> None:
        self._check()
        self._append(records)

    async def audit_page(self, query: AuditQuery) -> tuple[list[AuditEntry], bool]:
        newest = [e for e in reversed(self.audit) if query.before is None or e.id < query.before]
        return newest[: query.limit], True

    async def verify_audit(self) -> int | None:
        return first_bad(self.audit, self.audit_base, None)

    async def write_audit_keys(self) -> int:
        return 0  # its pages are read from memory: nothing to key

    async def prune_audit(
        self, before_ms: int, noted: Callable[[int, int], AuditRecord] | None = None
    ) -> int:
        self._check()
        kept = next((n for n, e in enumerate(self.audit) if e.record.at_ms >= before_ms), None)
        gone = self.audit[: len(self.audit) if kept is None else kept]
        if not gone:
            return 0
        self.audit_base = (gone[-1].id, gone[-1].hash)
        del self.audit[: len(gone)]
        if noted is not None:
            self._append([noted(gone[0].id, gone[-1].id)])
        return len(gone)

    async def close(self) -> None:
        pass


class RefusingRunner:
    """A command runner for simulated adapters: the domain's tests run no command."""

    async def run(self, argv: Sequence[str], *, timeout: float = 60.0) -> CommandResult:
        raise AssertionError(f"a domain test ran a command: {argv}")


def simulated_machine(settings: SettingsStore) -> Platform:
    return platform_for(False, settings, RefusingRunner())


class FailingWrites:
    """Wraps a host's real store: while ``failing``, every write raises StoreFailed (as
    a full disk or a lost database would) and writes nothing; reads go through."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def _check(self) -> None:
        if self.failing:
            raise StoreFailed("the host's store cannot write (test): nothing was changed")

    async def apply(self, changes: Iterable[Change], audit: Sequence[AuditRecord] = ()) -> None:
        self._check()
        await self.real.apply(changes, audit)

    async def put_session(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        await self.real.put_session(*args, **kwargs)

    async def delete_sessions(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        await self.real.delete_sessions(*args, **kwargs)

    async def append_audit(self, records: Sequence[AuditRecord]) -> None:
        self._check()
        await self.real.append_audit(records)
