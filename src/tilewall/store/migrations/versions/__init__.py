"""The schema's history, one migration a step. Each migration writes its tables and
columns out in full rather than importing them from ``tilewall.store.tables``: a
migration is frozen history and must build, on a database of its time, what it built
the day it was written, while ``tables`` says what the schema is now (0006, for one,
added indexes to the audit table that 0005 made). That the migrations, run in order,
end at what ``tables`` declares is checked by tests/store/test_migrations.py."""
