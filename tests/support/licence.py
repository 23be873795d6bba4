"""Licences: a signing key the host under test trusts, and activation codes it signs."""

from __future__ import annotations

from datetime import date

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tilewall.host.licence import codes


@pytest.fixture
def signing_key(data_dir: object, monkeypatch: pytest.MonkeyPatch) -> Ed25519PrivateKey:
    """A key made for this test; the host under test trusts it (via the environment).

    Request it before the ``api`` fixture: the host reads its keys when it starts (and
    after ``data_dir``, which clears the variable).
    """
    key = codes.generate_signing_key()
    monkeypatch.setenv("TILEWALL_LICENCE_KEYS", codes.public_key_text(key))
    return key


def code(
    key: Ed25519PrivateKey,
    stations: int | None = 10,
    expires: str = "2099-12-31",
    system_id: str = "",
    source_types: list[str] | None = None,
    reseller: str = "AV Partners",
) -> str:
    """An activation code signed by ``key``."""
    return codes.issue(
        key,
        codes.LicenceTerms(
            reseller_name=reseller,
            number_of_stations=stations,
            issued=date.today().isoformat(),
            expires=expires,
            support_expires="2099-01-01",
            system_id=system_id,
            source_types=source_types,
        ),
    )
