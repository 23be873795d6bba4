"""The store's SQLAlchemy: its asyncio engine and connections (SQLAlchemy Core), taken
without the ORM that ``sqlalchemy.ext.asyncio`` would import with them
(:mod:`tilewall.reaches.sqlalchemy_core_only`)."""

from tilewall.reaches.sqlalchemy_core_only import AsyncConnection, AsyncEngine, create_async_engine

__all__ = ["AsyncConnection", "AsyncEngine", "create_async_engine"]
