"""A short but real load on a group of hosts, from one process: on every member, writers
(each creates web sources one after the other, as fast as they are answered; a
standby forwards them) and readers (the source list and the group, as consoles poll
them), and receivers that connect to the active member, stay a moment, leave and come
back (churn). What was answered is counted, for a test to see that the load was real."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from tests.support.cluster import Host, web_source

SCREEN = {"width": 1920, "height": 1080}


@dataclass
class Load:
    hosts: list[Host]
    #: the member the receivers connect to
    receivers_on: Host
    writers: int = 3
    readers: int = 2
    receivers: int = 60
    #: how long a receiver stays connected, and waits before it comes back (s)
    stay_s: tuple[float, float] = (0.5, 3.0)
    away_s: tuple[float, float] = (0.1, 0.5)
    #: answers by host name and status (0: no answer)
    answers: dict[str, Counter[int]] = field(default_factory=dict)
    welcomed: int = 0
    receiver_failures: int = 0
    _deadline: float = 0.0
    _n: int = 0

    def run(self, seconds: float) -> None:
        asyncio.run(self._run(seconds))

    async def _run(self, seconds: float) -> None:
        self._deadline = time.monotonic() + seconds
        clients = [
            httpx.AsyncClient(base_url=h.base, cookies={"JSESSIONID": h.token}, timeout=10)
            for h in self.hosts
        ]
        try:
            tasks = [
                *(
                    self._write(h, c)
                    for h, c in zip(self.hosts, clients, strict=True)
                    for _ in range(self.writers)
                ),
                *(
                    self._read(h, c)
                    for h, c in zip(self.hosts, clients, strict=True)
                    for _ in range(self.readers)
                ),
                *(self._receiver(f"load-{n:04d}") for n in range(self.receivers)),
            ]
            await asyncio.gather(*tasks)
        finally:
            for client in clients:
                await client.aclose()

    def _count(self, host: Host, status: int) -> None:
        self.answers.setdefault(host.name, Counter())[status] += 1

    async def _write(self, host: Host, client: httpx.AsyncClient) -> None:
        while time.monotonic() < self._deadline:
            self._n += 1
            try:
                answer = await client.post("/sources", json=web_source(f"load-{self._n:06d}"))
            except httpx.HTTPError:
                self._count(host, 0)
                continue
            self._count(host, answer.status_code)

    async def _read(self, host: Host, client: httpx.AsyncClient) -> None:
        paths = ("/sources", "/group", "/network")
        n = 0
        while time.monotonic() < self._deadline:
            n += 1
            try:
                answer = await client.get(paths[n % len(paths)])
            except httpx.HTTPError:
                self._count(host, 0)
                continue
            self._count(host, answer.status_code)

    async def _receiver(self, seat: str) -> None:
        url = self.receivers_on.address.replace("http", "ws", 1) + "/receiver/ws"
        hello = {
            "v": 1,
            "type": "hello",
            "seatId": seat,
            "screen": SCREEN,
            "resolutions": [SCREEN],
            "model": "test receiver",
            "firmware": "test",
            "rev": 0,
        }
        await asyncio.sleep(random.uniform(0, 1))
        while time.monotonic() < self._deadline:
            leave_at = min(time.monotonic() + random.uniform(*self.stay_s), self._deadline)
            try:
                async with connect(url, open_timeout=10) as socket:
                    await socket.send(json.dumps(hello))
                    while (left := leave_at - time.monotonic()) > 0:
                        try:
                            text = await asyncio.wait_for(socket.recv(), timeout=left)
                        except TimeoutError:
                            break
                        message = json.loads(text)
                        kind = message.get("type")
                        if kind == "ping":
                            await socket.send(
                                json.dumps({"v": 1, "type": "pong", "id": message["id"]})
                            )
                        elif kind == "key":
                            hello["key"] = message.get("key")
                        elif kind == "welcome":
                            self.welcomed += 1
                        if kind in ("welcome", "state", "content"):
                            ack = {"v": 1, "type": "ack", "rev": message["rev"]}
                            await socket.send(json.dumps(ack))
            except (OSError, TimeoutError, WebSocketException):
                self.receiver_failures += 1
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(random.uniform(*self.away_s))
