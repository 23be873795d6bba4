"""How ``make test`` shares the tests out among pytest-xdist's workers (all but
tests/api, with ``--dist loadscope``): by module, so that a module's fixtures (a host
process, a browser, a rig of receivers) start once, except that the modules ``TOGETHER``
names are one unit of work and take turns on one worker. The units that take longest
are handed out first (``FIRST``), so that none of them is left to run on its own at the
end."""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

#: unit of work -> modules or folders (paths below tests/, a folder ending in "/") whose
#: tests run one after another on one worker
TOGETHER: dict[str, tuple[str, ...]] = {
    # test_every_method.py checks, after the others, the calls every client test made
    "client": ("client/",),
    # tiles kept in step, and measured, in Chromium (the benchmarks' renderer smoke among
    # them): never beside one another (each takes a core's worth and a loaded one skews
    # the others)
    "in-step": (
        "receivers/test_live_wall.py",
        "receivers/test_browser.py",
        "live/test_receiver_wall.py",
        "system/test_bench_smoke.py",
    ),
    # Xvnc desktops on the first free X display number: two started at once could pick
    # the same one
    "vnc": ("live/test_vnc.py", "live/test_vnc_wall.py"),
}
#: the units that take longest (a minute or more), longest first
FIRST = (
    "in-step",
    "receivers/test_ride_through.py",
    "live/test_protocols.py",
    "client",
)


def unit_of(module: str) -> str:
    """The unit of work of the tests in ``module`` (a path from the top of the tree,
    ``tests/...``): its ``TOGETHER`` group, or the module itself."""
    below = module.removeprefix("tests/")
    for name, places in TOGETHER.items():
        if any(below == p or (p.endswith("/") and below.startswith(p)) for p in places):
            return name
    return below


def first_units_first(items: list[pytest.Item]) -> None:
    """Put the tests of ``FIRST``'s units ahead of the others, in its order (the others,
    and the tests within a unit, keep their order)."""
    rank = {name: i for i, name in enumerate(FIRST)}

    def key(item: pytest.Item) -> int:
        return rank.get(unit_of(item.nodeid.split("::", 1)[0]), len(FIRST))

    items.sort(key=key)


class UnitScheduling(LoadScopeScheduling):
    """pytest-xdist's ``loadscope``, with ``unit_of`` for its scopes."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid.split("::", 1)[0])


def make_scheduler(config: pytest.Config, log: Any) -> UnitScheduling | None:
    """The scheduler for ``--dist loadscope``; None (xdist's own) for any other."""
    if config.getoption("dist") != "loadscope":
        return None
    return UnitScheduling(config, log)
