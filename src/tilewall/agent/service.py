"""The agent: one connection to the host as its station's agent, kept up with backoff,
and what it does on the host's word: screen power, serial writes, browser restarts."""

import asyncio
import base64
import contextlib
import logging
import random
import signal
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tilewall.agent import FIRMWARE, machine, serialport, wire
from tilewall.agent.backoff import Backoff
from tilewall.agent.browser import Browser
from tilewall.agent.capture import CaptureLink
from tilewall.agent.devices import DeviceWatch
from tilewall.agent.keystore import KeyStore
from tilewall.agent.power import PowerError, PowerSwitch

log = logging.getLogger(__name__)

#: after another agent took the seat over, wait this long before trying again
REPLACED_PAUSE_S = 60.0
#: the host pings every second: this long without a message means the link is dead
SILENCE_S = 10.0
CLOSE_REPLACED = 4000


@dataclass
class AgentConfig:
    host: str
    seat: str
    state_dir: Path
    name: str | None = None
    #: the browser to keep on the receiver page; None: no browser
    browser: str | None = None
    browser_args: list[str] = field(default_factory=list)
    power: str = "none"
    power_command: str = ""
    serial_port: str = ""
    sysfs: Path = Path("/sys")


def endpoints(host: str) -> tuple[str, str]:
    """The receiver WebSocket and the host's base address, from ``http(s)://host:port``."""
    text = host.strip().rstrip("/")
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"the host is http://NAME:PORT or https://NAME:PORT, not {host!r}")
    base = f"{parts.scheme}://{parts.netloc}"
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/receiver/ws", base


