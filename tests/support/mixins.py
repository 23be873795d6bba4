"""Generic tests of a collection resource, in the style of NetBox's API test mixins: a test
class declares the resource (its paths, a valid body, invalid bodies, the fields that
identify and name an object) and inherits the tests of what the resource offers.

    class TestPresets(SharedApp, CrudMixin):
        collection = "/presets"
        list_key = "presets"
        ...
        def valid_body(self, api, name):
            return {"name": name}

Resources whose requests or answers are shaped otherwise (print profiles, media) override
the hooks (``create_request``, ``answer``, ``read_answer``, ``listed``). Every test makes
its own objects under names of its own, so a class may share one app (``SharedApp``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.http import Api, error, ok, url
from tests.support.topology import unique

#: names a client may give, addressed in paths: spaces, punctuation, Unicode
NAMES = ["Morning", "Evening show & more", "Présentation – été ☀"]

Invalid = tuple[Any, int, tuple[str, ...]]  #: a body, the status refusing it, words it names


class Resource:
    """What the mixins need to know of a collection resource."""

    #: the collection's path, e.g. "/sources"
    collection = ""
    #: the key of the list in the list answer, e.g. "sources"
    list_key = ""
    #: the field holding an object's id, and the one holding its name
    id_field = "id"
    name_field = "name"
    #: the path prefix of by-name lookups ("/presets/byname"), when there are any
    by_name = ""
    #: a second create with a taken name: "refused" (409 naming it) or "replaces"
    taken_name = "refused"
    #: words of the message answering an unknown id
    not_found: tuple[str, ...] = ("not found",)

    def valid_body(self, api: Api, name: str) -> Any:
        """A body that creates an object named ``name``."""
        raise NotImplementedError

    def name_for(self, name: str) -> str:
        """A name of this resource made from ``name`` (a file name needs its suffix)."""
        return name

    def invalid_bodies(self, api: Api) -> list[Invalid]:
        """Create bodies the host refuses (at least one)."""
        raise NotImplementedError

    def nameless_bodies(self, api: Api) -> list[tuple[Any, tuple[str, ...]]]:
        """Create bodies without a name (blank, empty, left out) and words the refusal
        names."""
        missing = self.valid_body(api, "x")
        del missing[self.name_field]
        return [
            (self.valid_body(api, "  "), ()),
            (self.valid_body(api, ""), ()),
            (missing, (self.name_field,)),
        ]

    # --- hooks -------------------------------------------------------------------------------

    def create_request(self, api: Api, body: Any) -> Any:
        return api.post(self.collection, json=body)

    def answer(self, response: Any) -> dict[str, Any]:
        """The object a create or an update answered."""
        body: dict[str, Any] = ok(response)
        return body

    def read_answer(self, response: Any) -> dict[str, Any]:
        """The object a read answered."""
        body: dict[str, Any] = ok(response)
        return body

    def item(self, key: str) -> str:
        return f"{self.collection}{url(key)}"

    def listed(self, api: Api) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = ok(api.get(self.collection))[self.list_key]
        return items

    # --- helpers -----------------------------------------------------------------------------

    def create(self, api: Api, name: str | None = None) -> dict[str, Any]:
        name = name or self.name_for(unique("obj"))
        return self.answer(self.create_request(api, self.valid_body(api, name)))

    def read(self, api: Api, key: str) -> dict[str, Any]:
        return self.read_answer(api.get(self.item(key)))

    def ids(self, api: Api) -> set[str]:
        return {o[self.id_field] for o in self.listed(api)}


class ListMixin(Resource):
    def test_list_holds_what_was_created(self, api: Api) -> None:
        before = self.listed(api)
        created = self.create(api)
        after = self.listed(api)
        assert len(after) == len(before) + 1
        assert created[self.id_field] in {o[self.id_field] for o in after}


class SortedByNameMixin(Resource):
    """The list is sorted by name (case aside)."""

    def test_list_sorted_by_name(self, api: Api) -> None:
        suffix = unique("")
        for name in ("b", "A", "c"):
            self.create(api, f"{name}{suffix}")
        names = [o[self.name_field] for o in self.listed(api)]
        assert [n for n in names if n.endswith(suffix)] == [f"{x}{suffix}" for x in "Abc"]


class CreateMixin(Resource):
    def test_create_answers_the_object(self, api: Api) -> None:
        name = self.name_for(unique("Created one"))
        created = self.create(api, name)
        assert isinstance(created[self.id_field], str) and created[self.id_field]
        assert created[self.name_field] == name
        assert self.read(api, created[self.id_field]) == created

    def test_create_with_a_taken_name(self, api: Api) -> None:
        name = self.name_for(unique("Twin"))
        first = self.create(api, name)
        count = len(self.listed(api))
        response = self.create_request(api, self.valid_body(api, name))
        if self.taken_name == "refused":
            error(response, 409, name)
        else:
            assert self.answer(response)[self.id_field] == first[self.id_field]
        assert len(self.listed(api)) == count

    def test_create_needs_a_name(self, api: Api) -> None:
        count = len(self.listed(api))
        for body, words in self.nameless_bodies(api):
            error(self.create_request(api, body), 400, *words)
        assert len(self.listed(api)) == count

    def test_create_invalid_refused(self, api: Api) -> None:
        cases = self.invalid_bodies(api)
        assert cases, "a resource declares bodies the host refuses"
        before = self.ids(api)
        for body, status, words in cases:
            error(self.create_request(api, body), status, *words)
        assert self.ids(api) == before


class JsonBodyMixin(Resource):
    """Objects are created from JSON bodies."""

    def test_create_malformed_body_400(self, api: Api) -> None:
        error(
            api.post(
                self.collection, content=b"{not json", headers={"content-type": "application/json"}
            ),
            400,
        )


class GeneratedIdMixin(Resource):
    """The host gives ids; a client cannot choose them."""

    def test_create_ignores_a_given_id(self, api: Api) -> None:
        body = self.valid_body(api, unique("With id"))
        body[self.id_field] = "mine"
        assert self.answer(self.create_request(api, body))[self.id_field] != "mine"


class NamesInPathsMixin(Resource):
    """Names are addressed in URL paths, where '/' cannot round-trip."""

    def test_name_with_slash_refused(self, api: Api) -> None:
        before = self.ids(api)
        error(self.create_request(api, self.valid_body(api, unique("Show A/B"))), 400, "/")
        assert self.ids(api) == before


class GetMixin(Resource):
    def test_get_by_id(self, api: Api) -> None:
        created = self.create(api)
        assert self.read(api, created[self.id_field]) == created

    def test_get_unknown_404(self, api: Api) -> None:
        error(api.get(self.item("no-such-thing")), 404, *self.not_found)


class ByNameMixin(Resource):
    """Reading by name: ``GET {by_name}/{name}``."""

    def by_name_path(self, name: str) -> str:
        return f"{self.by_name}{url(name)}"

    @pytest.mark.parametrize("name", NAMES)
    def test_get_by_name(self, api: Api, name: str) -> None:
        created = self.create(api, unique(name))
        assert ok(api.get(self.by_name_path(created[self.name_field]))) == created

    def test_get_by_unknown_name_404(self, api: Api) -> None:
        error(api.get(self.by_name_path(unique("Nobody"))), 404, "not found")


class ByNameDeleteMixin(ByNameMixin):
    """Deleting by name: ``DELETE {by_name}/{name}``."""

    @pytest.mark.parametrize("name", NAMES)
    def test_delete_by_name(self, api: Api, name: str) -> None:
        created = self.create(api, unique(name))
        path = self.by_name_path(created[self.name_field])
        ok(api.delete(path))
        assert created[self.id_field] not in self.ids(api)
        error(api.get(self.item(created[self.id_field])), 404)
        error(api.delete(path), 404)


class UpdateMixin(Resource):
    """``PUT {collection}/{id}``."""

    def update_body(self, api: Api, created: dict[str, Any], name: str) -> Any:
        """A body that renames ``created`` to ``name`` (and may change more)."""
        return self.valid_body(api, name)

    def invalid_update(self, api: Api, created: dict[str, Any]) -> Invalid:
        """An update the host refuses."""
        return self.update_body(api, created, "  "), 400, ()

    def update(self, api: Api, key: str, body: Any) -> Any:
        return api.put(self.item(key), json=body)

    def test_update(self, api: Api) -> None:
        created = self.create(api)
        name = unique("Renamed")
        updated = self.answer(
            self.update(api, created[self.id_field], self.update_body(api, created, name))
        )
        assert updated[self.id_field] == created[self.id_field]
        assert updated[self.name_field] == name
        assert self.read(api, created[self.id_field]) == updated

    def test_update_ignores_an_id_in_the_body(self, api: Api) -> None:
        created = self.create(api)
        body = self.update_body(api, created, unique("Renamed"))
        body[self.id_field] = "forged"
        updated = self.answer(self.update(api, created[self.id_field], body))
        assert updated[self.id_field] == created[self.id_field]
        error(api.get(self.item("forged")), 404)

    def test_update_invalid_leaves_it_unchanged(self, api: Api) -> None:
        created = self.create(api)
        body, status, words = self.invalid_update(api, created)
        error(self.update(api, created[self.id_field], body), status, *words)
        assert self.read(api, created[self.id_field]) == created

    def test_update_to_a_taken_name_409(self, api: Api) -> None:
        taken = self.create(api)[self.name_field]
        other = self.create(api)
        error(
            self.update(api, other[self.id_field], self.update_body(api, other, taken)), 409, taken
        )
        assert self.read(api, other[self.id_field]) == other

    def test_update_keeping_its_own_name(self, api: Api) -> None:
        created = self.create(api)
        body = self.update_body(api, created, created[self.name_field])
        updated = self.answer(self.update(api, created[self.id_field], body))
        assert updated[self.name_field] == created[self.name_field]

    def test_update_unknown_404(self, api: Api) -> None:
        created = self.create(api)
        error(self.update(api, "no-such-thing", self.update_body(api, created, unique("x"))), 404)


class DeleteMixin(Resource):
    def test_delete_then_gone(self, api: Api) -> None:
        created = self.create(api)
        key = created[self.id_field]
        ok(api.delete(self.item(key)))
        error(api.get(self.item(key)), 404)
        assert key not in self.ids(api)
        error(api.delete(self.item(key)), 404)


class CrudMixin(ListMixin, CreateMixin, JsonBodyMixin, GetMixin, DeleteMixin):
    """List, create, read and delete."""


class FullCrudMixin(CrudMixin, GeneratedIdMixin, UpdateMixin):
    """List, create (ids given by the host), read, update and delete."""
