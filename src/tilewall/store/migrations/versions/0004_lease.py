"""The active member's lease: when it last renewed it (on the row that carries the
generation), and the database sessions each member recorded, which a standby ends when
the active member stalls.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("group_state", sa.Column("lease_ms", sa.BigInteger, nullable=True))
    op.add_column(
        "group_members",
        sa.Column("backends", sa.Text, nullable=False, server_default="[]"),
    )


def downgrade() -> None:
    with op.batch_alter_table("group_members") as batch:
        batch.drop_column("backends")
    with op.batch_alter_table("group_state") as batch:
        batch.drop_column("lease_ms")