class Agent:
    def __init__(self, config: AgentConfig) -> None:
        self.config = config
        self.ws_url, self.base_url = endpoints(config.host)
        self.keys = KeyStore(config.state_dir, config.seat)
        self.key = self.keys.load()
        self.power = PowerSwitch(config.power, config.power_command)
        self.devices = DeviceWatch(config.seat, config.sysfs, changed=self._devices_changed)
        self.browser: Browser | None = None
        if config.browser:
            self.browser = Browser(
                config.browser, self.page_url, config.state_dir / "browser", config.browser_args
            )
        self._socket: ClientConnection | None = None
        self._welcomed = False
        self._refused = False
        self._replaced = False
        self._wanted: wire.PowerState | None = None
        self._applied: wire.PowerState | None = None
        self._power_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def page_url(self) -> str:
        """The receiver page for this seat; its key rides in the fragment, which the
        page keeps in its storage and which never goes over the network."""
        url = f"{self.base_url}/receiver/?seat={quote(self.config.seat)}"
        return f"{url}#key={self.key}" if self.key else url

    # --- running --------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        self.devices.start()
        browser = asyncio.create_task(self.browser.run()) if self.browser else None
        # capture devices shown on the wall: a link of their own, once the station is locked
        ws_base = self.ws_url.removesuffix("/receiver/ws")
        captures = CaptureLink(ws_base, self.config.seat, lambda: self.key)
        self._spawn(captures.run(stop))
        try:
            await self._connect_loop(stop)
        finally:
            if self.browser is not None and browser is not None:
                await self.browser.stop()
                browser.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await browser
            self.devices.stop()
            for task in list(self._tasks):
                task.cancel()

    async def _connect_loop(self, stop: asyncio.Event) -> None:
        backoff = Backoff()
        while not stop.is_set():
            self._replaced = False
            try:
                async with connect(
                    self.ws_url,
                    max_size=wire.MAX_FRAME_BYTES,
                    open_timeout=10,
                    ping_interval=None,
                    close_timeout=2,
                ) as socket:
                    await self._session(socket, stop)
            except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
                log.warning("cannot reach the host at %s: %s", self.ws_url, error or type(error))
            if stop.is_set():
                return
            if self._welcomed:
                backoff.reset()
            # ±20 %: agents that lost the host together do not come back together
            delay = backoff.pause() * random.uniform(0.8, 1.2)
            if self._replaced:
                delay = REPLACED_PAUSE_S
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)

    async def _session(self, socket: ClientConnection, stop: asyncio.Event) -> None:
        self._socket, self._welcomed = socket, False
        config = self.config
        await self._send(
            wire.Hello(
                seat_id=config.seat,
                model=machine.model(),
                firmware=FIRMWARE,
                power=self.power.method,
                serial_port=config.serial_port,
                browser=self.browser is not None,
                name=config.name,
                key=self.key,
            )
        )
        stopping = asyncio.create_task(stop.wait())
        try:
            while True:
                receive = asyncio.create_task(socket.recv())
                done, _ = await asyncio.wait(
                    {receive, stopping}, timeout=SILENCE_S, return_when=asyncio.FIRST_COMPLETED
                )
                if stopping in done or not done:
                    receive.cancel()
                    if not done:
                        log.warning("the host went silent; connecting again")
                    return
                message = wire.decode(receive.result())
                if message is not None:
                    self._handle(message)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code == CLOSE_REPLACED:
                self._replaced = True
                log.error(
                    "another agent connected as station %s and took it over; trying again in %g s",
                    config.seat,
                    REPLACED_PAUSE_S,
                )
            else:
                log.warning("connection to the host closed (%s)", code)
        finally:
            stopping.cancel()
            self._socket = None

    async def _send(self, message: wire.Outgoing) -> None:
        socket = self._socket
        if socket is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await socket.send(wire.encode(message))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the host's messages ------------------------------------------------------------

    def _handle(self, message: wire.Incoming) -> None:
        kind = message.type
        if kind == "welcome":
            self._welcome(message)
        elif kind == "state" and message.state is not None:
            self._spawn(self._send(wire.Ack(rev=message.rev)))
            self._render(message.state)
        elif kind == "ping":
            self._spawn(self._send(wire.Pong(id=message.id)))
        elif kind in ("reset", "reload") and self.browser is not None:
            self.browser.restart(f"the host asked for a {kind}")
        elif kind == "key":
            self._key(message.key, message.roles)
        elif kind == "serial":
            self._spawn(self._serial(message))

    def _welcome(self, message: wire.Incoming) -> None:
        self._welcomed = True
        if message.refused:
            if not self._refused:
                log.error(
                    "the host refused station %s: %s. Re-pair it from the console (Receivers) "
                    "to bind it to this device",
                    self.config.seat,
                    message.refused,
                )
            self._refused = True
            return
        self._refused = False
        log.info("connected to %s as the agent of station %s", self.base_url, self.config.seat)
        self._spawn(self._send(wire.Ack(rev=message.rev)))
        self.devices.scan()
        self._spawn(self._send(self.devices.snapshot()))
        if message.state is not None:
            self._render(message.state)

    def _key(self, key: str | None, roles: list[str]) -> None:
        if key is None:
            self.keys.forget()
            self.key = None
            return
        self.keys.save(key)
        self.key = key
        # said once on disk: the host holds the key for this seat's next connection
        # until then, as the agent may go (a power cut) with the key on its way
        self._spawn(self._send(wire.KeyStored(key=key)))
        if self.browser is not None and "page" not in roles:
            self.browser.restart("the page gets the station key")

    def _devices_changed(self) -> None:
        if self._socket is not None and self._welcomed and not self._refused:
            self._spawn(self._send(self.devices.snapshot()))

    # --- power --------------------------------------------------------------------------

    def _render(self, state: wire.RenderState) -> None:
        if self._refused or self.power.method == "none":
            return
        self._wanted = "off" if state.overlays.dpms_off else "on"
        if self._power_task is None or self._power_task.done():
            self._power_task = asyncio.create_task(self._switch())

    async def _switch(self) -> None:
        """Switch until the screen is as the host wants it; a failure waits for the
        host's next word."""
        while self._wanted is not None and self._wanted != self._applied:
            state = self._wanted
            try:
                await self.power.switch(state)
            except PowerError as error:
                log.error("screen %s by %s failed: %s", state, self.power.method, error)
                report = wire.Power(
                    state=state, ok=False, method=self.power.method, message=str(error)[:1000]
                )
                await self._send(report)
                if self._wanted == state:
                    return  # tried again on the host's next word
                continue
            self._applied = state
            log.info("screen switched %s by %s", state, self.power.method)
            await self._send(wire.Power(state=state, ok=True, method=self.power.method))

    # --- serial -------------------------------------------------------------------------

    async def _serial(self, message: wire.Incoming) -> None:
        port = self.config.serial_port
        if not port:
            await self._send(
                wire.Result(id=message.id, ok=False, message="this agent has no serial port")
            )
            return
        try:
            data = base64.b64decode(message.data, validate=True)
            await serialport.write(
                port, message.baud_rate, message.data_bits, message.parity, message.stop_bits, data
            )
        except (serialport.SerialError, ValueError) as error:
            log.error("serial write to %s failed: %s", port, error)
            await self._send(wire.Result(id=message.id, ok=False, message=str(error)[:1000]))
            return
        await self._send(wire.Result(id=message.id, ok=True))


async def run_until_signalled(agent: Agent) -> None:
    """Run ``agent`` until SIGTERM or SIGINT; the browser is stopped on the way out."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await agent.run(stop)
