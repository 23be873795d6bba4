"""Fakes of the host's ports: a store in memory that can be told to fail, and the
machine's simulated adapters (changes kept in the host's settings, nothing run)."""

from collections.abc import Iterable, Sequence

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
        self.user_hashes: dict[str, str] = {}
        self.session_rows: dict[str, tuple[str, bool, int]] = {}
        self.failing: str | None = None
        self.commits = 0

    def _check(self) -> None:
        if self.failing is not None:
            raise StoreFailed(self.failing)

    async def load_documents(self) -> dict[str, dict[str, bytes]]:
        return {kind: dict(docs) for kind, docs in self.documents.items()}

    async def apply(self, changes: Iterable[Change]) -> None:
        self._check()
        for change in changes:
            docs = self.documents.setdefault(change.kind, {})
            if change.body is None:
                docs.pop(change.key, None)
            else:
                docs[change.key] = change.body
        self.commits += 1

    async def users(self) -> dict[str, str]:
        return dict(self.user_hashes)

    async def put_user(self, name: str, password_hash: str, now_ms: int) -> None:
        self._check()
        self.user_hashes[name] = password_hash

    async def delete_user(self, name: str) -> bool:
        self._check()
        return self.user_hashes.pop(name, None) is not None

    async def sessions(self) -> list[tuple[str, str, bool, int]]:
        return [(t, u, k, c) for t, (u, k, c) in self.session_rows.items()]

    async def put_session(self, token_hash: str, user: str, keep: bool, now_ms: int) -> None:
        self._check()
        self.session_rows[token_hash] = (user, keep, now_ms)

    async def delete_sessions(self, token_hashes: Iterable[str]) -> None:
        self._check()
        for token_hash in token_hashes:
            self.session_rows.pop(token_hash, None)

    async def close(self) -> None:
        pass


class RefusingRunner:
    """A command runner for simulated adapters: the domain's tests run no command."""

    async def run(self, argv: Sequence[str], *, timeout: float = 60.0) -> CommandResult:
        raise AssertionError(f"a domain test ran a command: {argv}")


def simulated_machine(settings: SettingsStore) -> Platform:
    return platform_for(False, settings, RefusingRunner())
