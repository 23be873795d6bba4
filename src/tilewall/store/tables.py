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
    # users from before roles existed could do everything: they are administrators
    sa.Column("role", sa.String, nullable=False, server_default="administrator"),
    #: an operator's scope as JSON (walls, zones, mirrorGroups, displays, sources); NULL:
    #: unlimited
    sa.Column("scope", sa.Text, nullable=True),
    sa.Column("scoped_reads", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
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

# --- a group of hosts on one database (used on PostgreSQL; created on either dialect)

#: one row (id 1): which member is active, under which generation, and the last
#: revision committed; every write of the active member bumps ``revision`` where
#: ``generation`` is still its own, so a member that lost the active role cannot write
group_state = sa.Table(
    "group_state",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("generation", sa.BigInteger, nullable=False),
    sa.Column("revision", sa.BigInteger, nullable=False),
    sa.Column("active_member", sa.String, nullable=True),
    sa.Column("active_since_ms", sa.BigInteger, nullable=True),
    sa.Column("takeover_ms", sa.BigInteger, nullable=True),
    sa.Column("takeover_from", sa.String, nullable=True),
    sa.Column("handover_to", sa.String, nullable=True),
    #: when the active member last renewed its lease (ms, the database's clock)
    sa.Column("lease_ms", sa.BigInteger, nullable=True),
    #: the members' secret: a standby signs the client's address of a write it forwards
    #: with it (hex, made by the migration that added it)
    sa.Column("member_key", sa.String, nullable=True),
)

#: every host that runs on the database: where it serves, its role, and when it last
#: said it is alive
group_members = sa.Table(
    "group_members",
    metadata,
    sa.Column("member_id", sa.String, primary_key=True),
    sa.Column("address", sa.String, nullable=False),
    sa.Column("host_name", sa.String, nullable=False),
    sa.Column("system_id", sa.String, nullable=False),
    sa.Column("role", sa.String, nullable=False),
    sa.Column("since_ms", sa.BigInteger, nullable=False),
    sa.Column("started_ms", sa.BigInteger, nullable=False),
    sa.Column("seen_ms", sa.BigInteger, nullable=False),
    sa.Column("details", sa.Text, nullable=False),
    #: the seats whose receivers are connected to the member (the active one's count)
    sa.Column("presence", sa.Text, nullable=False),
    #: the member's database sessions (backend pids, JSON), ended if it stalls as active
    sa.Column("backends", sa.Text, nullable=False, server_default="[]"),
)

#: the writes, one row per committed revision: which member wrote it under which
#: generation, and what it changed (standbys catch up from it)
group_log = sa.Table(
    "group_log",
    metadata,
    sa.Column("revision", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("generation", sa.BigInteger, nullable=False),
    sa.Column("member_id", sa.String, nullable=False),
    sa.Column("at_ms", sa.BigInteger, nullable=False),
    sa.Column("changed", sa.Text, nullable=False),
)

# --- the audit trail (tilewall.host.audit): entries numbered 1, 2, ... without gaps,
# each chained to the one before it by ``prev``, their times rising with their ids (a
# window of time is a range of ids). The table has no index of its own: each one would
# be written by every commit of changes; its lookup keys are written a second's entries
# at a time into ``audit_keys`` (tilewall.store.audit_keys)

audit = sa.Table(
    "audit",
    metadata,
    # on SQLite the rowid itself (INTEGER PRIMARY KEY): no second tree of ids
    sa.Column(
        "id",
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        primary_key=True,
        autoincrement=False,
    ),
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

#: one row (id 1): the last entry written (``last_id``, ``last_hash``) and the last one
#: retention removed (``base_id``, ``base_hash``: what the first kept entry follows).
#: Every write of entries locks it first, so two writes never chain off the same entry.
audit_head = sa.Table(
    "audit_head",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("last_id", sa.BigInteger, nullable=False),
    sa.Column("last_hash", sa.String, nullable=False),
    sa.Column("base_id", sa.BigInteger, nullable=False),
    sa.Column("base_hash", sa.String, nullable=False),
)

#: an entry's id under each of its lookup keys: (kind of key, key, id); the kinds are
#: numbered by tilewall.store.audit_keys (USER, TARGET, OPERATION)
audit_keys = sa.Table(
    "audit_keys",
    metadata,
    sa.Column("kind", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("key", sa.String, primary_key=True),
    sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
    sqlite_with_rowid=False,
)

#: one row (id 1): the entries up to ``upto`` have their keys in ``audit_keys``
audit_keyed = sa.Table(
    "audit_keyed",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("upto", sa.BigInteger, nullable=False),
)
