"""Receivers named by an operator: validation, and the name sticks over later hellos."""

import pytest

from tilewall.host.errors import Invalid, NotFound
from tilewall.host.host import Host
from tilewall.host.model import Resolution


async def _hello(host: Host, seat: str, name: str = "") -> None:
    await host.stations.hello(
        seat, "10.9.0.1", "m", "f", Resolution(1920, 1080), [Resolution(1920, 1080)], name=name
    )


async def test_a_receivers_own_name_applies_until_an_operator_names_it(host: Host) -> None:
    await _hello(host, "rx-1", "Kiosk")
    assert host.state.stations["rx-1"].name == "Kiosk"
    await _hello(host, "rx-1", "Kiosk 2")  # the receiver renamed itself
    assert host.state.stations["rx-1"].name == "Kiosk 2"

    station = await host.stations.set_identity("rx-1", " Lobby ", "Ground floor")
    assert (station.name, station.location, station.named) == ("Lobby", "Ground floor", True)
    await _hello(host, "rx-1", "Kiosk 3")
    assert host.state.stations["rx-1"].name == "Lobby"

    # location alone keeps the name
    await host.stations.set_identity("rx-1", location="Hall")
    assert (host.state.stations["rx-1"].name, host.state.stations["rx-1"].location) == (
        "Lobby",
        "Hall",
    )


async def test_names_are_validated(host: Host) -> None:
    await _hello(host, "rx-2")
    for name, location in (("", None), ("  ", None), ("x" * 257, None), (None, "y" * 257)):
        with pytest.raises(Invalid):
            await host.stations.set_identity("rx-2", name, location)
    await host.stations.set_identity("rx-2", "x" * 256, "y" * 256)
    with pytest.raises(NotFound):
        await host.stations.set_identity("nobody", "x")
