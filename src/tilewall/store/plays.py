"""The play log in its own table, beside the documents: it grows with every change of
what displays play, so it is queried by window and pruned, never loaded whole.

The statements are plain SQLAlchemy Core, the same for every dialect the store speaks.
"""

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa

from tilewall.host.errors import StoreFailed
from tilewall.host.ports import Play
from tilewall.store import tables
from tilewall.store.engine import AsyncConnection, AsyncEngine
from tilewall.store.health import FAILURES
from tilewall.store.sql import write_turn


class PlayRecords:
    """The host's :class:`~tilewall.host.ports.PlayLogStore` on the store's engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    @asynccontextmanager
    async def _connection(self, write: bool) -> AsyncIterator[AsyncConnection]:
        try:
            if write:
                async with write_turn(self._engine), self._engine.begin() as conn:
                    yield conn
            else:
                async with self._engine.connect() as conn:
                    yield conn
        except FAILURES as error:
            raise StoreFailed(
                f"the play log cannot be {'written' if write else 'read'} ({type(error).__name__})"
            ) from error

    async def put_plays(self, plays: Sequence[Play]) -> None:
        if not plays:
            return
        table = tables.plays
        latest = {play.id: play for play in plays}
        rows = [
            {
                "id": p.id,
                "display_id": p.display_id,
                "source_id": p.source_id,
                "source_name": p.source_name,
                "start_ms": p.start_ms,
                "end_ms": p.end_ms,
                "trigger": p.trigger,
                "cause": p.cause,
            }
            for p in latest.values()
        ]
        ids = list(latest)
        async with self._connection(write=True) as conn:
            for at in range(0, len(ids), 500):
                await conn.execute(sa.delete(table).where(table.c.id.in_(ids[at : at + 500])))
            await conn.execute(sa.insert(table), rows)

    @staticmethod
    def _play(row: Any) -> Play:
        values = row._mapping
        return Play(
            values["id"],
            int(values["display_id"]),
            values["source_id"],
            values["source_name"],
            int(values["start_ms"]),
            None if values["end_ms"] is None else int(values["end_ms"]),
            values["trigger"],
            values["cause"],
        )

    def _select(self) -> Any:
        t = tables.plays
        return sa.select(
            t.c.id,
            t.c.display_id,
            t.c.source_id,
            t.c.source_name,
            t.c.start_ms,
            t.c.end_ms,
            t.c.trigger,
            t.c.cause,
        )

    async def open_plays(self) -> list[Play]:
        query = self._select().where(tables.plays.c.end_ms.is_(None))
        async with self._connection(write=False) as conn:
            return [self._play(row) for row in await conn.execute(query)]

    async def plays(
        self, since_ms: int | None, until_ms: int | None, display_id: int | None, limit: int
    ) -> list[Play]:
        t = tables.plays
        query = self._select()
        if display_id is not None:
            query = query.where(t.c.display_id == display_id)
        if until_ms is not None:
            query = query.where(t.c.start_ms < until_ms)
        if since_ms is not None:
            query = query.where(sa.or_(t.c.end_ms.is_(None), t.c.end_ms > since_ms))
        query = query.order_by(t.c.start_ms, t.c.id).limit(limit)
        async with self._connection(write=False) as conn:
            return [self._play(row) for row in await conn.execute(query)]

    async def prune_plays(self, ended_before_ms: int) -> int:
        t = tables.plays
        async with self._connection(write=True) as conn:
            result = await conn.execute(sa.delete(t).where(t.c.end_ms < ended_before_ms))
        return int(result.rowcount or 0)
