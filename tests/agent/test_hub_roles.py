"""The hub's two roles of a station, station keys and agent commands, in process (the
process-level tests drive the same through a real host)."""

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.fakes import FakeHost
from tilewall.host.errors import Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.host.memory import Event
from tilewall.host.topology.agents import AgentHello
from tilewall.receivers.hub import Hub
from tilewall.receivers.session import CLOSE_REPLACED, Limits

PAGE = {"v": 1, "type": "hello", "screen": {"width": 1280, "height": 720}, "model": "page"}
AGENT = {"v": 1, "type": "hello", "role": "agent", "model": "agent", "power": "cec"}


class Link:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int) -> None:
        self.closed = code

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == kind]


class Stations:
    """A StationPort that refuses the keys it is told to and records what agents say."""

    def __init__(self) -> None:
        self.bound: dict[str, str] = {}
        self.waiting: dict[str, str | None] = {}
        self.calls: list[tuple[Any, ...]] = []

    async def admit(self, seat_id: str, key: str | None) -> bool:
        return seat_id not in self.bound or self.bound[seat_id] == key

    def take_key(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        if seat_id in self.waiting:
            self.calls.append(("key taken", seat_id, confirmed))
            return True, self.waiting.pop(seat_id)
        return False, None

    def key_stored(self, seat_id: str, key: str) -> None:
        self.calls.append(("key stored", seat_id, key))

    async def agent_hello(self, hello: AgentHello) -> None:
        self.calls.append(("hello", hello.seat_id, hello))

    def agent_gone(self, seat_id: str) -> None:
        self.calls.append(("gone", seat_id))

    def agent_devices(self, seat_id: str, devices: Any, items: Any) -> None:
        self.calls.append(("devices", seat_id, devices, items))

    def agent_power(self, seat_id: str, *args: Any) -> None:
        self.calls.append(("power", seat_id, *args))

    def refused(self, seat_id: str, ip: str, role: str, token: int) -> None:
        self.calls.append(("refused", seat_id, ip, role))

    def refusal_ended(self, seat_id: str, token: int) -> None:
        self.calls.append(("refusal ended", seat_id))


@pytest.fixture
async def rig() -> AsyncIterator[tuple[Hub, FakeHost, Stations]]:
    host, stations = FakeHost(), Stations()
    hub = Hub(host, Limits(agent_command_s=0.5), stations=stations)
    await hub.start()
    yield hub, host, stations
    await hub.stop()


async def connect(hub: Hub, hello: dict[str, Any], seat: str, **extra: Any) -> tuple[Link, Any]:
    link = Link()
    session = hub.open(link, "192.0.2.7")
    await hub.receive(session, json.dumps({**hello, "seatId": seat, **extra}))
    await asyncio.sleep(0.05)
    return link, session


async def test_page_and_agent_are_one_station(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, host, stations = rig
    page, page_session = await connect(hub, PAGE, "s1")
    agent, agent_session = await connect(hub, AGENT, "s1")
    assert page.of("welcome") and agent.of("welcome")
    assert page.closed is None, "the agent must not replace the page"
    assert host.hellos == [("s1", "192.0.2.7", "page")]  # the agent says its own hello
    assert stations.calls[0][:2] == ("hello", "s1")
    # both are told each change
    host.lock("s1", 4)
    await asyncio.sleep(0.1)
    assert page.of("state") and agent.of("state")
    assert page.of("state")[-1]["rev"] == agent.of("state")[-1]["rev"]
    # online while either is connected
    assert host.online == {"s1": True}
    await hub.close(page_session)
    assert host.online == {"s1": True} and hub.online("s1")
    await hub.close(agent_session)
    assert host.online == {"s1": False}
    assert ("gone", "s1") in stations.calls


async def test_a_page_without_screen_is_dropped(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, host, _ = rig
    link, _session = await connect(hub, {**PAGE, "screen": None}, "s2")
    assert not link.of("welcome") and not host.hellos


async def test_an_impostor_takes_nothing_over(
    rig: tuple[Hub, FakeHost, Stations], caplog: pytest.LogCaptureFixture
) -> None:
    hub, host, stations = rig
    stations.bound["s3"] = "k" * 43
    real, _ = await connect(hub, PAGE, "s3", key="k" * 43)
    host.lock("s3", 5)
    await asyncio.sleep(0.05)
    caplog.set_level(logging.WARNING)
    fake, fake_session = await connect(hub, PAGE, "s3", key="x" * 43)
    welcome = fake.of("welcome")[0]
    assert welcome["refused"] and welcome["state"]["role"] == "pairing"
    assert real.closed is None
    assert len(host.hellos) == 1
    # an agent without the key is refused too, and its reports go nowhere
    agent, agent_session = await connect(hub, AGENT, "s3")
    assert agent.of("welcome")[0]["refused"]
    await hub.receive(
        agent_session, json.dumps({"v": 1, "type": "power", "state": "off", "ok": True})
    )
    assert not [c for c in stations.calls if c[0] in ("hello", "power")]
    assert [c for c in stations.calls if c[0] == "refused"] == [
        ("refused", "s3", "192.0.2.7", "page"),
        ("refused", "s3", "192.0.2.7", "agent"),
    ]
    # pushes go to the real page only
    fake.sent.clear()
    host.publish(Event(frozenset({5})))
    await asyncio.sleep(0.1)
    assert not fake.of("state")
    assert sum("refused" in r.message for r in caplog.records) == 2
    await hub.close(fake_session)
    assert hub.online("s3")


async def test_the_host_gives_a_refused_device_its_station(
    rig: tuple[Hub, FakeHost, Stations],
) -> None:
    """Re-paired: the newest refused page and agent are the station's, no reconnect;
    the waiting key goes to them before their welcome; an older refused page stays
    refused."""
    hub, host, stations = rig
    stations.bound["s5"] = "k" * 43
    older, _ = await connect(hub, PAGE, "s5", key="x" * 43)
    newer, _ = await connect(hub, PAGE, "s5")
    agent, _ = await connect(hub, AGENT, "s5")
    assert not hub.online("s5")
    stations.bound["s5"] = "n" * 43
    stations.waiting["s5"] = "n" * 43
    host.lock("s5", 6)
    await hub.adopt("s5")
    await asyncio.sleep(0.05)
    for link in (newer, agent):
        kinds = [m["type"] for m in link.sent]
        assert kinds[-2:] == ["key", "welcome"], kinds
        assert link.of("key")[-1]["key"] == "n" * 43
        assert link.of("welcome")[-1]["refused"] is None
    assert newer.of("welcome")[-1]["state"]["role"] != "pairing"
    assert not older.of("key") and older.of("welcome")[-1]["refused"]
    assert hub.online("s5") and ("s5", "192.0.2.7", "page") in host.hellos
    assert stations.calls.count(("refusal ended", "s5")) == 2
    # nothing more to give: adopting again changes nothing
    await hub.adopt("s5")
    assert len(older.of("welcome")) == 1


async def test_keys_go_to_both_roles(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, _, stations = rig
    page, _ = await connect(hub, PAGE, "s4")
    agent, _ = await connect(hub, AGENT, "s4")
    stations.waiting["s4"] = "q" * 43
    hub.hand_key("s4")
    await asyncio.sleep(0.05)
    for link in (page, agent):
        assert link.of("key") == [
            {"type": "key", "key": "q" * 43, "roles": ["page", "agent"], "v": 1}
        ]
    stations.waiting["s4"] = None
    hub.hand_key("s4")
    await asyncio.sleep(0.05)
    assert page.of("key")[-1]["key"] is None


async def test_a_key_waits_for_the_first_connection(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, _, stations = rig
    stations.waiting["s5"] = "w" * 43
    hub.hand_key("s5")  # nobody there: kept
    assert "s5" in stations.waiting
    agent, _ = await connect(hub, AGENT, "s5")
    assert agent.of("key") == [{"type": "key", "key": "w" * 43, "roles": ["agent"], "v": 1}]


async def test_a_second_agent_replaces_the_first(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, _, _ = rig
    first, _ = await connect(hub, AGENT, "s6")
    second, _ = await connect(hub, AGENT, "s6")
    assert first.closed == CLOSE_REPLACED and second.closed is None


async def test_agents_send_larger_frames_than_pages(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, _, stations = rig
    _agent, session = await connect(hub, AGENT, "s7")
    many = [
        {
            "is_initialized": True,
            "name": f"tty{i}",
            "subsystem": "tty",
            "sysfs_path": f"/sys/x/tty{i}",
        }
        for i in range(400)
    ]
    frame = json.dumps({"v": 1, "type": "devices", "udev": many, "items": []})
    assert len(frame) > 16 * 1024
    await hub.receive(session, frame)
    reported = [c for c in stations.calls if c[0] == "devices"]
    assert len(reported[0][2]) == 400
    _page, page_session = await connect(hub, PAGE, "s8")
    assert page_session.drops == 0
    await hub.receive(page_session, frame)
    assert page_session.drops == 1


async def test_serial_waits_for_the_agents_answer(rig: tuple[Hub, FakeHost, Stations]) -> None:
    hub, _, _ = rig
    agent, session = await connect(hub, AGENT, "s9", serialPort="/dev/ttyUSB0")
    settings = SerialSettings(9600, 8, "N", 1.0)

    async def answer(ok: bool, message: str = "") -> None:
        while not agent.of("serial"):
            await asyncio.sleep(0.01)
        command = agent.of("serial")[-1]
        assert (command["baudRate"], command["data"]) == (9600, "aGk=")
        await hub.receive(
            session,
            json.dumps(
                {"v": 1, "type": "result", "id": command["id"], "ok": ok, "message": message}
            ),
        )

    await asyncio.gather(hub.agents.serial("s9", settings, b"hi"), answer(True))
    agent.sent.clear()
    with pytest.raises(Unavailable, match="no such device"):
        await asyncio.gather(
            hub.agents.serial("s9", settings, b"hi"), answer(False, "no such device")
        )
    with pytest.raises(Unavailable, match="did not answer"):
        await hub.agents.serial("s9", settings, b"hi")
    with pytest.raises(Unavailable, match="offline"):
        await hub.agents.serial("nobody", settings, b"hi")
