"""Every operation of the client has succeeded at least once in the client tests (this
module runs after the others of the folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.client.conftest import CALLED, public_methods

HERE = Path(__file__).parent


def test_every_client_operation_succeeded_somewhere(request: pytest.FixtureRequest) -> None:
    modules = {p.stem for p in HERE.glob("test_*.py")} - {
        Path(__file__).stem,
        "test_cli",
        "test_cli_schedule",
    }
    ran = {Path(str(item.path)).stem for item in request.session.items}
    if not modules <= ran:
        pytest.skip("needs the whole tests/client folder to run")
    missing = sorted(public_methods() - CALLED)
    assert not missing, f"never called with success: {missing}"
