"""Batched commits (what databases call group commit): how the changes of
:meth:`tilewall.host.state.Core.change` become the host's state, many at a time and each
of them all or nothing.

1. **One change at a time, on memory.** A change runs under the host's lock (its turn)
   on memory that holds what is committed *plus the changes queued for the next write*,
   so each change sees every change before it. When its block and the checks have run,
   memory goes back to what is committed: readers never see a change that the store has
   not committed. A change refused (its block or a check raises) is taken out of memory
   and fails alone; the changes queued before it go on. What a change writes is decoded
   afresh when memory goes back (its block may have changed objects in place, queued
   ones too), so each queued change installs exactly what it wrote.
2. **One transaction per batch.** Nothing is being written: the first change queued
   starts a writer, which takes every change queued by the time it runs as one batch
   and writes it with one :meth:`~tilewall.host.ports.DocumentStore.apply` (one
   transaction: one fsync on SQLite, one fenced, logged and announced transaction on
   PostgreSQL). Changes that come while a batch is written wait for it (they run on what
   it committed) and form the next batch.
   The batch's transaction also writes the audit entry of each change
   (:func:`tilewall.host.audit.record_of_change`: who, as the change's caller's context
   says, and the before and after of what it changed), so a change is never durable
   without its entry, nor an entry without its change.
3. **Answered after the commit.** Once the store has committed, each change of the batch
   is installed in memory and announced, in order, in its caller's context (so what
   listeners read there, such as the play log's trigger, is the caller's); then every
   caller is answered. If the store fails, every change of the batch fails with the
   store's error (:class:`~tilewall.host.errors.StoreFailed`: 503), memory holds none of
   them and nothing is announced. A caller cancelled while its batch is written is not
   answered; its change is committed, or not, with the batch.

A change must not await inside its block: the turn, and memory's extra layer of queued
changes, last only while the block runs without yielding.
"""

import asyncio
import contextvars
import time
from collections.abc import AsyncIterator, Callable, Collection, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from tilewall.host.audit import AuditRecord, record_of_change
from tilewall.host.documents import SETTING, Name, decode, memory_key
from tilewall.host.memory import State, Transaction
from tilewall.host.ports import Change, DocumentStore

#: at most this many changes wait for one write; more wait for the next one
MAX_BATCH = 256
#: a document that memory does not hold
ABSENT: Any = object()

#: told (seconds, committed, changes) after each write of a batch of changes
CommitObserver = Callable[[float, bool, int], None]


class Documents:
    """The body of every document as the store last committed it, and memory's way back
    to it."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.bodies: dict[Name, bytes] = {}
        #: moves whenever memory's documents may have changed (installed, taken back)
        self.revision = 0
        #: called each time the revision moves
        self.moved: Callable[[], None] = lambda: None

    def get(self, name: Name) -> Any:
        """What memory holds for ``name`` (:data:`ABSENT` if nothing)."""
        kind, key = name
        if kind == SETTING:
            return self.state.settings.get(key, ABSENT)
        return self.state.collection(kind).get(memory_key(kind, key), ABSENT)

    def put(self, name: Name, value: Any) -> None:
        """Make memory hold ``value`` for ``name`` (:data:`ABSENT`: remove it)."""
        kind, key = name
        if kind == SETTING:
            target: dict[Any, Any] = self.state.settings
            slot: Any = key
        else:
            target = self.state.collection(kind)
            slot = memory_key(kind, key)
        if value is ABSENT:
            target.pop(slot, None)
        else:
            target[slot] = value

    def committed(self, name: Name, body: bytes | None) -> None:
        """``body`` is committed for ``name`` (None: deleted); memory holds it now. Raises
        msgspec.DecodeError (a body of an unknown kind: KeyError), changing nothing."""
        if body is None:
            self.put(name, ABSENT)
            self.bodies.pop(name, None)
        else:
            self.put(name, decode(name[0], body))
            self.bodies[name] = body

    def restore(self, names: Iterable[Name]) -> None:
        """Memory holds what is committed for each of ``names``, decoded afresh (a
        change may have changed the objects it held in place)."""
        for name in names:
            body = self.bodies.get(name)
            self.put(name, ABSENT if body is None else decode(name[0], body))
        self.revision += 1
        self.moved()

    def install(self, tx: Transaction) -> None:
        """The committed change ``tx`` is the host's state now."""
        bodies = self.bodies
        for name, value in tx.values.items():
            body = tx.changes[name]
            if body is None:
                bodies.pop(name, None)
            else:
                bodies[name] = body
            self.put(name, ABSENT if value is None else value)
        self.settled()

    def settled(self) -> None:
        """Memory's documents changed: derive what is derived from them again."""
        state = self.state
        state.mapping_generation = int(state.settings.get("mapping_generation", 0))
        state.topology_version += 1
        self.revision += 1
        self.moved()


@dataclass(eq=False, slots=True)
class _Queued:
    tx: Transaction
    #: the caller's context, where its change is announced
    context: contextvars.Context
    answer: "asyncio.Future[None]"


