"""Runs the migrations on the connection the store hands over (see ``store.migrate``)."""

from alembic import context

from tilewall.store.tables import metadata

config = context.config
connection = config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    # ALTER TABLE by copy-and-move is only needed where the database cannot alter
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
