"""Presets, sources, the source-type catalogue, the media library and control-room
layouts, through the client."""

from __future__ import annotations

import json
from pathlib import Path

from tests.client.conftest import by_name, refused
from tests.support.media import png_bytes
from tilewall.client import Client, window


def test_presets_save_switch_recall_delete(client: Client) -> None:
    saved = client.presets.save("Evening")
    assert saved["name"] == "Evening" and saved["id"]
    assert {p["name"] for p in client.presets.list()} == {"Demo Start", "Evening"}
    assert client.presets.get("Evening")["id"] == saved["id"]
    assert client.presets.get(saved["id"], by="id")["name"] == "Evening"
    client.zones.switch("Lobby Top", "Project Page")
    recalled = client.presets.recall("Demo Start")
    assert recalled["name"] == "Demo Start" and recalled["playing"] is True
    slides = client.sources.get("Welcome Slides")["sourceId"]
    assert client.zones.get("Lobby Top")["playingSourceId"] == slides
    assert client.presets.recall(saved["id"], by="id")["id"] == saved["id"]
    assert "deleted" in client.presets.delete("Evening")["message"]
    refused(lambda: client.presets.get("Evening"), 404, "preset")
    refused(lambda: client.presets.recall("Evening"), 404, "preset")
    refused(lambda: client.presets.delete("Evening", by="name"), 404)
    refused(lambda: client.presets.save(""), 400)


def test_sources_create_read_update_delete(client: Client) -> None:
    created = client.sources.create("Menu board", "Web Browser", {"URL": "https://example.org/m"})
    source_id = created["sourceId"]
    assert created["sourceType"] == "Web Browser"
    assert [s["sourceId"] for s in client.sources.list("Menu board")] == [source_id]
    assert client.sources.get("Menu board")["sourceId"] == source_id
    assert client.sources.get("Menu board", by="name")["sourceId"] == source_id
    assert client.sources.get(source_id, by="id")["sourceName"] == "Menu board"
    renamed = client.sources.update("Menu board", name="Menu")
    assert renamed["sourceName"] == "Menu" and renamed["params"] == created["params"]
    params = [{"type": "URL", "paramName": "URL", "paramValue": "https://example.org/n"}]
    moved = client.sources.update(source_id, params=params, by="id")
    assert {p["paramName"]: p["paramValue"] for p in moved["params"]}["URL"].endswith("/n")
    refused(lambda: client.sources.create("Menu", "Web Browser", {"URL": "https://x.org"}), 409)
    refused(lambda: client.sources.create("Odd", "No such type"), 400)
    refused(lambda: client.sources.update("Menu", source_type="No such type"), 400)
    assert "deleted" in client.sources.delete("Menu")["message"]
    refused(lambda: client.sources.get("Menu"), 404, "not found")
    refused(lambda: client.sources.get("Menu", by="name"), 404, "not found")

    # a live source's status: idle until something shows it; none for a web page
    camera = client.sources.create("Door camera", "RTSP Streamer", {"URL": "rtsp://cam.example/1"})
    status = client.sources.status("Door camera")
    assert status["state"] == "idle" and status["viewers"] == 0
    assert client.sources.status(camera["sourceId"], by="id")["state"] == "idle"
    refused(lambda: client.sources.status("Demo Clip"), 400, "not a live stream")
    client.sources.delete("Door camera")
    client.sources.create("Spare", "Web Browser", {"URL": "https://example.org/s"})
    assert "deleted" in client.sources.delete("Spare", by="name")["message"]
    refused(lambda: client.sources.delete("Spare", by="name"), 404)
    refused(lambda: client.sources.delete("Spare"), 404)


def test_source_types(client: Client) -> None:
    kinds = {k["sourceType"]: k for k in client.sources.types()}
    assert set(kinds) >= {"Signage Player", "Web Browser", "Network Streamer"}
    assert kinds["Web Browser"]["allowed"] is True


def test_media_library(client: Client, tmp_path: Path) -> None:
    stored = client.media.upload("uploads/red.png", png_bytes())
    assert stored["name"] == "uploads/red.png" and stored["kind"] == "image"
    local = tmp_path / "green.png"
    local.write_bytes(png_bytes((0, 200, 0)))
    streamed = client.media.upload("uploads/green dot.png", local)
    assert streamed["size"] == local.stat().st_size
    names = {f["name"] for f in client.media.list()}
    assert {"uploads/red.png", "uploads/green dot.png", "demo/clip.mp4"} <= names
    assert client.media.download("uploads/green dot.png") == local.read_bytes()
    assert "deleted" in client.media.delete("uploads/red.png")["message"]
    refused(lambda: client.media.download("uploads/red.png"), 404)
    refused(lambda: client.media.delete("uploads/red.png"), 404)
    refused(lambda: client.media.upload("../escape.png", b"x"), 400)


def test_control_room(client: Client) -> None:
    instances = client.controlroom.list()
    assert [(i["zoneName"], i["sourceName"]) for i in instances] == [
        ("Lobby Bottom", "Control Room")
    ]
    assert {lay["name"] for lay in client.controlroom.layouts("Lobby Bottom")} == {"Two Up", "Quad"}
    assert client.controlroom.load("Lobby Bottom", "Quad")["name"] == "Quad"
    assert client.controlroom.current_layout("Lobby Bottom")["id"] == "layout-quad"
    assert client.controlroom.current_layout("Lobby Top") == {
        "id": "",
        "name": "None",
        "sources": [],
    }
    refused(lambda: client.controlroom.load("Lobby Bottom", "No layout"), 404)
    refused(lambda: client.controlroom.layouts("Nowhere"), 404)

    clip = client.sources.get("Demo Clip")["sourceId"]
    made = client.controlroom.create_layout("Solo", [window(clip)])
    assert made["windows"][0]["width"] == 1.0
    assert by_name(client.controlroom.all_layouts(), "Solo")["id"] == made["id"]
    assert client.controlroom.get_layout("Solo")["id"] == made["id"]
    assert client.controlroom.get_layout("layout-quad", by="id")["name"] == "Quad"
    halves = [window(clip, 0, 0, 0.5, 1), window(clip, 0.5, 0, 0.5, 1)]
    changed = client.controlroom.update_layout("Solo", name="Duo", windows=halves)
    assert changed["name"] == "Duo" and len(changed["windows"]) == 2
    refused(lambda: client.controlroom.create_layout("Duo"), 409)
    refused(lambda: client.controlroom.create_layout("Bad", [window("no-source")]), 404)
    refused(lambda: client.controlroom.delete_layout("Quad"), 409)
    assert "deleted" in client.controlroom.delete_layout(made["id"], by="id")["message"]
    refused(lambda: client.controlroom.get_layout("Duo"), 404)
    refused(lambda: client.controlroom.update_layout("Duo", name="x"), 404)
    assert json.dumps(client.controlroom.get_layout("Two Up"))
