"""The audit trail: indexes for a user's or an operation's entries in a window of time
(a page of them is read from the window's rows, not from all of theirs), and on SQLite a
trigger that checks each entry follows the head row and
moves the head on, so appending entries is one statement (the store's writes are trips
to SQLite's thread, each costing the batch of changes it is written with). PostgreSQL
moves the head with a statement of its own, which also locks it.

Revision ID: 0006
Revises: 0005
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

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


def upgrade() -> None:
    op.create_index("audit_user_at", "audit", ["user", "at_ms"])
    op.create_index("audit_operation_at", "audit", ["operation", "at_ms"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute(TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER audit_chain")
    op.drop_index("audit_operation_at", "audit")
    op.drop_index("audit_user_at", "audit")
