"""GET /metrics: the Prometheus text format from a registry of the app's own, read with
prometheus-client's parser; only with a session or the metrics bearer token."""

from typing import Any

import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.support.http import ADMIN, PASSWORD
from tilewall.host.errors import StoreFailed
from tilewall.server import make_app

TOKEN = "a-scraper-token-of-some-length"


#: a sample's value by its name and its labels (sorted)
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient, **headers: str) -> Samples:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            key = (sample.name, tuple(sorted(sample.labels.items())))
            samples[key] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return float(samples[(name, tuple(sorted(labels.items())))])


class FailingStore:
    def __init__(self, real: Any) -> None:
        self.real = real
        self.failing = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    async def apply(self, changes: Any, audit: Any = ()) -> None:
        if self.failing:
            raise StoreFailed("the store cannot write (test)")
        await self.real.apply(changes, audit)


@pytest.fixture
def demo(data_dir, monkeypatch):
    monkeypatch.setenv("TILEWALL_METRICS_TOKEN", TOKEN)
    with TestClient(make_app(data_dir, demo=True)) as client:
        yield client


def test_metrics_need_a_session_or_the_token(demo) -> None:
    refused = demo.get("/metrics")
    assert refused.status_code == 401 and refused.json()["status"] == 401
    assert demo.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert demo.get("/metrics", headers={"Authorization": f"Basic {TOKEN}"}).status_code == 401
    assert (
        value(scrape(demo, Authorization=f"Bearer {TOKEN}"), "tilewall_group_role", role="single")
        == 1
    )
    login = demo.post("/api/session", json={"user": ADMIN, "password": PASSWORD})
    demo.cookies.set("JSESSIONID", login.json()["session"]["value"])
    scrape(demo)


def test_metrics_tell_receivers_displays_requests_fanout_and_commits(demo) -> None:
    login = demo.post("/api/session", json={"user": ADMIN, "password": PASSWORD})
    demo.cookies.set("JSESSIONID", login.json()["session"]["value"])
    displays = demo.get("/api/displays").json()["displays"]
    for display in displays:
        assert demo.get(f"/api/displays/{display['displayId']}").status_code == 200
    assert demo.get("/api/no-such-thing").status_code == 404
    assert demo.get("/no-such-page").status_code == 404
    before = scrape(demo)
    sources = demo.get("/api/sources").json()["sources"]
    web = next(s for s in sources if s["sourceType"] == "Web Browser")
    switched = demo.put(
        f"/api/displays/{displays[0]['displayId']}/switch",
        params={"destinationSourceId": web["sourceId"]},
    )
    assert switched.status_code == 200, switched.text
    host = demo.app.state.host
    store = FailingStore(host.core.store)
    host.core.store = store
    store.failing = True
    assert demo.post("/api/presets", json={"name": "Not kept"}).status_code == 503
    store.failing = False
    after = scrape(demo)

    # the demo: seven receivers online, one of them available; six displays online
    assert value(after, "tilewall_receivers_online") == 7
    assert value(after, "tilewall_receivers_available") == 1
    assert value(after, "tilewall_displays", state="online") == 6
    assert value(after, "tilewall_displays", state="offline") == 0
    showing = sum(
        value(after, "tilewall_displays_showing", what=w) for w in ("source", "welcome", "nothing")
    )
    assert showing == 6
    # requests by route template, never the raw path
    route = "/api/displays/{displayId}"
    assert value(
        after, "tilewall_http_requests_total", method="GET", route=route, status="200"
    ) == len(displays)
    assert value(
        after, "tilewall_http_request_duration_seconds_count", method="GET", route=route
    ) == len(displays)
    assert not [
        k for k in after if any(v == f"/api/displays/{displays[0]['displayId']}" for _, v in k[1])
    ]
    assert (
        value(after, "tilewall_http_requests_total", method="GET", route="(unrouted)", status="404")
        >= 1
    )
    # the switch fanned out to its receiver; commits timed, the failed one counted
    assert value(after, "tilewall_receiver_fanout_seconds_count") > value(
        before, "tilewall_receiver_fanout_seconds_count"
    )
    assert value(after, "tilewall_receiver_fanout_receivers_total") >= 1
    assert value(after, "tilewall_store_commit_seconds_count") > value(
        before, "tilewall_store_commit_seconds_count"
    )
    assert value(after, "tilewall_store_commit_failures_total") == 1
    assert value(after, "tilewall_store_committed_changes_total") >= value(
        after, "tilewall_store_commit_seconds_count"
    ) - value(after, "tilewall_store_commit_failures_total")
    assert value(after, "tilewall_group_role", role="single") == 1
    assert value(after, "tilewall_group_role", role="active") == 0
    # the process
    assert value(after, "process_resident_memory_bytes") > 10_000_000
    assert value(after, "process_open_fds") > 0


def test_each_app_has_its_own_registry(data_dir) -> None:
    one, two = make_app(data_dir), make_app(data_dir)
    assert one.state.metrics.registry is not two.state.metrics.registry
    one.state.metrics.commit_failures.inc()
    assert two.state.metrics.commit_failures._value.get() == 0
