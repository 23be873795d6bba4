"""Identifiers the host hands out."""

import secrets
from collections.abc import Mapping
from typing import Protocol, TypeVar


def new_id() -> str:
    """Twelve hex digits, random (48 bits: as many as the first twelve of a UUID4)."""
    return secrets.token_hex(6)


def path_name(name: str, what: str) -> str:
    """A name clients address in URL paths: trimmed, not empty, without '/'."""
    from tilewall.host.errors import Invalid

    name = name.strip()
    if not name:
        raise Invalid(f"{what} needs a name")
    if "/" in name:
        raise Invalid(f"{what} names must not contain '/': they are addressed in URL paths")
    if len(name) > 200:
        raise Invalid(f"{what} names are at most 200 characters")
    return name


class Named(Protocol):
    id: str
    name: str


N = TypeVar("N", bound=Named)


def lookup(collection: Mapping[str, N], key: str, by_name: bool, what: str) -> N:
    """An object by id, or by name: the one rule behind every by-id/by-name pair."""
    if by_name:
        for obj in collection.values():
            if obj.name == key:
                return obj
    elif key in collection:
        return collection[key]
    from tilewall.host.errors import NotFound

    raise NotFound(f"{what} {key!r} not found")


def id_of(collection: Mapping[str, N], key: str) -> str | None:
    """The id of the object ``key`` names, by id or by name (an id wins over an equal
    name); None when it names none."""
    if key in collection:
        return key
    for obj in collection.values():
        if obj.name == key:
            return obj.id
    return None


def unique_name(collection: Mapping[str, N], name: str, own_id: str | None, what: str) -> str:
    """``name`` if no other object of the collection has it (409 otherwise)."""
    from tilewall.host.errors import Conflict

    for obj in collection.values():
        if obj.name == name and obj.id != own_id:
            raise Conflict(f"a {what} named {name!r} exists")
    return name
