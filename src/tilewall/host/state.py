"""The host's state in memory, and the one way to change it: a durable transaction
(committed in batches, :mod:`tilewall.host.commit`)."""

import asyncio
import contextvars
import copy
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import msgspec

from tilewall.host.commit import BatchedCommits, CommitObserver, Documents
from tilewall.host.documents import (
    COLLECTIONS,
    SETTING,
)
from tilewall.host.memory import Event, State, Transaction
from tilewall.host.ports import Clock, DocumentStore

log = logging.getLogger(__name__)

T = TypeVar("T")

#: set while the current task is inside :meth:`Core.change`; the lock is not re-entrant
_IN_CHANGE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_change", default=False)

Listener = Callable[[Event], None]
#: (seat id, command name), e.g. ("seat-1", "reset")
CommandListener = Callable[[str, str], None]
#: looks at a change before it is committed; raises a HostError to refuse all of it
Check = Callable[[Transaction], None]


class Core:
    """State, clock, store and listeners, shared by every service of the host."""

    def __init__(self, store: DocumentStore | None, clock: Clock) -> None:
        self.state = State()
        self.store = store
        self.clock = clock
        self._listeners: list[Listener] = []
        self._command_listeners: list[CommandListener] = []
        self._checks: list[Check] = []
        #: every document as last committed; what memory returns to when a change fails
        self.documents = Documents(self.state)
        #: told (seconds, committed, changes) after each store commit of a batch of
        #: changes, for metrics
        self.commit_observers: list[CommitObserver] = []
        self._commits = BatchedCommits(
            self.documents,
            lambda: self.store,
            self._announce,
            self.commit_observers,
            lambda: self.clock.now_ms(),  # the clock may be replaced (tests stop it)
        )
        self._notices = 0
        #: resolved when the revision next moves: one future however many wait on it
        self._next_move: asyncio.Future[None] | None = None
        self.documents.moved = self._revision_moved

    @property
    def revision(self) -> int:
        """Moves whenever what readers see may have changed (a change installed or taken
        back, an announcement): views encoded once per revision key on it."""
        return self.documents.revision + self._notices

    async def revision_moved(self, after: int) -> int:
        """Wait until :attr:`revision` is past ``after`` (at once if it is); the revision
        then. Waiting costs nothing while nothing changes: every waiter shares one future,
        resolved when the revision moves."""
        while self.revision == after:
            if self._next_move is None:
                self._next_move = asyncio.get_running_loop().create_future()
            # shielded: a waiter that gives up does not cancel the others' future
            await asyncio.shield(self._next_move)
        return self.revision

    def _revision_moved(self) -> None:
        move, self._next_move = self._next_move, None
        if move is not None and not move.done():
            move.set_result(None)

    async def load(self) -> None:
        if self.store is None:
            return
        documents = await self.store.load_documents()
        for kind, docs in documents.items():
            for key, body in docs.items():
                self.documents.committed((kind, key), body)
        self.documents.settled()

    async def absorb(self, documents: Mapping[tuple[str, str], bytes | None]) -> None:
        """Install documents another member of the group committed (None: deleted) and
        announce them; nothing is written. A standby follows its active member so."""
        if not documents:
            return
        async with self._commits.exclusive():
            for (kind, key), body in documents.items():
                if kind != SETTING and kind not in COLLECTIONS:
                    log.warning("ignoring a document of unknown kind %r", kind)
                    continue
                try:
                    self.documents.committed((kind, key), body)
                except msgspec.DecodeError as error:
                    log.error("ignoring document %s/%s: %s", kind, key, error)
            self.documents.settled()
        self.notify(None, topology=True)

    async def replace(self, documents: Mapping[str, Mapping[str, bytes]]) -> None:
        """Make ``documents`` (by kind, then key) the whole state, as :meth:`absorb`
        does: what differs from memory is installed, what is gone is removed."""
        wanted = {
            (kind, key): body for kind, docs in documents.items() for key, body in docs.items()
        }
        committed = self.documents.bodies
        changed: dict[tuple[str, str], bytes | None] = {
            name: body for name, body in wanted.items() if committed.get(name) != body
        }
        changed.update({name: None for name in committed if name not in wanted})
        await self.absorb(changed)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def check_changes(self, check: Check) -> None:
        """Run ``check`` on every change before it is committed (say, to refuse deleting
        what something else still names)."""
        self._checks.append(check)

    def on_command(self, listener: CommandListener) -> Callable[[], None]:
        self._command_listeners.append(listener)
        return lambda: self._command_listeners.remove(listener)

    def command(self, seat_id: str, name: str) -> None:
        """Ask a receiver to do something that is not state (reset, reload)."""
        for listener in list(self._command_listeners):
            try:
                listener(seat_id, name)
            except Exception:
                log.exception("command listener failed")

    def setting(self, name: str, type_: type[T], default: T) -> T:
        """A setting decoded as ``type_``; settings are stored as plain JSON values."""
        raw = self.state.settings.get(name)
        if raw is None:
            return default
        return msgspec.convert(raw, type_)

    @asynccontextmanager
    async def change(self) -> AsyncIterator[Transaction]:
        """Make a change: all of it, or nothing; answered once it is durable.

        The block changes the live state through the transaction, without awaiting,
        after the changes waiting to be committed before it (it sees them). When it
        exits, memory goes back to what is committed (readers never see a change that
        is not durable) and the change waits for its batch to be committed in one store
        transaction with the changes made meanwhile; once that has committed, the
        change is installed and announced (:mod:`tilewall.host.commit`). If the block
        or a check raises, or the store fails
        (:class:`~tilewall.host.errors.StoreFailed`, for the whole batch), memory
        holds nothing of the change and the error propagates.
        """
        if _IN_CHANGE.get():
            raise RuntimeError(
                "Core.change() entered again from inside a change: it would deadlock"
            )
        commits = self._commits
        await commits.begin()
        tx = Transaction(self.state)
        try:
            generation = self.state.mapping_generation
            token = _IN_CHANGE.set(True)
            try:
                yield tx
                for check in self._checks:
                    check(tx)
            finally:
                _IN_CHANGE.reset(token)
            if tx.mapping:
                tx.put_setting("mapping_generation", generation + 1)
        except BaseException:
            commits.end(tx, refused=True)
            raise
        answer = commits.end(tx, refused=False)
        if answer is None:
            self._announce(tx)
        else:
            await answer

    async def settle(self) -> None:
        """Wait until every change made so far is committed (or has failed)."""
        await self._commits.settled()

    def _announce(self, tx: Transaction) -> None:
        if tx.displays or tx.all_displays or tx.topology:
            self.notify(None if tx.all_displays else frozenset(tx.displays), tx.topology)

    def notify(self, displays: frozenset[int] | None, topology: bool = False) -> None:
        """Tell listeners what changed; also for changes that are not stored (liveness)."""
        self._notices += 1
        self._revision_moved()
        event = Event(displays, topology)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("event listener failed")


class CoreSettings:
    """The machine adapters' :class:`~tilewall.host.ports.SettingsStore`, kept in the
    host's durable settings: a simulated host name or time zone survives a restart.

    ``put`` is a change of its own (it takes the host's lock), so adapters must not be
    called from inside :meth:`Core.change`; doing so raises instead of deadlocking.
    """

    def __init__(self, core: Core) -> None:
        self._core = core

    def get(self, name: str) -> Any | None:
        # copies, so callers cannot change the host's state by mutating what they read
        return copy.deepcopy(self._core.state.settings.get(name))

    async def put(self, name: str, value: Any) -> None:
        async with self._core.change() as tx:
            tx.put_setting(name, value)
