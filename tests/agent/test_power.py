"""DPMS forceoff/forceon switch the real screen through the agent, and say what it did."""

from pathlib import Path
from typing import Any

from tests.agent.conftest import AgentFactory, agent_online, calls
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until


def locked(host: ServerProcess, seat: str) -> int:
    agent_online(host, seat)
    return host.lock(seat)


def dpms(host: ServerProcess, state: str, display_id: int) -> dict[str, Any]:
    body: dict[str, Any] = host.ok(
        "PUT", f"/system/dpms/force{state}", json={"displayID": str(display_id)}
    )
    return body


def screen(body: dict[str, Any], display_id: int) -> dict[str, Any]:
    found = [s for s in body["screens"] if s["displayId"] == display_id]
    assert len(found) == 1, body
    return found[0]


def test_power_command_switches_the_screen(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    state_file = tmp_path / "screen"
    agents(host, "power-cmd", "--no-browser", "--power-command", f"echo {{state}} >> {state_file}")
    display_id = locked(host, "power-cmd")
    # on at start: the host says the screen is on
    wait_until(lambda: state_file.exists() and state_file.read_text() == "on\n", 15)

    body = dpms(host, "off", display_id)
    assert display_id in body["displaysOff"]
    assert screen(body, display_id) == {
        "displayId": display_id,
        "seatId": "power-cmd",
        "state": "off",
        "result": "done",
        "method": "command",
        "message": "",
    }
    assert state_file.read_text().splitlines() == ["on", "off"]
    last = host.station("power-cmd")["agent"]["lastPower"]  # type: ignore[index]
    assert (last["state"], last["result"]) == ("off", "done")

    body = dpms(host, "on", display_id)
    assert screen(body, display_id)["result"] == "done"
    assert state_file.read_text().splitlines() == ["on", "off", "on"]
    assert "switched its screen off (command)" in host.log()


def test_a_failing_power_command_says_why(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    agents(
        host,
        "power-fail",
        "--no-browser",
        "--power-command",
        "echo 'no HDMI device on {state}' >&2; exit 3",
    )
    display_id = locked(host, "power-fail")
    result = screen(dpms(host, "off", display_id), display_id)
    assert result["result"] == "failed"
    assert "no HDMI device on off" in result["message"]
    last = host.station("power-fail")["agent"]["lastPower"]  # type: ignore[index]
    assert last["result"] == "failed" and "no HDMI device" in last["message"]
    assert "failed to switch its screen off" in host.log()


def test_cec_through_cec_client(
    host: ServerProcess, agents: AgentFactory, fake_tools: tuple[Path, Path]
) -> None:
    bin_dir, record = fake_tools
    path = f"{bin_dir}:{__import__('os').environ['PATH']}"
    agents(host, "power-cec", "--no-browser", "--power", "cec", env={"PATH": path})
    display_id = locked(host, "power-cec")
    assert screen(dpms(host, "off", display_id), display_id)["result"] == "done"
    assert screen(dpms(host, "on", display_id), display_id)["result"] == "done"
    seen = [(c["tool"], c["argv"], c["stdin"]) for c in calls(record)]
    assert seen[-2:] == [
        ("cec-client", ["-s", "-d", "1"], "standby 0\n"),
        ("cec-client", ["-s", "-d", "1"], "on 0\n"),
    ]
    # cec-client reports a missing adapter on an ERROR line
    (bin_dir / "FAIL").touch()
    result = screen(dpms(host, "off", display_id), display_id)
    assert result["result"] == "failed"
    assert "could not open a connection" in result["message"]


def test_ddc_through_ddcutil(
    host: ServerProcess, agents: AgentFactory, fake_tools: tuple[Path, Path]
) -> None:
    bin_dir, record = fake_tools
    path = f"{bin_dir}:{__import__('os').environ['PATH']}"
    agents(host, "power-ddc", "--no-browser", "--power", "ddc", env={"PATH": path})
    display_id = locked(host, "power-ddc")
    assert screen(dpms(host, "off", display_id), display_id)["result"] == "done"
    assert screen(dpms(host, "on", display_id), display_id)["result"] == "done"
    seen = [c["argv"] for c in calls(record) if c["tool"] == "ddcutil"]
    assert seen[-2:] == [["setvcp", "d6", "04"], ["setvcp", "d6", "01"]]
    (bin_dir / "FAIL").touch()
    result = screen(dpms(host, "off", display_id), display_id)
    assert result["result"] == "failed" and "Display not found" in result["message"]


def test_a_missing_tool_is_named(host: ServerProcess, agents: AgentFactory, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    agents(host, "power-none", "--no-browser", "--power", "ddc", env={"PATH": str(empty)})
    display_id = locked(host, "power-none")
    result = screen(dpms(host, "off", display_id), display_id)
    assert result["result"] == "failed"
    assert "ddcutil is not installed" in result["message"]


def test_all_displays_off_reaches_every_agent(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    files = {seat: tmp_path / seat for seat in ("power-all-1", "power-all-2")}
    for seat, file in files.items():
        agents(host, seat, "--no-browser", "--power-command", f"echo {{state}} > {file}")
        locked(host, seat)
    body = host.ok("PUT", "/system/dpms/forceoff")
    results = {s["seatId"]: s["result"] for s in body["screens"]}
    assert results["power-all-1"] == results["power-all-2"] == "done"
    assert all(f.read_text() == "off\n" for f in files.values())
    host.ok("PUT", "/system/dpms/forceon")
    assert all(f.read_text() == "on\n" for f in files.values())
