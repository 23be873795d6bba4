"""The audit trail: its entries, and the row every write of entries locks first.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

GENESIS = "0" * 64


def upgrade() -> None:
    # written out, not taken from tables.audit: a migration is frozen history (the
    # package's docstring says why; 0006 added to the table since)
    op.create_table(
        "audit",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.Column("user", sa.String, nullable=False),
        sa.Column("address", sa.String, nullable=False),
        sa.Column("session", sa.String, nullable=False),
        sa.Column("operation", sa.String, nullable=False),
        sa.Column("target_kind", sa.String, nullable=False),
        sa.Column("target_id", sa.String, nullable=False),
        sa.Column("target_name", sa.String, nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
        sa.Column("outcome", sa.String, nullable=False),
        sa.Column("prev", sa.String, nullable=False),
        sa.Column("hash", sa.String, nullable=False),
    )
    op.create_index("audit_at", "audit", ["at_ms"])
    op.create_index("audit_user", "audit", ["user", "id"])
    op.create_index("audit_target", "audit", ["target_id", "id"])
    op.create_index("audit_operation", "audit", ["operation", "id"])
    head = op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("last_id", sa.BigInteger, nullable=False),
        sa.Column("last_hash", sa.String, nullable=False),
        sa.Column("base_id", sa.BigInteger, nullable=False),
        sa.Column("base_hash", sa.String, nullable=False),
    )
    op.bulk_insert(
        head, [{"id": 1, "last_id": 0, "last_hash": GENESIS, "base_id": 0, "base_hash": GENESIS}]
    )


def downgrade() -> None:
    op.drop_table("audit_head")
    for name in ("audit_operation", "audit_target", "audit_user", "audit_at"):
        op.drop_index(name, "audit")
    op.drop_table("audit")
