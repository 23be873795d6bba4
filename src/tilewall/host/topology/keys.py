"""Station keys: a locked station is bound to the device that was locked.

When a station is locked while its receiver (page or agent) is connected, the host makes
a key and hands it to the connections of that seat; the host keeps only its hash, in the
station document. Later connections for the seat must show the key: one that does not is
an impostor, shown the pairing screen and given nothing. Unlocking forgets the key. A
station locked while nothing of it was connected (or before keys existed) is bound at
its next connection.
"""

import hashlib
import hmac
import logging
import secrets
from collections.abc import Iterable

from tilewall.host.model import Station
from tilewall.host.state import Core

log = logging.getLogger(__name__)

PREFIX = "sha256:"


def new_key() -> str:
    """A fresh key: 43 URL-safe characters (256 bits)."""
    return secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return PREFIX + hashlib.sha256(key.encode()).hexdigest()


def matches(station: Station, key: str | None) -> bool:
    """Whether ``key`` is the key of ``station`` (constant time)."""
    if not station.key_hash or key is None:
        return False
    return hmac.compare_digest(station.key_hash, hash_key(key))


def held_by_a_locked_station(stations: Iterable[Station], key: str) -> bool:
    """Whether ``key`` is the key of any locked station (what media are sent for)."""
    if not key:
        return False
    wanted = hash_key(key)
    return any(
        s.locked and s.key_hash and hmac.compare_digest(s.key_hash, wanted) for s in stations
    )


def bind(station: Station) -> str:
    """Give ``station`` a new key (its hash goes into the document); the key is returned
    to be handed to the device, and is nowhere else."""
    key = new_key()
    station.key_hash = hash_key(key)
    return key


class Trust:
    """Admits connections to stations and hands out keys to be delivered.

    ``handed`` holds, per seat, a key not yet given to the seat's connections (None:
    they must forget theirs); the receiver hub takes it with :meth:`take`. ``sent``
    holds a key given to connections that say when they have kept it, until one does:
    a connection may close with the key on its way (a page reloading as it is locked),
    and the device then comes back without it."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self.handed: dict[str, str | None] = {}
        self.sent: dict[str, str] = {}

    def take(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        """``(True, key)`` if a key (or a "forget", None) waits for the seat's connections.
        ``confirmed``: they will say when they have kept it (:meth:`stored`); until then
        the key is held for the seat's next connection without one."""
        if seat_id not in self.handed:
            return False, None
        key = self.handed.pop(seat_id)
        if key is not None and confirmed:
            self.sent[seat_id] = key
        else:
            self.sent.pop(seat_id, None)
        return True, key

    def hand(self, seat_id: str, key: str | None) -> None:
        self.handed[seat_id] = key
        self.sent.pop(seat_id, None)

    def stored(self, seat_id: str, key: str) -> None:
        """A connection of the seat kept ``key``."""
        if self.sent.get(seat_id) == key:
            del self.sent[seat_id]

    async def admit(self, seat_id: str, key: str | None) -> bool:
        """Whether a connection that says hello for ``seat_id`` with ``key`` may have the
        station. A locked station without a key is bound now, to this connection."""
        station = self._core.state.stations.get(seat_id)
        if station is None or not station.locked:
            return True
        if station.key_hash:
            if key is not None and matches(station, key):
                self.stored(seat_id, key)  # shown again: it was kept
                return True
            return self._waiting(seat_id, key)
        async with self._core.change() as tx:
            if station.key_hash:  # bound by another connection meanwhile
                return self._waiting(seat_id, key)
            fresh = bind(station)
            tx.put(station)
        self.hand(seat_id, fresh)
        log.info("station %s bound to the device connected now", seat_id)
        return True

    def _waiting(self, seat_id: str, key: str | None) -> bool:
        """A key was made for the seat and is not handed yet, or was sent and not kept:
        a connection without one that comes meanwhile is one it will be handed to."""
        if key is not None:
            return False
        if self.handed.get(seat_id) is not None:
            return True
        lost = self.sent.pop(seat_id, None)
        if lost is None:
            return False
        log.info("station %s: its key was not kept; handed to its next connection", seat_id)
        self.handed[seat_id] = lost
        return True
