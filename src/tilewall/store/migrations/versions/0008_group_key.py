"""The key members of a group sign what they forward to the active member with (the
address of the client a standby forwards a write for), made once, when the database is
migrated; only those who can read the database (its members) know it.

Revision ID: 0008
Revises: 0007
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("group_state") as batch:
        batch.add_column(sa.Column("member_key", sa.String, nullable=True))
    state = sa.table("group_state", sa.column("id", sa.Integer), sa.column("member_key"))
    op.execute(sa.update(state).where(state.c.id == 1).values(member_key=secrets.token_hex(32)))


def downgrade() -> None:
    with op.batch_alter_table("group_state") as batch:
        batch.drop_column("member_key")
