"""The media library extension: upload, list with durations, download, delete, and
names that would leave the library."""

import pytest

from tests.helpers import error, media_root, mp4_bytes, needs_ffmpeg, ok, png_bytes


def test_upload_list_download_delete(api):
    data = png_bytes()
    body = ok(
        api.put(
            "/media/posters/red.png",
            content=data,
            headers={"content-type": "application/octet-stream"},
        )
    )
    assert body["name"] == "posters/red.png"
    assert body["size"] == len(data)
    assert body["kind"] == "image"
    assert body["durationInMilliseconds"] is None
    assert (media_root(api) / "posters" / "red.png").read_bytes() == data
    listed = ok(api.get("/media"))["files"]
    assert [f["name"] for f in listed] == ["posters/red.png"]
    download = api.get("/media/posters/red.png")
    assert download.status_code == 200 and download.content == data
    ok(api.delete("/media/posters/red.png"))
    assert ok(api.get("/media")) == {"files": []}
    error(api.get("/media/posters/red.png"), 404)
    error(api.delete("/media/posters/red.png"), 404)


@needs_ffmpeg
def test_video_duration_listed(api):
    ok(api.put("/media/clip.mp4", content=mp4_bytes(2)))
    ok(api.put("/media/still.png", content=png_bytes()))
    files = {f["name"]: f for f in ok(api.get("/media"))["files"]}
    assert files["clip.mp4"]["kind"] == "video"
    assert files["clip.mp4"]["durationInMilliseconds"] == 2000
    assert files["still.png"]["durationInMilliseconds"] is None


def test_upload_replaces(api):
    ok(api.put("/media/a.png", content=png_bytes((1, 2, 3))))
    second = png_bytes((9, 9, 9), size=(64, 64))
    assert ok(api.put("/media/a.png", content=second))["size"] == len(second)
    assert len(ok(api.get("/media"))["files"]) == 1


@pytest.mark.parametrize(
    "path", ["/media/..%2Fescape.png", "/media/%2E%2E/escape.png", "/media/a/..%2F..%2Fescape.png"]
)
def test_path_traversal_refused(api, path):
    error(api.put(path, content=png_bytes()), 400)
    root = media_root(api)
    assert not (root.parent / "escape.png").exists()
    assert ok(api.get("/media")) == {"files": []}


@pytest.mark.parametrize("path", ["/media//etc/absolute.png", "/media/%2Fetc%2Fabsolute.png"])
def test_absolute_name_refused(api, path):
    error(api.put(path, content=png_bytes()), 400)
    assert ok(api.get("/media")) == {"files": []}


def test_unknown_suffix_refused(api):
    error(api.put("/media/notes.txt", content=b"hello"), 400)
    error(api.put("/media/script.sh", content=b"#!/bin/sh"), 400)
    assert ok(api.get("/media")) == {"files": []}


def test_traversal_on_read_and_delete_refused(api):
    for method in (api.get, api.delete):
        response = method("/media/..%2F..%2Ftilewall.db")
        assert response.status_code in (400, 404), response.text
        error(response, response.status_code)
