"""Presets: save the current mapping, list, read, switch and delete; by id and by name."""

from collections.abc import Callable
from typing import Any

import msgspec
from litestar import delete, get, post, put
from litestar.handlers import HTTPRouteHandler
from litestar.types import AnyCallable

from tilewall.api.common import Done, Method, PathKey, PathName, errors, keyed_by
from tilewall.api.read_cache import EncodedOnce, encoded_route
from tilewall.host.host import Host

TAGS = ["Presets"]


class PresetName(msgspec.Struct):
    name: PathName


class PresetRef(msgspec.Struct):
    id: str
    name: str


class PresetSwitched(msgspec.Struct):
    id: str
    name: str
    playing: bool


class PresetList(msgspec.Struct):
    presets: list[PresetRef]


@post(
    "/presets",
    status_code=200,
    tags=TAGS,
    summary="Save the current mapping as a preset",
    responses=errors(),
)
async def save_preset(host: Host, data: PresetName) -> PresetRef:
    preset = await host.presets.save(data.name)
    return PresetRef(preset.id, preset.name)


def preset_list(host: Host) -> PresetList:
    return PresetList([PresetRef(p.id, p.name) for p in host.presets.all()])


PRESETS = EncodedOnce(preset_list)
list_presets = encoded_route("/presets", PRESETS, PresetList, "list_presets", "List presets", TAGS)


def _preset_name(name: str) -> str:
    return name


def _preset_id(id: str) -> str:
    return id


def _preset_routes(
    prefix: str, param: str, path_key: PathKey, by_name: bool
) -> list[HTTPRouteHandler]:
    how = "by name" if by_name else "by id"

    def operation(
        method: Method, suffix: str, verb: str, name: str, **extra: Any
    ) -> Callable[[AnyCallable], HTTPRouteHandler]:
        return method(
            f"{prefix}/{{{param}:str}}{suffix}",
            tags=TAGS,
            summary=f"{verb} a preset {how}",
            responses=errors(404),
            name=f"{name}-preset-{param}",
            dependencies=keyed_by(path_key),
            **extra,
        )

    @operation(get, "", "Read", "get")
    async def read(host: Host, key: str) -> PresetRef:
        preset = host.presets.get(key, by_name)
        return PresetRef(preset.id, preset.name)

    @operation(delete, "", "Delete", "delete", status_code=200)
    async def remove(host: Host, key: str) -> Done:
        preset = host.presets.get(key, by_name)
        await host.presets.delete(preset)
        return Done(f"preset {preset.name!r} deleted")

    @operation(put, "/switch", "Recall", "switch")
    async def switch(host: Host, key: str) -> PresetSwitched:
        preset = host.presets.get(key, by_name)
        playing = await host.presets.recall(preset)
        return PresetSwitched(preset.id, preset.name, playing)

    return [read, remove, switch]


ROUTES = [
    save_preset,
    list_presets,
    *_preset_routes("/presets/byname", "name", _preset_name, by_name=True),
    *_preset_routes("/presets", "id", _preset_id, by_name=False),
]
