"""Helpers of the /system tests: activation codes, and running host coroutines on the
app's event loop (as the receiver hub does)."""

from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from litestar.testing import TestClient

from tilewall.host.system import licensing

T = TypeVar("T")


def code(
    key: Ed25519PrivateKey,
    stations: int | None = 10,
    expires: str = "2099-12-31",
    system_id: str = "",
    source_types: list[str] | None = None,
    reseller: str = "AV Partners",
) -> str:
    return licensing.issue(
        key,
        licensing.LicenceTerms(
            reseller_name=reseller,
            number_of_stations=stations,
            issued=date.today().isoformat(),
            expires=expires,
            support_expires="2099-01-01",
            system_id=system_id,
            source_types=source_types,
        ),
    )


def call(client: TestClient, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:  # type: ignore[type-arg]
    """Run a host coroutine on the app's loop, as the receiver hub would."""
    with client.portal() as portal:
        return portal.call(lambda: fn(*args, **kwargs))
