import pytest

from tilewall.platform.runner import RecordingRunner
from tilewall.platform.settings import MemorySettingsStore


@pytest.fixture
def store() -> MemorySettingsStore:
    return MemorySettingsStore()


@pytest.fixture
def recorder() -> RecordingRunner:
    return RecordingRunner()
