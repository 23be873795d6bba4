"""A member's own link to the group's database: one asyncpg connection outside the
store's pool, for the session advisory lock that makes a member active, the ``LISTEN``
for the group's changes, and the member's heartbeat.

The lock must live on a connection nothing else uses: a pool would check the
connection, replace it when it died and hand it to others, and a session lock dies
with its session without telling anyone. On this link, losing the connection *is*
losing the lock, and the member steps down at once.

The server notices a member that vanished without closing its connection (power cut,
network lost) through TCP keepalives and ``tcp_user_timeout``, set short for this
connection, and then ends its session, which releases the lock for a standby.
"""

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from tilewall.host.hostgroup.members import MemberInfo, Role, Takeover
from tilewall.store.hostgroup_sql import EVENTS, NOW_MS
from tilewall.store.postgres import CONNECT_TIMEOUT_S, database_url

#: the session advisory lock whose holder is the active member ("tilewall" + 1)
ACTIVE_LOCK = 0x74696C6577616C6D
#: no statement on the link takes long; one that takes this long has lost its server
#: (about the time the server takes to give up on a member it does not hear from)
STATEMENT_TIMEOUT_S = 3.0
#: a member that said nothing for this long is not alive
ALIVE_MS = 5000
#: a member gone this long is forgotten
FORGET_MS = 24 * 3600 * 1000

#: the server ends the session of a member it has not heard from in about 3 s
KEEPALIVE = {
    "tcp_keepalives_idle": "1",
    "tcp_keepalives_interval": "1",
    "tcp_keepalives_count": "2",
    "tcp_user_timeout": "3000",
}

Listener = Callable[[Any, int, str, str], None]


@dataclass(frozen=True, slots=True)
class Stalled:
    """An active member whose lease has run out: its id, the database sessions it
    recorded, and how long ago it last renewed its lease."""

    member_id: str
    backends: tuple[int, ...]
    late_ms: int


def dsn(url: str) -> str:
    """``url`` as asyncpg's own DSN (``sslmode`` as libpq spells it)."""
    parsed = database_url(url)
    query = dict(parsed.query)
    if "ssl" in query:
        query["sslmode"] = query.pop("ssl")
    made: str = parsed.set(drivername="postgresql", query=query).render_as_string(
        hide_password=False
    )
    return made


