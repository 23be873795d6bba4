"""A host without a store, on a clock that moves only when told to."""

from pathlib import Path

import pytest

from tilewall.host.clock import ManualClock
from tilewall.host.host import Host


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def host(tmp_path: Path, clock: ManualClock) -> Host:
    return Host(None, tmp_path / "media", clock)
