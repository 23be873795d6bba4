"""Users have a role (viewer, operator, administrator), an operator a scope; a user may
be disabled. The users there before are administrators: they could do everything.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column("role", sa.String, nullable=False, server_default="administrator")
        )
        batch.add_column(sa.Column("scope", sa.Text, nullable=True))
        batch.add_column(
            sa.Column("scoped_reads", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        for column in ("disabled", "scoped_reads", "scope", "role"):
            batch.drop_column(column)
