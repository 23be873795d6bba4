"""Every operation of the client has succeeded at least once in the client tests. It runs
after every other test of the session, whatever the order the files are given in
(tests/client/conftest.py puts it last), and only when the whole folder was collected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.client.conftest import CALLED, public_methods

HERE = Path(__file__).parent


def test_every_client_operation_succeeded_somewhere(request: pytest.FixtureRequest) -> None:
    modules = {p.stem for p in HERE.glob("test_*.py")} - {Path(__file__).stem}
    collected = {Path(str(item.path)).stem for item in request.session.items}
    if not modules <= collected:
        pytest.skip("needs the whole tests/client folder to run")
    missing = sorted(public_methods() - CALLED)
    assert not missing, f"never called with success: {missing}"
