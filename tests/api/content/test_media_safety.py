"""Media are sent so a browser never runs them: nosniff on every file, and a sandbox
policy on SVG (accepted, neutralised); GET /api/media/... honours Range as /media/ does."""

import pytest

from tests.support.http import ok
from tests.support.media import png_bytes

SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>fetch('/api/system')</script><rect width='10' height='10'/></svg>"
)
VIDEO = bytes(range(256)) * 40  # the bytes only; a .mp4 name makes it a video


@pytest.fixture
def library(api):
    ok(api.put("/media/still.png", content=png_bytes()))
    ok(api.put("/media/badge.svg", content=SVG))
    ok(api.put("/media/clips/loop.mp4", content=VIDEO))
    return api


@pytest.mark.parametrize("prefix", ["/media/", "/api/media/"])
def test_svg_is_sent_sandboxed_and_raster_media_plain(library, prefix) -> None:
    origin = "http://testserver.local"
    svg = library.get(origin + prefix + "badge.svg")
    assert svg.status_code == 200 and svg.content == SVG
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.headers["content-security-policy"] == "sandbox"
    assert svg.headers["x-content-type-options"] == "nosniff"
    for name in ("still.png", "clips/loop.mp4"):
        answer = library.get(origin + prefix + name)
        assert answer.status_code == 200
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "content-security-policy" not in answer.headers, name
        assert answer.headers["accept-ranges"] == "bytes"


@pytest.mark.parametrize("prefix", ["/media/", "/api/media/"])
def test_byte_ranges_are_honoured_on_both_paths(library, prefix) -> None:
    url = "http://testserver.local" + prefix + "clips/loop.mp4"
    size = len(VIDEO)
    for header, start, end in (
        ("bytes=0-99", 0, 99),
        ("bytes=1000-", 1000, size - 1),
        ("bytes=-500", size - 500, size - 1),
        ("bytes=9000-20000", 9000, size - 1),
    ):
        part = library.get(url, headers={"Range": header})
        assert part.status_code == 206, (header, part.text)
        assert part.headers["content-range"] == f"bytes {start}-{end}/{size}"
        assert part.content == VIDEO[start : end + 1]
        assert part.headers["content-type"] == "video/mp4"
    outside = library.get(url, headers={"Range": f"bytes={size}-"})
    assert outside.status_code == 416
    assert outside.headers["content-range"] == f"bytes */{size}"
    whole = library.get(url)
    assert whole.status_code == 200 and whole.content == VIDEO
    assert "last-modified" in whole.headers


def test_the_download_keeps_its_file_name_and_needs_a_session(library) -> None:
    answer = library.get("/media/clips/loop.mp4")
    assert answer.headers["content-disposition"] == "inline; filename*=UTF-8''loop.mp4"
    library.cookies.clear()
    assert library.get("/media/clips/loop.mp4").status_code == 401
