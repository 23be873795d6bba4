"""Presets: save the current mapping, list, read, switch and delete; by id and by name."""

import msgspec
from litestar import Request, delete, get, post, put

from tilewall.api.common import Done, PathName, errors, host_of
from tilewall.host.model import Preset

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


def _find(request: Request, key: str, by_name: bool) -> Preset:  # type: ignore[type-arg]
    return host_of(request.app.state).presets.get(key, by_name)


@post(
    "/presets",
    status_code=200,
    tags=TAGS,
    summary="Save the current mapping as a preset",
    responses=errors(),
)
async def save_preset(request: Request, data: PresetName) -> PresetRef:  # type: ignore[type-arg]
    preset = await host_of(request.app.state).presets.save(data.name)
    return PresetRef(preset.id, preset.name)


@get("/presets", tags=TAGS, summary="List presets", responses=errors())
async def list_presets(request: Request) -> PresetList:  # type: ignore[type-arg]
    return PresetList([PresetRef(p.id, p.name) for p in host_of(request.app.state).presets.all()])


def _preset_routes(prefix: str, param: str, by_name: bool) -> list[object]:
    how = "by name" if by_name else "by id"

    @get(
        f"{prefix}/{{{param}:str}}",
        tags=TAGS,
        summary=f"Read a preset {how}",
        responses=errors(404),
        name=f"get-preset-{param}",
    )
    async def read(request: Request) -> PresetRef:  # type: ignore[type-arg]
        preset = _find(request, request.path_params[param], by_name)
        return PresetRef(preset.id, preset.name)

    @delete(
        f"{prefix}/{{{param}:str}}",
        status_code=200,
        tags=TAGS,
        summary=f"Delete a preset {how}",
        responses=errors(404),
        name=f"delete-preset-{param}",
    )
    async def remove(request: Request) -> Done:  # type: ignore[type-arg]
        preset = _find(request, request.path_params[param], by_name)
        await host_of(request.app.state).presets.delete(preset)
        return Done(f"preset {preset.name!r} deleted")

    @put(
        f"{prefix}/{{{param}:str}}/switch",
        tags=TAGS,
        summary=f"Recall a preset {how}",
        responses=errors(404),
        name=f"switch-preset-{param}",
    )
    async def switch(request: Request) -> PresetSwitched:  # type: ignore[type-arg]
        preset = _find(request, request.path_params[param], by_name)
        playing = await host_of(request.app.state).presets.recall(preset)
        return PresetSwitched(preset.id, preset.name, playing)

    return [read, remove, switch]


ROUTES = [
    save_preset,
    list_presets,
    *_preset_routes("/presets/byname", "name", by_name=True),
    *_preset_routes("/presets", "id", by_name=False),
]
