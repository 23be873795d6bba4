"""Sources (things that can be played) and the source-type catalogue. Calls take the
source's name or id (see :class:`Named`): the interface reads and deletes by name through
``?sourceName=``, everything else is by id after a lookup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tilewall.client.base import ApiError, By, Items, Json, Named, seg

#: a source's params: ``{paramName: paramValue}``, or the interface's list of
#: ``{type, paramName, paramValue}``
SourceParams = Mapping[str, str] | Sequence[Mapping[str, str]]


def param_list(params: SourceParams) -> Items:
    """The interface's form of ``params``; a mapping gives params of unspecified type,
    which the host types from the source type's catalogue entry."""
    if isinstance(params, Mapping):
        return [{"type": "", "paramName": k, "paramValue": v} for k, v in params.items()]
    return [dict(p) for p in params]


class Sources(Named):
    collection = "/sources"
    list_key = "sources"
    id_field = "sourceId"
    name_field = "sourceName"
    what = "source"

    def list(self, name: str | None = None) -> Items:
        """Every source, or those named ``name``."""
        params = {"sourceName": name} if name is not None else None
        return self._t.array("GET", self.collection, self.list_key, params=params)

    def get(self, source: str, *, by: By = "auto") -> Json:
        if by == "name":
            found = self.list(source)
            if not found:
                raise ApiError(404, f"source {source!r} not found", method="GET", path="/sources")
            return found[0]
        return self._read(source, by)

    def create(self, name: str, source_type: str, params: SourceParams = ()) -> Json:
        """A new source; the answer carries its ``sourceId``."""
        body = {"sourceName": name, "sourceType": source_type, "params": param_list(params)}
        return self._t.json("POST", self.collection, json=body)

    def update(
        self,
        source: str,
        *,
        name: str | None = None,
        source_type: str | None = None,
        params: SourceParams | None = None,
        by: By = "auto",
    ) -> Json:
        """Replace the source's name, type or params; what is None is kept as it is."""
        current = self.get(source, by=by)
        body = {
            "sourceName": current["sourceName"] if name is None else name,
            "sourceType": current["sourceType"] if source_type is None else source_type,
            "params": current["params"] if params is None else param_list(params),
        }
        return self._t.json("PUT", self.collection + seg(current["sourceId"]), json=body)

    def delete(self, source: str, *, by: By = "auto") -> Json:
        if by == "name":
            return self._t.json("DELETE", self.collection, params={"sourceName": source})
        return self._t.json("DELETE", self._id_path(source, by))

    def status(self, source: str, *, by: By = "auto") -> Json:
        """A live source's relay: ``state`` (idle, connecting, live, reconnecting,
        failed), ``message`` (why, in words), ``codec``, ``width``, ``height``, ``fps``,
        ``bitrate`` (bits per second) and ``viewers`` (a tilewall extension; 400 for a
        source the host does not relay)."""
        return self._t.json("GET", self._id_path(source, by) + "/status")

    def types(self) -> Items:
        """The source types the host can play, with their param schemas and whether the
        licence allows them (a tilewall extension)."""
        return self._t.array("GET", "/sourcetypes", "sourceTypes")
