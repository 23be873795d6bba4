"""A group of hosts on one database: the active member and generation, the members,
and the log of writes.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    state = op.create_table(
        "group_state",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("generation", sa.BigInteger, nullable=False),
        sa.Column("revision", sa.BigInteger, nullable=False),
        sa.Column("active_member", sa.String, nullable=True),
        sa.Column("active_since_ms", sa.BigInteger, nullable=True),
        sa.Column("takeover_ms", sa.BigInteger, nullable=True),
        sa.Column("takeover_from", sa.String, nullable=True),
        sa.Column("handover_to", sa.String, nullable=True),
    )
    op.bulk_insert(state, [{"id": 1, "generation": 0, "revision": 0}])
    op.create_table(
        "group_members",
        sa.Column("member_id", sa.String, primary_key=True),
        sa.Column("address", sa.String, nullable=False),
        sa.Column("host_name", sa.String, nullable=False),
        sa.Column("system_id", sa.String, nullable=False),
        sa.Column("role", sa.String, nullable=False),
        sa.Column("since_ms", sa.BigInteger, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=False),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.Column("details", sa.Text, nullable=False),
        sa.Column("presence", sa.Text, nullable=False),
    )
    op.create_table(
        "group_log",
        sa.Column("revision", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("generation", sa.BigInteger, nullable=False),
        sa.Column("member_id", sa.String, nullable=False),
        sa.Column("at_ms", sa.BigInteger, nullable=False),
        sa.Column("changed", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("group_log")
    op.drop_table("group_members")
    op.drop_table("group_state")
