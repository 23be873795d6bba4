"""Checking a source's params against its type's schema (``catalogue``): each value made
canonical or refused in words, defaults filled in, and secret params hidden from those
reading a source back and kept when sent back hidden."""

import json

from tilewall.host.content import catalogue, live, screens
from tilewall.host.content.catalogue import CATALOGUE, ParamSpec, Resolvers, SourceType
from tilewall.host.errors import Invalid
from tilewall.host.model import Param


def _bool(spec: ParamSpec, value: str) -> str:
    lowered = value.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return "true"
    if lowered in ("false", "0", "no", "off", ""):
        return "false"
    raise Invalid(f"param {spec.name!r} must be true or false, not {value!r}")


def _number(spec: ParamSpec, value: str) -> str:
    try:
        number = float(value.strip())
    except ValueError:
        raise Invalid(f"param {spec.name!r} must be a number, not {value!r}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise Invalid(f"param {spec.name!r} must be a finite number")
    if spec.minimum is not None and number < spec.minimum:
        raise Invalid(f"param {spec.name!r} must be at least {spec.minimum:g}")
    if spec.maximum is not None and number > spec.maximum:
        raise Invalid(f"param {spec.name!r} must be at most {spec.maximum:g}")
    return str(int(number)) if number.is_integer() else repr(number)


def _url(spec: ParamSpec, value: str) -> str:
    if spec.stream:
        return live.check_stream_url(spec.name, value)
    return live.check_page_url(spec.name, value)


def _json_list(spec: ParamSpec, value: str) -> list[object]:
    try:
        decoded = json.loads(value) if value.strip() else []
    except ValueError:
        raise Invalid(f"param {spec.name!r} must be a JSON-encoded array") from None
    if not isinstance(decoded, list):
        raise Invalid(f"param {spec.name!r} must be a JSON-encoded array")
    return decoded


def _file_dir(spec: ParamSpec, value: str, resolvers: Resolvers) -> str:
    entries = []
    for entry in _json_list(spec, value):
        if not isinstance(entry, dict):
            raise Invalid(f"param {spec.name!r}: each entry must be an object")
        kind = entry.get("type")
        path = entry.get("value")
        if kind not in ("file", "dir") or not isinstance(path, str):
            raise Invalid(
                f"param {spec.name!r}: each entry needs type 'file' or 'dir' and a string value"
            )
        name = entry.get("name", path)
        canonical = resolvers.media(kind, path)
        entries.append({"type": kind, "name": str(name), "value": canonical})
    return json.dumps(entries)


def _layouts(spec: ParamSpec, value: str, resolvers: Resolvers) -> str:
    ids = []
    for entry in _json_list(spec, value):
        if not isinstance(entry, str):
            raise Invalid(f"param {spec.name!r}: each entry must be a layout id or name")
        layout_id = resolvers.layout(entry)
        if layout_id not in ids:
            ids.append(layout_id)
    return json.dumps(ids)


def _value(spec: ParamSpec, value: str, resolvers: Resolvers) -> str:
    match spec.type:
        case "CHECKBOX":
            return _bool(spec, value)
        case "NUMBER":
            return _number(spec, value)
        case "URL":
            return _url(spec, value)
        case "RADIO":
            if value not in spec.options:
                raise Invalid(f"param {spec.name!r} must be one of {', '.join(spec.options)}")
            return value
        case "FILE_DIR_SELECT":
            return _file_dir(spec, value, resolvers)
        case "LAYOUT_SELECT":
            return _layouts(spec, value, resolvers)
        case _:
            return spec.check(spec.name, value) if spec.check else value


def validate_params(
    kind: SourceType, params: list[Param], resolvers: Resolvers, stored: list[Param] | None = None
) -> list[Param]:
    """The complete, canonical params of a source of ``kind``, in schema order.

    Missing params take their defaults; a HELP param is ignored (the host adds its own).
    A secret param given back as it was read (hidden) keeps its value in ``stored``.
    """
    given: dict[str, str] = {}
    for param in params:
        if param.type == "HELP":
            continue
        spec = kind.spec_by_name.get(param.paramName.casefold())
        if spec is None:
            known = ", ".join(p.name for p in kind.params)
            raise Invalid(
                f"param {param.paramName!r} is not a param of {kind.name!r} (its params: {known})"
            )
        if param.type and param.type != spec.type:
            raise Invalid(f"param {spec.name!r} has type {spec.type}, not {param.type!r}")
        if spec.name in given:
            raise Invalid(f"param {spec.name!r} is given twice")
        value = param.paramValue
        if spec.secret:
            value = screens.kept_secret(value, _stored(stored, spec.name))
        given[spec.name] = value
    out = [Param("HELP", "", kind.help_url)]
    for spec in kind.params:
        if spec.name not in given and spec.required:
            raise Invalid(f"param {spec.name!r} is required for {kind.name!r}")
        out.append(
            Param(spec.type, spec.name, _value(spec, given.get(spec.name, spec.default), resolvers))
        )
    return out


def _stored(params: list[Param] | None, name: str) -> str:
    return catalogue.param(params or [], name)


def shown_params(kind_name: str, params: list[Param]) -> list[Param]:
    """``params`` of a source of ``kind_name`` as a client reading it sees them: secret
    params hidden."""
    kind = CATALOGUE.get(kind_name)
    if kind is None or not any(spec.secret for spec in kind.params):
        return params
    secret = {spec.name for spec in kind.params if spec.secret}
    return [
        Param(p.type, p.paramName, screens.shown_secret(p.paramValue))
        if p.paramName in secret
        else p
        for p in params
    ]
