"""Receivers that come and go over real WebSockets, the soak's churn: each says hello
(protocol v1), answers pings and acknowledges states, leaves after a random stay and
comes back, until the end. Run alone, in a process of their own, they are the churn of
bench/groupload.py's load:

    python bench/churn.py CONFIG.json   # {"base_url", "seats", "seconds"}; JSON on stdout
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, WebSocketException

HELLO_SCREEN = {"width": 1920, "height": 1080}
#: how long a receiver stays, as a share of the run (then away 0.2-2 s, as in the soak)
STAY_SHARE = (1 / 20, 1 / 4)


class Churn:
    """The receivers of ``seats`` coming and going on one host, and what they met."""

    def __init__(self, base: str, seats: list[str]) -> None:
        self.ws_url = base.replace("http://", "ws://", 1) + "/receiver/ws"
        self.seats = seats
        self.deadline = 0.0
        self.online: set[str] = set()
        self.connects = 0
        self.ws_failures = 0
        self.closed_by_host: Counter[int] = Counter()
        #: hellos the host refused: should stay 0 (a key lost on its way as a receiver
        #: leaves at the moment of a lock is held by the host for its next connection)
        self.refused = 0

    async def receiver(self, seat: str, stay_s: tuple[float, float]) -> None:
        """Connect, hello, answer; leave after a random stay and come back, until the end."""
        rev = 0
        key: str | None = None  # the station key the host handed this receiver, if any
        while time.monotonic() < self.deadline:
            leave_at = time.monotonic() + random.uniform(*stay_s)
            try:
                async with await connect(
                    self.ws_url, ping_interval=None, max_size=2**20, open_timeout=60
                ) as ws:
                    self.connects += 1
                    await ws.send(
                        json.dumps(
                            {
                                "v": 1,
                                "type": "hello",
                                "seatId": seat,
                                "screen": HELLO_SCREEN,
                                "resolutions": [HELLO_SCREEN],
                                "model": "soak receiver",
                                "firmware": "bench-soak/1",
                                "rev": rev,
                                "features": ["keyStored"],
                                **({"key": key} if key else {}),
                            }
                        )
                    )
                    self.online.add(seat)
                    while (left := min(leave_at, self.deadline) - time.monotonic()) > 0:
                        try:
                            text = await asyncio.wait_for(ws.recv(), timeout=left)
                        except TimeoutError:
                            break
                        message = json.loads(text)
                        kind = message.get("type")
                        if kind == "ping":
                            await ws.send(json.dumps({"v": 1, "type": "pong", "id": message["id"]}))
                        elif kind == "key":
                            key = message.get("key")
                            if key:
                                kept = {"v": 1, "type": "keyStored", "key": key}
                                await ws.send(json.dumps(kept))
                        elif kind == "welcome" and message.get("refused"):
                            self.refused += 1
                        elif kind in ("welcome", "state"):
                            rev = message["rev"]
                            await ws.send(json.dumps({"v": 1, "type": "ack", "rev": rev}))
            except ConnectionClosed as closed:
                # the host ended it: a receiver too slow to answer its pings is dropped
                code = closed.rcvd.code if closed.rcvd is not None else -1
                self.closed_by_host[code] += 1
            except (OSError, WebSocketException, TimeoutError):
                self.ws_failures += 1
                await asyncio.sleep(1.0)
            finally:
                self.online.discard(seat)
            await asyncio.sleep(random.uniform(0.2, 2.0))

    async def start(self, stay_s: tuple[float, float], deadline: float) -> list[asyncio.Task[None]]:
        """Every receiver, coming and going until ``deadline`` (monotonic s)."""
        self.deadline = deadline
        receivers = []
        for seat in self.seats:  # a fleet powering up, not a flood
            receivers.append(asyncio.create_task(self.receiver(seat, stay_s)))
            await asyncio.sleep(0.005)
        return receivers

    async def run(self, seconds: float, stay_s: tuple[float, float]) -> dict[str, Any]:
        """Only the receivers, coming and going for ``seconds``; what they saw."""
        await asyncio.gather(*await self.start(stay_s, time.monotonic() + seconds))
        return {
            "receivers": len(self.seats),
            "connects": self.connects,
            "connect_failures": self.ws_failures,
            "refused": self.refused,
            "closed_by_host": {str(k): v for k, v in self.closed_by_host.items()},
        }


def main() -> None:
    config = json.loads(Path(sys.argv[1]).read_text())
    seconds = float(config["seconds"])
    runner = Churn(config["base_url"], list(config["seats"]))
    stay = (max(seconds * STAY_SHARE[0], 2.0), max(seconds * STAY_SHARE[1], 4.0))
    print(json.dumps(asyncio.run(runner.run(seconds, stay))))


if __name__ == "__main__":
    main()
