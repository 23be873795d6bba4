"""Generic tests of a resource that is one object at one path (a setting, a group this
host is in, a receiver's serial port): read it, write it, refuse bad values and leave it
as it was, and (where it can be) delete it.

A test class declares where it is, how it is written, a valid body, invalid bodies and
what a read shows of a write; ``SingletonMixin`` brings the tests (``RefusingMixin``
only those that write nothing valid, ``DeletableMixin`` the deletion too).
"""

from __future__ import annotations

from typing import Any

from tests.support.http import Api, error, ok

Invalid = tuple[Any, int, tuple[str, ...]]  #: a body, the status refusing it, words it names


class Singleton:
    #: where it is (or override ``where``)
    path = ""
    #: the method writing it
    write_method = "PUT"
    #: there is none until written: what reading it answers then (status, words)
    absent: tuple[int, tuple[str, ...]] | None = None

    def where(self, api: Api) -> str:
        """Its path (made for the test: a display, a receiver)."""
        return self.path

    def initial(self, api: Api) -> Any:
        """What ``shown`` is before any write, when there is something to read."""
        raise NotImplementedError

    def valid_body(self, api: Api) -> Any:
        raise NotImplementedError

    def invalid_bodies(self, api: Api) -> list[Invalid]:
        raise NotImplementedError

    def shown(self, answer: Any) -> Any:
        """What a read answer shows of what a write sets."""
        return answer

    def expected(self, body: Any) -> Any:
        """What ``shown`` is after writing ``body``."""
        return body

    def write(self, api: Api, where: str, body: Any) -> Any:
        return api.request(self.write_method, where, json=body)

    def state(self, api: Api, where: str) -> tuple[int, Any]:
        response = api.get(where)
        return response.status_code, response.json()


class RefusingMixin(Singleton):
    """It reads as ``initial`` or ``absent`` before any write, and refuses invalid and
    malformed bodies, leaving it as it was (for one whose valid writes are tested
    elsewhere)."""

    def test_read_before_any_write(self, api: Api) -> None:
        where = self.where(api)
        if self.absent is not None:
            status, words = self.absent
            error(api.get(where), status, *words)
        else:
            assert self.shown(ok(api.get(where))) == self.initial(api)

    def test_invalid_refused_and_nothing_changed(self, api: Api) -> None:
        where = self.where(api)
        cases = self.invalid_bodies(api)
        assert cases, "a resource declares bodies the host refuses"
        before = self.state(api, where)
        for body, status, words in cases:
            error(self.write(api, where, body), status, *words)
            assert self.state(api, where) == before, body

    def test_malformed_body_400(self, api: Api) -> None:
        where = self.where(api)
        before = self.state(api, where)
        response = api.request(
            self.write_method,
            where,
            content=b"{not json",
            headers={"content-type": "application/json"},
        )
        error(response, 400)
        assert self.state(api, where) == before


class SingletonMixin(RefusingMixin):
    """It also takes a valid body, and reads as written."""

    def test_write_then_read(self, api: Api) -> None:
        where = self.where(api)
        body = self.valid_body(api)
        ok(self.write(api, where, body))
        assert self.shown(ok(api.get(where))) == self.expected(body)


class DeletableMixin(SingletonMixin):
    """It can be deleted; then reading it answers ``absent``."""

    def test_delete_then_absent(self, api: Api) -> None:
        assert self.absent is not None
        where = self.where(api)
        ok(self.write(api, where, self.valid_body(api)))
        assert ok(api.delete(where))["message"]
        status, words = self.absent
        error(api.get(where), status, *words)
        error(api.delete(where), status, *words)
