"""Kept only for tests/test_schemathesis.py, which still imports these three names from
here; everything else lives in the support package (tests/support). Remove this file
once that module imports them from tests.support."""

from tests.support.media import png_bytes
from tests.support.server import free_port
from tests.support.topology import wall_body

__all__ = ["free_port", "png_bytes", "wall_body"]
