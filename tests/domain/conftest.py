"""A host on fake ports: a store in memory, simulated machine adapters, and a clock that
moves only when told to. No SQLite, no commands, no network."""

from pathlib import Path

import pytest

from tests.support.ports import MemoryStore, simulated_machine
from tilewall.host.clock import ManualClock
from tilewall.host.host import Host
from tilewall.platform.media_files import FolderMediaFiles


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def host(tmp_path: Path, clock: ManualClock, store: MemoryStore) -> Host:
    return Host(store, FolderMediaFiles(tmp_path / "media"), simulated_machine, clock=clock)
