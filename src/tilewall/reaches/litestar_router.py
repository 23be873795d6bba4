"""A Litestar router registered without the deep copy Litestar makes of it.

Litestar registers a router by a deep copy of it (``Router.register``), so that one
router may be registered in several places. tilewall makes its routers afresh for each
app and registers each once, so the copy buys nothing, and it would be 30% of the time
an app takes to build (every start of the host, every test's app): ``create_app`` takes
250 ms of CPU, 365 ms with the copy. Relies on: registration copying a router with
:func:`copy.deepcopy` and then only setting the copy's ``owner``.
"""

from typing import Any

from litestar import Router


class AppRouter(Router):
    """A router made for one app and registered once: registered as it is."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "AppRouter":
        return self