class BatchedCommits:
    """Turns, the queue of changes waiting to be written, and the writer."""

    def __init__(
        self,
        documents: Documents,
        store: Callable[[], DocumentStore | None],
        announce: Callable[[Transaction], None],
        observers: list[CommitObserver],
        now_ms: Callable[[], int],
    ) -> None:
        self._documents = documents
        self._now_ms = now_ms
        self._store = store
        self._announce = announce
        self._observers = observers
        self._lock = asyncio.Lock()
        #: set while a turn may start: no batch is being written, the queue is not full
        self._open = asyncio.Event()
        self._open.set()
        self._queue: list[_Queued] = []
        #: the latest (value, body) the queued changes give each document they change
        self._latest: dict[Name, tuple[Any, bytes | None]] = {}
        #: what memory held for each document the queued changes were laid over
        self._under: dict[Name, Any] = {}
        self._writer: asyncio.Task[None] | None = None

    # --- turns ----------------------------------------------------------------------------

    async def _acquire(self) -> None:
        while True:
            while not self._open.is_set():
                await self._open.wait()
            await self._lock.acquire()
            if self._open.is_set():
                return
            self._lock.release()

    async def begin(self) -> None:
        """Wait for a turn; memory then holds what is committed and the queued changes."""
        await self._acquire()
        if self._latest:
            for name, (value, _) in self._latest.items():
                self._under[name] = self._documents.get(name)
                self._documents.put(name, ABSENT if value is None else value)
            self._documents.settled()

    def end(self, tx: Transaction, refused: bool) -> "asyncio.Future[None] | None":
        """End the turn of ``tx``; memory holds what is committed again. ``tx`` is queued
        unless it was ``refused`` or changes nothing; returns the future its caller is
        answered by, or None if there is nothing to wait for (nothing to write, or no
        store: ``tx`` is installed already)."""
        try:
            under, self._under = self._under, {}
            for name, value in under.items():
                if name not in tx.changes:
                    self._documents.put(name, value)
            # what the change wrote is decoded afresh: its block may have changed the
            # objects memory held in place (refused or not, none of it is committed)
            self._documents.restore(tx.changes)
            # and so may it have changed queued ones: what each queued change installs
            # is decoded again from what it writes
            shared = [name for name in tx.changes if name in under]
            if shared:
                self._refresh_queue(shared)
            if under or tx.changes:
                self._documents.settled()
            if refused or not tx.changes:
                return None
            if self._store() is None:
                self._documents.install(tx)
                return None
            return self._enqueue(tx)
        finally:
            self._lock.release()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """A turn without the queued changes in memory, for installing documents that are
        committed already (a standby following its active member)."""
        await self._acquire()
        try:
            yield
        finally:
            self._lock.release()

    def _enqueue(self, tx: Transaction) -> "asyncio.Future[None]":
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[None] = loop.create_future()
        self._queue.append(_Queued(tx, contextvars.copy_context(), answer))
        for name, body in tx.changes.items():
            self._latest[name] = (tx.values[name], body)
        if len(self._queue) >= MAX_BATCH:
            self._open.clear()
        if self._writer is None:
            self._writer = loop.create_task(self._write(), name="group-commit")
        return answer

    def _refresh_queue(self, names: Collection[Name]) -> None:
        """Decode what the queued changes install for ``names`` again from what they
        write, so that no change holds an object a later one changed."""
        for queued in self._queue:
            tx = queued.tx
            for name, body in tx.changes.items():
                if name in names:
                    tx.values[name] = None if body is None else decode(name[0], body)
                    self._latest[name] = (tx.values[name], body)

    # --- the writer ---------------------------------------------------------------------

    async def _write(self) -> None:
        """Write every queued change in one transaction; install, announce, answer."""
        batch: list[_Queued] = []
        try:
            async with self._lock:  # no turn is in progress
                batch, self._queue = self._queue, []
                latest, self._latest = self._latest, {}
                self._open.clear()
            error = await self._commit(latest, len(batch), self._records(batch))
            if error is None:
                for queued in batch:
                    self._documents.install(queued.tx)
                    queued.context.run(self._announce, queued.tx)
            for queued in batch:
                if queued.answer.done():
                    continue
                if error is None:
                    queued.answer.set_result(None)
                else:
                    queued.answer.set_exception(error)
        except BaseException:
            # cancelled (the loop is closing): nobody is answered, nothing is installed
            for queued in [*batch, *self._queue]:
                queued.answer.cancel()
            self._queue, self._latest = [], {}
            raise
        finally:
            self._writer = None
            self._open.set()
            if self._queue:  # only if a change took a turn it should not have had
                self._writer = asyncio.get_running_loop().create_task(self._write())

    def _records(self, batch: list[_Queued]) -> list[AuditRecord]:
        """The audit entry of each change of ``batch``, in order: each one's before is
        what is committed under it, with the changes queued before it laid over."""
        at_ms = self._now_ms()
        laid: dict[Name, bytes | None] = {}
        committed = self._documents.bodies
        records = []
        for queued in batch:
            changes = queued.tx.changes
            before = {name: laid[name] if name in laid else committed.get(name) for name in changes}
            record = record_of_change(at_ms, before, changes, queued.context)
            if record is not None:
                records.append(record)
            laid.update(changes)
        return records

    async def _commit(
        self,
        latest: dict[Name, tuple[Any, bytes | None]],
        count: int,
        records: list[AuditRecord],
    ) -> Exception | None:
        """Write ``latest`` (of ``count`` changes) and their audit ``records`` in one
        transaction; the error if the store failed."""
        store = self._store()
        if store is None:
            return None
        changes = [Change(kind, key, body) for (kind, key), (_, body) in latest.items()]
        started = time.perf_counter()
        committed = False
        try:
            await store.apply(changes, records)
            committed = True
        except Exception as error:
            return error
        finally:
            for observer in self._observers:
                observer(time.perf_counter() - started, committed, count)
        return None

    async def settled(self) -> None:
        """Wait until no change is queued or being written."""
        while self._writer is not None:
            await asyncio.wait({self._writer})
