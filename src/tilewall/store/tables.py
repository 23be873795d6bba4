"""The schema, as SQLAlchemy Core tables. Alembic migrations create and evolve it."""

import sqlalchemy as sa

metadata = sa.MetaData()

documents = sa.Table(
    "documents",
    metadata,
    sa.Column("kind", sa.String, primary_key=True),
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("body", sa.LargeBinary, nullable=False),
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("name", sa.String, primary_key=True),
    sa.Column("password_hash", sa.String, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String, primary_key=True),
    sa.Column("user", sa.String, nullable=False),
    sa.Column("keep", sa.Boolean, nullable=False),
    sa.Column("created_ms", sa.BigInteger, nullable=False),
)

#: the play log: what each display played, when and why (large; never loaded whole)
plays = sa.Table(
    "plays",
    metadata,
    sa.Column("id", sa.String, primary_key=True),
    sa.Column("display_id", sa.Integer, nullable=False),
    sa.Column("source_id", sa.String, nullable=False),
    sa.Column("source_name", sa.String, nullable=False),
    sa.Column("start_ms", sa.BigInteger, nullable=False),
    sa.Column("end_ms", sa.BigInteger, nullable=True),
    sa.Column("trigger", sa.String, nullable=False),
    sa.Column("cause", sa.String, nullable=False),
    sa.Index("plays_start", "start_ms"),
    sa.Index("plays_display_start", "display_id", "start_ms"),
    sa.Index("plays_end", "end_ms"),
)
