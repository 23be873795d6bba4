"""The play log.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "plays",
        sa.Column("id", sa.String, primary_key=True),
        sa.Column("display_id", sa.Integer, nullable=False),
        sa.Column("source_id", sa.String, nullable=False),
        sa.Column("source_name", sa.String, nullable=False),
        sa.Column("start_ms", sa.BigInteger, nullable=False),
        sa.Column("end_ms", sa.BigInteger, nullable=True),
        sa.Column("trigger", sa.String, nullable=False),
        sa.Column("cause", sa.String, nullable=False),
    )
    op.create_index("plays_start", "plays", ["start_ms"])
    op.create_index("plays_display_start", "plays", ["display_id", "start_ms"])
    op.create_index("plays_end", "plays", ["end_ms"])


def downgrade() -> None:
    op.drop_index("plays_end", "plays")
    op.drop_index("plays_display_start", "plays")
    op.drop_index("plays_start", "plays")
    op.drop_table("plays")
