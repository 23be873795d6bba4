"""Fixtures of the /system tests."""

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tilewall.host.system import licensing


@pytest.fixture
def signing_key(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Ed25519PrivateKey:
    """A key made for this test; the host under test trusts it (via the environment).

    Request it before the ``api`` fixture: the host reads its keys when it starts (and
    after ``data_dir``, which clears the variable).
    """
    key = licensing.generate_signing_key()
    monkeypatch.setenv("TILEWALL_LICENCE_KEYS", licensing.public_key_text(key))
    return key
