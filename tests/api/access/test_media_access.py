"""/media/... answers a logged-in session or a locked station's key, 401 otherwise."""

from typing import Any

from tests.support.app import host_of, run
from tests.support.http import error, login, ok
from tests.support.media import png_bytes
from tests.support.topology import register
from tilewall.host.topology import keys

MEDIA = "http://testserver.local/media/still.png"


async def bind(host: Any, seat: str) -> str:
    station = host.state.stations[seat]
    async with host.core.change() as tx:
        key = keys.bind(station)
        tx.put(station)
    return key


def test_media_need_a_session_or_a_locked_stations_key(api) -> None:
    ok(api.put("/media/still.png", content=png_bytes()))
    assert api.get(MEDIA).status_code == 200  # the console's session
    station = register(api, "key-seat")
    ok(api.put("/network/key-seat/lock"))
    key = run(api, bind, host_of(api), station.seat_id)
    api.forget_session()

    error(api.get(MEDIA), 401, "session")
    for name, value in (("tilewall_key_key-seat", "not-the-key-of-anyone-at-all"), ("other", key)):
        api.cookies.clear()
        api.cookies.set(name, value)
        error(api.get(MEDIA), 401)
    api.cookies.clear()
    api.cookies.set("tilewall_key_key-seat", key)
    answer = api.get(MEDIA, headers={"Range": "bytes=0-3"})
    assert answer.status_code == 206 and answer.content == b"\x89PNG"

    # unlocked, the station's key opens nothing
    api.cookies.clear()
    login(api)
    ok(api.put("/network/key-seat/unlock"))
    api.forget_session()
    api.cookies.set("tilewall_key_key-seat", key)
    error(api.get(MEDIA), 401)


def test_a_hello_with_a_new_identity_keeps_the_stations_key(api) -> None:
    """The key survives a receiver that comes back with other firmware or screen: its
    media are still sent, and no other device can take the station."""
    ok(api.put("/media/still.png", content=png_bytes()))
    station = register(api, "kept-seat", model="Kiosk", firmware="1.0")
    ok(api.put("/network/kept-seat/lock"))
    key = run(api, bind, host_of(api), station.seat_id)
    register(api, "kept-seat", model="Kiosk 2", firmware="2.0")
    assert keys.matches(host_of(api).state.stations["kept-seat"], key)
    api.forget_session()
    api.cookies.set("tilewall_key_kept-seat", key)
    assert api.get(MEDIA).status_code == 200
