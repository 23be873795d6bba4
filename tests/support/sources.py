"""Sources of every catalogue type: request bodies, and sources made over the interface."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from typing import Any

from tests.support.http import Api, ok
from tests.support.media import media_root, write_png

SIGNAGE = "Signage Player"
WEB = "Web Browser"
STREAMER = "Network Streamer"
RTSP = "RTSP Streamer"
CONTROL = "Command and Control"
VNC = "Desktop Streamer (VNC)"
CAPTURE = "Capture"
CATALOGUE_TYPES = (SIGNAGE, WEB, STREAMER, RTSP, VNC, CAPTURE, CONTROL)

#: the params of every catalogue type, with their types (HELP params left out)
PARAM_TYPES = {
    SIGNAGE: {
        "Media": "FILE_DIR_SELECT",
        "Slide Interval": "NUMBER",
        "Shuffle": "CHECKBOX",
        "Scaling": "RADIO",
    },
    WEB: {"URL": "URL", "Refresh Interval": "NUMBER"},
    STREAMER: {"URL": "URL", "Muted": "CHECKBOX", "Keep Open": "CHECKBOX"},
    RTSP: {"URL": "URL", "Transport": "RADIO", "Muted": "CHECKBOX", "Keep Open": "CHECKBOX"},
    VNC: {"Host": "TEXT", "Port": "NUMBER", "Password": "TEXT", "Keep Open": "CHECKBOX"},
    CAPTURE: {"Device": "TEXT", "Seat": "TEXT", "Resolution": "TEXT", "Frame Rate": "NUMBER"},
    CONTROL: {"Layouts": "LAYOUT_SELECT"},
}

_seq = itertools.count(1)


def param(name: str, value: str, type_: str = "") -> dict[str, str]:
    return {"type": type_, "paramName": name, "paramValue": value}


def files_value(*names: str, kind: str = "file") -> str:
    """A FILE_DIR_SELECT value: the JSON array of library entries."""
    return json.dumps([{"type": kind, "name": n, "value": n} for n in names])


def source_body(
    type_: str, name: str | None = None, *, typed: bool = False, **params: str
) -> dict[str, Any]:
    """A create/update body; ``params`` by catalogue param name (underscores for spaces).
    Params carry their catalogue type when ``typed``, an empty type otherwise."""
    return body_of(type_, name, params, typed=typed)


def body_of(
    type_: str, name: str | None, params: Mapping[str, str], *, typed: bool = False
) -> dict[str, Any]:
    """``source_body`` with its params in a mapping."""
    types = PARAM_TYPES.get(type_, {}) if typed else {}
    named = {k.replace("_", " "): v for k, v in params.items()}
    return {
        "sourceName": f"{type_} {next(_seq)}" if name is None else name,
        "sourceType": type_,
        "params": [param(k, v, types.get(k, "")) for k, v in named.items()],
    }


def minimal_params(api: Api, type_: str) -> dict[str, str]:
    """The params a source of ``type_`` needs (media files are written as needed)."""
    if type_ == SIGNAGE:
        write_png(media_root(api), "slides/red.png", (220, 20, 20))
        write_png(media_root(api), "slides/green.png", (20, 220, 20))
        return {"Media": files_value("slides/red.png", "slides/green.png"), "Slide_Interval": "5"}
    if type_ in (WEB, STREAMER):
        return {"URL": "https://example.org/page"}
    if type_ == RTSP:
        return {"URL": "rtsp://camera.example/stream"}
    if type_ == VNC:
        return {"Host": "desktop.example"}
    return {}


def create_source(
    api: Api, type_: str = WEB, name: str | None = None, **params: str
) -> dict[str, Any]:
    """A source of ``type_`` with what it needs and ``params``; the host's answer."""
    values = minimal_params(api, type_)
    values.update(params)
    body: dict[str, Any] = ok(api.post("/sources", json=body_of(type_, name, values)))
    assert body["sourceId"], body
    return body


def signage_source(
    api: Api, name: str, *files: str, interval: int = 5, typed: bool = False
) -> dict[str, Any]:
    """A Signage Player over existing library ``files``."""
    body = source_body(
        SIGNAGE, name, typed=typed, Media=files_value(*files), Slide_Interval=str(interval)
    )
    result: dict[str, Any] = ok(api.post("/sources", json=body))
    return result


def web_source(api: Api, name: str, url: str = "https://example.org/") -> str:
    """A Web Browser source; its id."""
    return str(
        ok(api.post("/sources", json=source_body(WEB, name, typed=True, URL=url)))["sourceId"]
    )


def streamer_source(api: Api, name: str, url: str) -> str:
    """A Network Streamer source; its id."""
    body = source_body(STREAMER, name, typed=True, URL=url)
    return str(ok(api.post("/sources", json=body))["sourceId"])


def control_body(name: str, layouts: list[str]) -> dict[str, Any]:
    """A Command and Control source listing ``layouts`` (ids or names)."""
    return source_body(CONTROL, name, typed=True, Layouts=json.dumps(layouts))


def control_source(api: Api, name: str, layouts: list[str]) -> str:
    """A Command and Control source listing ``layouts``; its id."""
    return str(ok(api.post("/sources", json=control_body(name, layouts)))["sourceId"])


def param_value(source: dict[str, Any], name: str) -> str:
    for p in source["params"]:
        if p["paramName"] == name:
            return str(p["paramValue"])
    raise KeyError(name)
