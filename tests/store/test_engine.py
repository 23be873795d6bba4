"""SQLAlchemy's asyncio engine without its ORM (tilewall.store.engine): the package
``sqlalchemy.ext.asyncio`` stays whole for whoever asks it for more."""

import json
import subprocess
import sys

IN_A_FRESH_INTERPRETER = """
import json, sys
import sqlalchemy as sa
from tilewall.store.engine import AsyncEngine, create_async_engine
seen = {"orm_with_engine": "sqlalchemy.orm" in sys.modules}

import asyncio
async def select_one():
    engine = create_async_engine("sqlite+aiosqlite://")
    async with engine.connect() as connection:
        one = (await connection.execute(sa.text("select 1"))).scalar()
    await engine.dispose()
    return one
seen["one"] = asyncio.run(select_one())
seen["orm_after_use"] = "sqlalchemy.orm" in sys.modules

from sqlalchemy.ext.asyncio import exc  # a submodule: loads just that
seen["orm_after_submodule"] = "sqlalchemy.orm" in sys.modules

from sqlalchemy.ext.asyncio import AsyncEngine as Again, AsyncSession
import sqlalchemy.ext.asyncio as package
seen["same_engine"] = Again is AsyncEngine
seen["session"] = AsyncSession.__name__
names = ["async_sessionmaker", "async_scoped_session", "AsyncConnection", "AsyncResult"]
seen["whole"] = [name for name in names if not hasattr(package, name)]
print(json.dumps(seen))
"""


def test_the_engine_comes_without_the_orm_and_the_package_stays_whole():
    done = subprocess.run(
        [sys.executable, "-c", IN_A_FRESH_INTERPRETER], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {
        "orm_with_engine": False,
        "one": 1,
        "orm_after_use": False,
        "orm_after_submodule": False,
        "same_engine": True,
        "session": "AsyncSession",
        "whole": [],
    }
