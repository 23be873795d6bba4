"""Persistence: the host's documents, users and sessions in SQLite."""

from tilewall.store.database import Store

__all__ = ["Store"]
