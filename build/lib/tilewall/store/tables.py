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
