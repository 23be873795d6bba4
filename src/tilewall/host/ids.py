"""Identifiers the host hands out."""

import uuid


def new_id() -> str:
    return uuid.uuid4().hex[:12]


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
