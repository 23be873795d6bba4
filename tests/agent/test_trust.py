"""A locked station is bound to the device that was locked: an impostor with the same
seat id takes nothing over. The agent comes back by itself after a host restart."""

import hashlib
import json
import sqlite3
from pathlib import Path

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until


def station_document(host: ServerProcess, seat: str) -> dict:
    with sqlite3.connect(host.data_dir / "tilewall.db") as db:
        row = db.execute(
            "select body from documents where kind = 'station' and key = ?", (seat,)
        ).fetchone()
    return json.loads(row[0])


def test_an_impostor_takes_nothing_over(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    screen, fake_screen = tmp_path / "screen", tmp_path / "impostor-screen"
    legit = agents(
        host, "trust-1", "--no-browser", "--power-command", f"echo {{state}} >> {screen}"
    )
    agent_online(host, "trust-1")
    display_id = host.lock("trust-1")
    key_file = legit.state_dir / "trust-1.key"
    key = wait_until(lambda: key_file.exists() and key_file.read_text().strip(), 10)

    # the host keeps a hash of the key, durably, and never the key
    document = station_document(host, "trust-1")
    assert document["key_hash"] == "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    assert key not in json.dumps(document)
    assert key not in host.ok("GET", "/network/trust-1").__repr__()

    impostor = agents(
        host,
        "trust-1",
        "--no-browser",
        "--power-command",
        f"echo {{state}} >> {fake_screen}",
        name="impostor",
    )
    wait_until(lambda: "refused station trust-1" in impostor.log(), 15)
    wait_until(lambda: "locked to another device" in host.log(), 5)
    # the real agent keeps its station: connected, not replaced
    assert legit.alive and "took it over" not in legit.log()
    station = host.station("trust-1")
    assert station is not None and station["agent"]["online"] and station["status"] == "CONNECTED"

    body = host.ok("PUT", "/system/dpms/forceoff", json={"displayID": str(display_id)})
    assert [s["result"] for s in body["screens"]] == ["done"]
    assert screen.read_text().splitlines()[-1] == "off"
    assert not fake_screen.exists()
    host.ok("PUT", "/system/dpms/forceon", json={"displayID": str(display_id)})
    assert host.log().count("refused, station trust-1") == 1

    # unlocking forgets the key, on the host and on the device
    host.ok("PUT", "/network/trust-1/unlock")
    wait_until(lambda: not key_file.exists(), 10, what="the agent to forget its key")
    assert station_document(host, "trust-1")["key_hash"] == ""


def test_the_agent_comes_back_after_a_host_restart(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    screen = tmp_path / "screen"
    agent = agents(
        host, "restart-1", "--no-browser", "--power-command", f"echo {{state}} >> {screen}"
    )
    agent_online(host, "restart-1")
    display_id = host.lock("restart-1")
    wait_until(lambda: (agent.state_dir / "restart-1.key").exists(), 10)
    host.ok("PUT", "/system/dpms/forceoff", json={"displayID": str(display_id)})

    host.kill()
    wait_until(lambda: "cannot reach the host" in agent.log(), 15)
    host.start()
    host.login()
    station = agent_online(host, "restart-1", timeout=40)
    assert station["status"] == "CONNECTED"
    # admitted with its key (no refusal), and still told its screen is off
    assert "refused" not in agent.log()
    body = host.ok("PUT", "/system/dpms/forceon", json={"displayID": str(display_id)})
    assert [s["result"] for s in body["screens"]] == ["done"]
    assert screen.read_text().splitlines()[-1] == "on"
