"""The audit trail, cheaper to write and to read: on SQLite an entry's id is the table's
rowid (it was a primary key of its own, a second tree every entry was written to and
every read went through); the indexes of a window of time (all entries', a user's, an
operation's) hold the id too, so a page of a window is chosen from the index alone and
only its own entries are read (``tilewall.store.audit.page``).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: the window indexes, by name: their columns before the id
WINDOWS = {
    "audit_at": ["at_ms"],
    "audit_user_at": ["user", "at_ms"],
    "audit_operation_at": ["operation", "at_ms"],
}

#: as migration 0006 made it: moving the table drops it
TRIGGER = """
CREATE TRIGGER audit_chain BEFORE INSERT ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit entry does not follow the last one')
    WHERE NOT EXISTS (
        SELECT 1 FROM audit_head
        WHERE id = 1 AND last_id = NEW.id - 1 AND last_hash = NEW.prev
    );
    UPDATE audit_head SET last_id = NEW.id, last_hash = NEW.hash WHERE id = 1;
END
"""


def _rebuild(id_type: type[sa.types.TypeEngine[int]], with_id: bool) -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("audit", recreate="always" if sqlite else "auto") as batch:
        if sqlite:
            batch.alter_column("id", type_=id_type, existing_nullable=False)
        for name, columns in WINDOWS.items():
            batch.drop_index(name)
            batch.create_index(name, [*columns, "id"] if with_id else columns)
    if sqlite:
        op.execute(TRIGGER)


def upgrade() -> None:
    _rebuild(sa.Integer, with_id=True)


def downgrade() -> None:
    _rebuild(sa.BigInteger, with_id=False)
