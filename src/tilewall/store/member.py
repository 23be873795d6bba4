"""What a host needs to be a member of the group on its PostgreSQL database: its member
id, its own store (``DATA_DIR/member.db``, SQLite) for the settings that are about this
member alone (the machine's simulated settings, its failover settings, its system id),
and the group's coordination."""

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from tilewall.store import tables
from tilewall.store.hostgroup import PostgresHostGroup
from tilewall.store.postgres import PostgresStore
from tilewall.store.sqlite import Store

MEMBER_ID_FILE = "member-id"
MEMBER_STORE_FILE = "member.db"


def member_id(data_dir: Path) -> str:
    """This member's id, made on its first start and kept in its data directory."""
    path = data_dir / MEMBER_ID_FILE
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    if kept:
        return kept
    made = str(uuid.uuid4())
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(made + "\n")
    return made


@dataclass
class Member:
    store: Store
    group: PostgresHostGroup
    shared: PostgresStore

    async def system_id(
        self, get: Callable[[], Awaitable[str]], replace: Callable[[str], Awaitable[None]]
    ) -> str:
        """This member's system id, unique in the group: one made from the machine's id
        is shared by every member on one machine, so a second one gets its own."""
        system_id = await get()
        members = tables.group_members
        async with self.shared.engine.connect() as conn:
            taken = await conn.execute(
                sa.select(members.c.member_id).where(
                    members.c.system_id == system_id,
                    members.c.member_id != self.group.member_id,
                )
            )
            if taken.first() is None:
                return system_id
        own = str(
            uuid.uuid5(
                uuid.UUID(int=uuid.uuid5(uuid.NAMESPACE_OID, system_id).int), self.group.member_id
            )
        )
        await replace(own)
        return own


async def open_member(
    shared: PostgresStore, data_dir: Path, address: str, lease_s: float
) -> Member:
    store = await Store.open_file(_member_file(data_dir))
    group = PostgresHostGroup(shared, member_id(data_dir), address, lease_s)
    return Member(store, group, shared)


def _member_file(data_dir: Path) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    return data_dir / MEMBER_STORE_FILE
