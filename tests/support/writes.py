"""A stream of writes to a group, as a client with the members' addresses makes them:
each write goes to the first member that answers it; what was acknowledged, by whom and
when is kept, to be checked against the database's log of writes."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.support.cluster import Host, web_source
from tests.support.pgserver import PostgresServer


@dataclass
class Acked:
    name: str
    source_id: str
    host: str
    at: float
    revision: int


@dataclass
class Stream:
    hosts: list[Host]
    acked: list[Acked] = field(default_factory=list)
    refused: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    _n: int = 0

    def write_once(self) -> Acked | None:
        self._n += 1
        name = f"write-{self._n:05d}"
        for host in self.hosts:
            if host.proc is None:
                continue
            try:
                answer = host.api.post("/sources", json=web_source(name), timeout=3)
            except httpx.HTTPError:
                continue
            if answer.status_code != 200:
                self.refused += 1
                continue
            done = Acked(
                name,
                answer.json()["sourceId"],
                host.name,
                time.monotonic(),
                int(answer.headers.get("x-tilewall-revision", "0")),
            )
            self.acked.append(done)
            return done
        return None

    def run(self, until: float) -> None:
        while not self.stop.is_set() and time.monotonic() < until:
            if self.write_once() is None:
                time.sleep(0.02)

    def after(self, instant: float) -> list[Acked]:
        return [a for a in self.acked if a.at > instant]


def write_log(server: PostgresServer, database_url: str) -> list[dict[str, Any]]:
    """The database's log of writes: revision, generation, member, what changed."""
    import json

    name = database_url.rsplit("/", 1)[1]
    text = server.psql(
        "SELECT json_agg(json_build_object('revision', revision, 'generation', generation, "
        "'member', member_id, 'changed', changed) ORDER BY revision) FROM group_log",
        database=name,
    )
    rows: list[dict[str, Any]] = json.loads(text) if text else []
    for row in rows:
        row["changed"] = [tuple(pair) for pair in json.loads(row["changed"])]
    return rows


def check_fenced(log: list[dict[str, Any]]) -> dict[int, str]:
    """Every generation was written by one member, generations only grow with the
    revision, and revisions follow one another: no two members wrote as active at once.
    The writer of each generation."""
    writers: dict[int, str] = {}
    previous_revision, previous_generation = 0, 0
    for row in log:
        assert row["revision"] == previous_revision + 1 or previous_revision == 0, row
        assert row["generation"] >= previous_generation, (row, previous_generation)
        assert writers.setdefault(row["generation"], row["member"]) == row["member"], row
        previous_revision, previous_generation = row["revision"], row["generation"]
    return writers
