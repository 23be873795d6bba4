"""Presets: save the current mapping, list, read, switch and delete; by id and by name."""

import msgspec
from litestar import Response, delete, get, post, put
from litestar.handlers import HTTPRouteHandler

from tilewall.api.common import Done, PathKey, PathName, errors, keyed_by
from tilewall.api.read_cache import EncodedOnce, answer_early
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
answer_early("/presets", PRESETS)


@get("/presets", tags=TAGS, summary="List presets", responses=errors())
async def list_presets(host: Host) -> Response[PresetList]:
    return await PRESETS.response(host)


def _preset_name(name: str) -> str:
    return name


def _preset_id(id: str) -> str:
    return id


def _preset_routes(
    prefix: str, param: str, path_key: PathKey, by_name: bool
) -> list[HTTPRouteHandler]:
    how = "by name" if by_name else "by id"

    @get(
        f"{prefix}/{{{param}:str}}",
        tags=TAGS,
        summary=f"Read a preset {how}",
        responses=errors(404),
        name=f"get-preset-{param}",
        dependencies=keyed_by(path_key),
    )
    async def read(host: Host, key: str) -> PresetRef:
        preset = host.presets.get(key, by_name)
        return PresetRef(preset.id, preset.name)

    @delete(
        f"{prefix}/{{{param}:str}}",
        status_code=200,
        tags=TAGS,
        summary=f"Delete a preset {how}",
        responses=errors(404),
        name=f"delete-preset-{param}",
        dependencies=keyed_by(path_key),
    )
    async def remove(host: Host, key: str) -> Done:
        preset = host.presets.get(key, by_name)
        await host.presets.delete(preset)
        return Done(f"preset {preset.name!r} deleted")

    @put(
        f"{prefix}/{{{param}:str}}/switch",
        tags=TAGS,
        summary=f"Recall a preset {how}",
        responses=errors(404),
        name=f"switch-preset-{param}",
        dependencies=keyed_by(path_key),
    )
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
