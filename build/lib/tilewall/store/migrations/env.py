from alembic import context

from tilewall.store.tables import metadata

config = context.config
connection = config.attributes.get("connection")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
