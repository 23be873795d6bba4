"""Users, their roles and scopes (an administrator's operations; any user sets their
own password with the old one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilewall.client.base import Items, Json, Resource, seg

#: the roles a user may have
ROLES = ("viewer", "operator", "administrator")


def scope(
    walls: Sequence[str] = (),
    zones: Sequence[str] = (),
    mirror_groups: Sequence[str] = (),
    displays: Sequence[int] = (),
    sources: Sequence[str] = (),
) -> Json:
    """An operator's scope: objects by id or name (the host keeps their ids)."""
    return {
        "walls": list(walls),
        "zones": list(zones),
        "mirrorGroups": list(mirror_groups),
        "displays": list(displays),
        "sources": list(sources),
    }


class Users(Resource):
    def list(self) -> Items:
        return self._t.array("GET", "/users", "users")

    def get(self, name: str) -> Json:
        return self._t.json("GET", "/users" + seg(name))

    def create(
        self,
        name: str,
        password: str,
        role: str,
        scope: Mapping[str, Any] | None = None,
        scoped_reads: bool = False,
    ) -> Json:
        body: dict[str, Any] = {"userName": name, "password": password, "role": role}
        if scope is not None:
            body["scope"] = dict(scope)
        if scoped_reads:
            body["scopedReads"] = True
        return self._t.json("POST", "/users", json=body)

    def update(self, name: str, **changes: Any) -> Json:
        """Change ``role``, ``scope`` (None: unlimited), ``scoped_reads`` or
        ``disabled``; what is not given is kept. The user's sessions end when the role
        changes or it is disabled."""
        names = {"role": "role", "scope": "scope", "scoped_reads": "scopedReads"}
        names["disabled"] = "disabled"
        unknown = set(changes) - set(names)
        if unknown:
            raise TypeError(f"unknown changes: {', '.join(sorted(unknown))}")
        body = {names[key]: value for key, value in changes.items()}
        return self._t.json("PUT", "/users" + seg(name), json=body)

    def set_password(self, name: str, password: str, old_password: str | None = None) -> Json:
        """Reset ``name``'s password (an administrator), or change one's own with
        ``old_password``."""
        body: dict[str, Any] = {"password": password}
        if old_password is not None:
            body["oldPassword"] = old_password
        return self._t.json("PUT", "/users" + seg(name, "password"), json=body)

    def delete(self, name: str) -> Json:
        return self._t.json("DELETE", "/users" + seg(name))
