"""The media library extension: upload, list with durations, download, delete, and
names that would leave the library."""

import pytest

from tests.support.app import SharedApp
from tests.support.http import error, ok
from tests.support.media import media_root, mp4_bytes, png_bytes
from tests.support.mixins import CreateMixin, DeleteMixin, GetMixin, ListMixin


class TestMediaLibrary(SharedApp, ListMixin, CreateMixin, GetMixin, DeleteMixin):
    """Files are known by their names (with folders); uploading a taken name replaces."""

    collection = "/media"
    list_key = "files"
    id_field = name_field = "name"
    taken_name = "replaces"

    def name_for(self, name):
        return f"uploads/{name}.png"

    def valid_body(self, api, name):
        return {"name": name, "data": png_bytes()}

    def nameless_bodies(self, api):
        return [({"name": "  ", "data": png_bytes()}, ())]

    def invalid_bodies(self, api):
        return [
            ({"name": "notes.txt", "data": b"hello"}, 400, ()),
            ({"name": "script.sh", "data": b"#!/bin/sh"}, 400, ()),
            ({"name": "..%2Fescape.png", "data": png_bytes()}, 400, ()),
        ]

    def create_request(self, api, body):
        return api.put(f"/media/{body['name']}", content=body["data"])

    def read_answer(self, response):
        raise AssertionError("a file is read from the list")

    def read(self, api, key):
        # what the library lists of a file; its bytes are downloaded as they were uploaded
        assert api.get(self.item(key)).status_code == 200
        return next(f for f in self.listed(api) if f["name"] == key)

    def test_upload_list_download_delete(self, api):
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
        assert "posters/red.png" in [f["name"] for f in ok(api.get("/media"))["files"]]
        download = api.get("/media/posters/red.png")
        assert download.status_code == 200 and download.content == data
        ok(api.delete("/media/posters/red.png"))
        assert "posters/red.png" not in [f["name"] for f in ok(api.get("/media"))["files"]]
        error(api.get("/media/posters/red.png"), 404)
        error(api.delete("/media/posters/red.png"), 404)

    def test_video_duration_listed(self, api):
        ok(api.put("/media/clip.mp4", content=mp4_bytes(2)))
        ok(api.put("/media/still.png", content=png_bytes()))
        files = {f["name"]: f for f in ok(api.get("/media"))["files"]}
        assert files["clip.mp4"]["kind"] == "video"
        assert files["clip.mp4"]["durationInMilliseconds"] == 2000
        assert files["still.png"]["durationInMilliseconds"] is None

    def test_upload_replaces(self, api):
        ok(api.put("/media/a.png", content=png_bytes((1, 2, 3))))
        count = len(ok(api.get("/media"))["files"])
        second = png_bytes((9, 9, 9), size=(64, 64))
        assert ok(api.put("/media/a.png", content=second))["size"] == len(second)
        assert len(ok(api.get("/media"))["files"]) == count
        assert api.get("/media/a.png").content == second

    @pytest.mark.parametrize(
        "path",
        ["/media/..%2Fescape.png", "/media/%2E%2E/escape.png", "/media/a/..%2F..%2Fescape.png"],
    )
    def test_path_traversal_refused(self, api, path):
        before = ok(api.get("/media"))
        error(api.put(path, content=png_bytes()), 400)
        assert not (media_root(api).parent / "escape.png").exists()
        assert ok(api.get("/media")) == before

    @pytest.mark.parametrize("path", ["/media//etc/absolute.png", "/media/%2Fetc%2Fabsolute.png"])
    def test_absolute_name_refused(self, api, path):
        before = ok(api.get("/media"))
        error(api.put(path, content=png_bytes()), 400)
        assert ok(api.get("/media")) == before

    def test_traversal_on_read_and_delete_refused(self, api):
        for method in (api.get, api.delete):
            response = method("/media/..%2F..%2Ftilewall.db")
            assert response.status_code in (400, 404), response.text
            error(response, response.status_code)