class Link:
    """The member's connection, and the statements it runs on it (one at a time)."""

    def __init__(self, conn: asyncpg.Connection, member_id: str) -> None:
        self.conn = conn
        self.member_id = member_id

    @classmethod
    async def open(cls, url: str, member_id: str) -> "Link":
        conn = await asyncpg.connect(
            dsn(url),
            timeout=CONNECT_TIMEOUT_S,
            command_timeout=STATEMENT_TIMEOUT_S,
            server_settings={"application_name": f"tilewall-member-{member_id[:8]}", **KEEPALIVE},
        )
        return cls(conn, member_id)

    def close(self) -> None:
        """Drop the connection at once (the server releases the lock)."""
        if not self.conn.is_closed():
            self.conn.terminate()

    async def listen(self, channel: str, listener: Listener) -> None:
        await self.conn.add_listener(channel, listener)

    async def database(self) -> str:
        """The database's identity: its cluster's system identifier and its name."""
        name = await self.conn.fetchval("SELECT current_database()")
        try:
            cluster = await self.conn.fetchval("SELECT system_identifier FROM pg_control_system()")
        except asyncpg.PostgresError:  # a role that may not read it
            cluster = await self.conn.fetchval("SELECT inet_server_addr()::text")
        return f"{cluster}/{name}"

    async def register(
        self, address: str, host_name: str, system_id: str, role: Role, details: dict[str, Any]
    ) -> None:
        await self.conn.execute(
            f"""
            INSERT INTO group_members (member_id, address, host_name, system_id, role,
                                       since_ms, started_ms, seen_ms, details, presence)
            VALUES ($1, $2, $3, $4, $5, {NOW_MS}, {NOW_MS}, {NOW_MS}, $6, '[]')
            ON CONFLICT (member_id) DO UPDATE SET address = $2, host_name = $3,
                system_id = $4, role = $5, since_ms = {NOW_MS}, started_ms = {NOW_MS},
                seen_ms = {NOW_MS}, details = $6, presence = '[]'
            """,
            self.member_id,
            address,
            host_name,
            system_id,
            str(role),
            json.dumps(details),
        )
        await self.announce("joined")

    async def heartbeat(self, host_name: str, details: dict[str, Any]) -> bool:
        """Say this member is alive; False if its row is gone (register again)."""
        done = await self.conn.execute(
            f"UPDATE group_members SET seen_ms = {NOW_MS}, host_name = $2, details = $3 "
            "WHERE member_id = $1",
            self.member_id,
            host_name,
            json.dumps(details),
        )
        return bool(done.endswith(" 1"))

    async def publish_presence(self, seats: frozenset[str]) -> None:
        await self.conn.execute(
            "UPDATE group_members SET presence = $2 WHERE member_id = $1",
            self.member_id,
            json.dumps(sorted(seats)),
        )
        await self.announce("presence")

    async def set_role(self, role: Role) -> None:
        await self.conn.execute(
            f"UPDATE group_members SET role = $2, since_ms = {NOW_MS}, seen_ms = {NOW_MS} "
            "WHERE member_id = $1",
            self.member_id,
            str(role),
        )
        await self.announce(str(role))

    async def leave(self) -> None:
        await self.conn.execute("DELETE FROM group_members WHERE member_id = $1", self.member_id)
        await self.announce("left")

    async def forget_the_long_gone(self) -> None:
        await self.conn.execute(f"DELETE FROM group_members WHERE seen_ms < {NOW_MS} - {FORGET_MS}")

    async def announce(self, what: str) -> None:
        payload = json.dumps({"m": self.member_id, "e": what})
        await self.conn.execute("SELECT pg_notify($1, $2)", EVENTS, payload)

    # --- the active role -----------------------------------------------------------------

    async def record_backends(self, pids: Iterable[int]) -> None:
        """Record this member's database sessions (its link's and its pool's), which a
        standby ends should this member stall while active."""
        await self.conn.execute(
            "UPDATE group_members SET backends = $2 WHERE member_id = $1",
            self.member_id,
            json.dumps(sorted({self.conn.get_server_pid(), *pids})),
        )

    async def renew(self, generation: int) -> int | None:
        """Renew the active member's lease; the age (ms, database clock) the lease had
        reached, or None when the generation is no longer this member's (another member
        took over)."""
        age = await self.conn.fetchrow(
            f"""
            WITH old AS (
                SELECT lease_ms FROM group_state WHERE id = 1 AND generation = $1 FOR UPDATE)
            UPDATE group_state SET lease_ms = {NOW_MS} FROM old
            WHERE id = 1 AND generation = $1
            RETURNING {NOW_MS} - coalesce(old.lease_ms, {NOW_MS}) AS age_ms
            """,
            generation,
        )
        return None if age is None else max(0, int(age["age_ms"]))

    async def stalled(self, lease_ms: int) -> Stalled | None:
        """The active member, if another member's and its lease is older than
        ``lease_ms`` by the database's clock (no host's clock is asked)."""
        row = await self.conn.fetchrow(
            f"""
            SELECT s.active_member, coalesce(m.backends, '[]') AS backends,
                   {NOW_MS} - s.lease_ms AS late_ms
            FROM group_state s LEFT JOIN group_members m ON m.member_id = s.active_member
            WHERE s.id = 1 AND s.active_member IS NOT NULL AND s.active_member <> $1
              AND s.lease_ms IS NOT NULL AND s.lease_ms < {NOW_MS} - $2
            """,
            self.member_id,
            lease_ms,
        )
        if row is None:
            return None
        pids = [p for p in json.loads(row["backends"]) if isinstance(p, int)]
        return Stalled(row["active_member"], tuple(pids), int(row["late_ms"]))

    async def end_sessions(self, pids: Sequence[int]) -> int:
        """End the database sessions ``pids`` of a stalled member (which frees its
        advisory lock and the row locks of a write it stalled in); how many were ended."""
        ended = await self.conn.fetchval(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE pid = ANY($1::int[]) AND datname = current_database() "
            "AND application_name LIKE 'tilewall%' AND pid <> pg_backend_pid()",
            list(pids),
        )
        return int(ended or 0)

    async def try_lock(self) -> bool:
        return bool(await self.conn.fetchval("SELECT pg_try_advisory_lock($1)", ACTIVE_LOCK))

    async def unlock(self) -> None:
        await self.conn.execute("SELECT pg_advisory_unlock($1)", ACTIVE_LOCK)

    async def take_over(self) -> int:
        """Become the active member: a new generation (which fences out every write of
        the member before), recorded with who was active before; the generation."""
        generation = await self.conn.fetchval(
            f"""
            UPDATE group_state SET generation = generation + 1, active_member = $1,
                active_since_ms = {NOW_MS}, takeover_ms = {NOW_MS}, lease_ms = {NOW_MS},
                takeover_from = active_member, handover_to = NULL
            WHERE id = 1 RETURNING generation
            """,
            self.member_id,
        )
        if generation is None:
            raise RuntimeError("the database has no group state (migrations not run?)")
        return int(generation)

    async def ask_handover(self) -> None:
        await self.conn.execute(
            "UPDATE group_state SET handover_to = $1 WHERE id = 1", self.member_id
        )
        await self.announce("handover")

    async def drop_handover(self, member_id: str) -> None:
        await self.conn.execute(
            "UPDATE group_state SET handover_to = NULL WHERE id = 1 AND handover_to = $1",
            member_id,
        )

    # --- what the group looks like ------------------------------------------------------------

    async def state(self) -> asyncpg.Record:
        row: asyncpg.Record = await self.conn.fetchrow(
            "SELECT generation, revision, active_member, active_since_ms, takeover_ms, "
            f"takeover_from, handover_to, lease_ms, {NOW_MS} AS now_ms "
            "FROM group_state WHERE id = 1"
        )
        return row

    async def members(self, active: str | None) -> tuple[MemberInfo, ...]:
        rows = await self.conn.fetch(
            "SELECT member_id, address, host_name, system_id, since_ms, started_ms, seen_ms, "
            f"details, presence, {NOW_MS} AS now_ms FROM group_members "
            "ORDER BY started_ms, member_id"
        )
        return tuple(
            MemberInfo(
                member_id=row["member_id"],
                address=row["address"],
                host_name=row["host_name"],
                system_id=row["system_id"],
                role=Role.ACTIVE if row["member_id"] == active else Role.STANDBY,
                since_ms=int(row["since_ms"]),
                started_ms=int(row["started_ms"]),
                seen_ms=int(row["seen_ms"]),
                alive=int(row["now_ms"]) - int(row["seen_ms"]) < ALIVE_MS,
                details=_details(row["details"]),
                online=_seats(row["presence"]),
            )
            for row in rows
        )


def _details(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _seats(text: str) -> frozenset[str]:
    try:
        value = json.loads(text)
    except ValueError:
        return frozenset()
    return (
        frozenset(s for s in value if isinstance(s, str))
        if isinstance(value, list)
        else frozenset()
    )


def takeover_of(row: asyncpg.Record) -> Takeover | None:
    if row["takeover_ms"] is None or row["active_member"] is None:
        return None
    return Takeover(int(row["takeover_ms"]), row["active_member"], row["takeover_from"])
