"""What only the PostgreSQL store has to get right: its URL, a database it cannot reach,
connections that die (between writes and in the middle of one), and a server that stops
and starts again under a running store."""

import asyncio
import time

import pytest
import sqlalchemy as sa

from tests.support.pgserver import PostgresServer
from tilewall.host.errors import StoreFailed
from tilewall.host.ports import Change
from tilewall.store import PostgresStore, engine_for
from tilewall.store.postgres import database_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:pw@db:5432/tw", "postgresql+asyncpg://u:***@db:5432/tw"),
        ("postgres://u@db/tw", "postgresql+asyncpg://u@db/tw"),
        ("postgresql+asyncpg://u@db/tw", "postgresql+asyncpg://u@db/tw"),
        ("postgresql://u@db/tw?sslmode=require", "postgresql+asyncpg://u@db/tw?ssl=require"),
    ],
)
def test_database_urls(given: str, expected: str) -> None:
    assert database_url(given).render_as_string(hide_password=True) == expected


@pytest.mark.parametrize("given", ["mysql://u@db/tw", "not a url", "sqlite:///x.db"])
def test_urls_of_other_databases_are_refused(given: str) -> None:
    with pytest.raises(ValueError, match="URL"):
        database_url(given)


async def test_a_database_that_cannot_be_opened_is_named_without_its_password(
    postgres_server: PostgresServer,
) -> None:
    missing = f"postgresql://postgres:s3cret-pw@127.0.0.1:{postgres_server.port}/no_such_db"
    with pytest.raises(StoreFailed) as raised:
        await PostgresStore.open(missing)
    assert "no_such_db" in str(raised.value)
    assert "s3cret-pw" not in str(raised.value)


async def test_an_unreachable_server_fails_at_once(postgres_server: PostgresServer) -> None:
    nobody = f"postgresql://postgres@127.0.0.1:{postgres_server.port + 1}/tw"
    started = time.monotonic()
    with pytest.raises(StoreFailed, match="cannot open the database"):
        await PostgresStore.open(nobody)
    assert time.monotonic() - started < 10


def _terminate(server: PostgresServer, where: str = "true") -> None:
    server.psql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        f"WHERE application_name = 'tilewall' AND {where}"
    )


async def test_dead_connections_are_replaced_before_a_write(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    store = await PostgresStore.open(postgres_url)
    try:
        await store.apply([Change("source", "1", b"a")])
        _terminate(postgres_server)  # the pooled connection dies while idle
        await store.apply([Change("source", "2", b"b")])
        assert await store.load_documents() == {"source": {"1": b"a", "2": b"b"}}
    finally:
        await store.close()


async def test_a_connection_lost_in_the_middle_of_a_write_keeps_nothing(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    store = await PostgresStore.open(postgres_url)
    holder = engine_for(postgres_url)
    try:
        await store.apply([Change("source", "held", b"before")])
        async with holder.connect() as other:
            # another transaction locks a row, so the store's write waits half-way
            await other.execute(sa.text("SELECT * FROM documents WHERE key = 'held' FOR UPDATE"))
            write = asyncio.create_task(
                store.apply(
                    [
                        Change("source", "new", b"after"),
                        Change("zone", "z", b"after"),
                        Change("source", "held", b"after"),
                    ]
                )
            )
            for _ in range(200):
                waiting = postgres_server.psql(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE application_name = 'tilewall' AND wait_event_type = 'Lock'"
                )
                if waiting == "1":
                    break
                await asyncio.sleep(0.05)
            assert waiting == "1"
            _terminate(postgres_server, "wait_event_type = 'Lock'")
            with pytest.raises(StoreFailed, match="nothing was changed"):
                await write
            await other.rollback()
        assert await store.load_documents() == {"source": {"held": b"before"}}
        await store.apply([Change("zone", "z", b"after")])  # and it goes on
        assert (await store.load_documents())["zone"] == {"z": b"after"}
    finally:
        await holder.dispose()
        await store.close()


async def test_the_store_recovers_by_itself_when_the_server_is_back(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    store = await PostgresStore.open(postgres_url)
    try:
        await store.apply([Change("source", "1", b"a")])
        postgres_server.stop("fast")
        try:
            for _ in range(2):
                with pytest.raises(StoreFailed, match="nothing was changed"):
                    await store.apply([Change("source", "2", b"b")])
                with pytest.raises(StoreFailed):
                    await store.put_session("t", "admin", True, 1)
        finally:
            postgres_server.start()
        await store.apply([Change("source", "2", b"b")])
        assert await store.load_documents() == {"source": {"1": b"a", "2": b"b"}}
    finally:
        await store.close()
