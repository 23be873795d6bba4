"""The audit trail, cheaper to write: its six indexes go (each commit of changes wrote a
page of each), and an entry's lookup keys (its user, its target's id, its operation) are
written a second's entries at a time into ``audit_keys`` (``tilewall.store.audit_keys``);
a window of time is found as a range of ids, entries' times rising with their ids from
now on (``tilewall.host.audit.chain``). The keys of the entries already written are
filled in here.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: the indexes dropped, with their columns (as 0005, 0006 and 0009 left them)
INDEXES = {
    "audit_at": ["at_ms", "id"],
    "audit_user": ["user", "id"],
    "audit_target": ["target_id", "id"],
    "audit_operation": ["operation", "id"],
    "audit_user_at": ["user", "at_ms", "id"],
    "audit_operation_at": ["operation", "at_ms", "id"],
}
#: kind of key (as tilewall.store.audit_keys numbers them: USER, TARGET, OPERATION): the
#: entry's column
KEYS = {1: "user", 2: "target_id", 3: "operation"}


def upgrade() -> None:
    # written out, not taken from tables.audit_keys (the same shape today): a migration
    # is frozen history, and the table may change after it
    op.create_table(
        "audit_keys",
        sa.Column("kind", sa.SmallInteger, primary_key=True, autoincrement=False),
        sa.Column("key", sa.String, primary_key=True),
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sqlite_with_rowid=False,
    )
    keyed = op.create_table(
        "audit_keyed",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("upto", sa.BigInteger, nullable=False),
    )
    audit = sa.table("audit", sa.column("id"), *(sa.column(c) for c in KEYS.values()))
    keys = sa.table("audit_keys", sa.column("kind"), sa.column("key"), sa.column("id"))
    for kind, column in KEYS.items():
        entries = sa.select(sa.literal(kind), audit.c[column], audit.c.id).where(
            audit.c[column] != ""
        )
        op.execute(keys.insert().from_select(["kind", "key", "id"], entries))
    upto = op.get_bind().execute(sa.select(sa.func.max(audit.c.id))).scalar()
    op.bulk_insert(keyed, [{"id": 1, "upto": int(upto or 0)}])
    for name in INDEXES:
        op.drop_index(name, "audit")


def downgrade() -> None:
    for name, columns in INDEXES.items():
        op.create_index(name, "audit", columns)
    op.drop_table("audit_keyed")
    op.drop_table("audit_keys")
