import pytest

from tilewall.platform.errors import CommandFailed
from tilewall.platform.runner import (
    NOT_FOUND,
    CommandResult,
    RecordingRunner,
    SubprocessRunner,
    check,
)
from tilewall.platform.settings import MemorySettingsStore


async def test_subprocess_runner_returns_status_and_output() -> None:
    result = await SubprocessRunner().run(["sh", "-c", "echo out; echo err >&2; exit 3"])
    assert result == CommandResult(3, "out\n", "err\n")


async def test_subprocess_runner_reports_missing_program() -> None:
    result = await SubprocessRunner().run(["tilewall-no-such-program"])
    assert result.returncode == NOT_FOUND


async def test_subprocess_runner_times_out() -> None:
    result = await SubprocessRunner().run(["sleep", "5"], timeout=0.1)
    assert not result.ok
    assert "timed out" in result.stderr


async def test_check_raises_with_the_last_stderr_line() -> None:
    runner = RecordingRunner({"hostnamectl": CommandResult(1, "", "x\nAccess denied\n")})
    with pytest.raises(CommandFailed, match="hostnamectl failed: Access denied"):
        await check(runner, ["hostnamectl", "set-hostname", "a"])


async def test_recording_runner_prefers_the_longest_prefix() -> None:
    runner = RecordingRunner(
        {
            "nmcli": CommandResult(1),
            "nmcli connection up": CommandResult(0, "ok"),
        }
    )
    assert (await runner.run(["nmcli", "connection", "up", "x"])).stdout == "ok"
    assert (await runner.run(["nmcli", "connection", "upx"])).returncode == 1
    assert (await runner.run(["ls"])).ok
    assert runner.commands[-1] == ["ls"]


async def test_memory_store_copies_and_removes() -> None:
    store = MemorySettingsStore()
    await store.put("a", {"x": [1]})
    read = store.get("a")
    assert read is not None
    read["x"].append(2)
    assert store.get("a") == {"x": [1]}
    await store.put("a", None)
    assert store.get("a") is None
