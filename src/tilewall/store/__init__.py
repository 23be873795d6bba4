"""Persistence: the host's documents, users and sessions in SQLite."""

from tilewall.store.database import Change, Store

__all__ = ["Change", "Store"]
