"""``GET /metrics``: the host in the Prometheus text format, one registry per app.

Readable with a session (the console's cookie) or ``Authorization: Bearer TOKEN`` where
TOKEN is ``TILEWALL_METRICS_TOKEN``; 401 otherwise. What it holds:

- ``tilewall_http_requests_total`` and ``tilewall_http_request_duration_seconds`` by
  method and route template (``/api/displays/{displayId}``, never the raw path; answers
  no route handled count as ``(unrouted)``), the count also by status;
- ``tilewall_receivers_online``, ``tilewall_receivers_available`` (online, not locked),
  ``tilewall_displays{state}`` (online, offline) and ``tilewall_displays_showing{what}``
  (source, welcome, nothing), read from the host at each scrape;
- ``tilewall_receiver_fanout_seconds`` (a committed change to its messages queued for
  every affected receiver) and ``tilewall_receiver_fanout_receivers``;
- ``tilewall_store_commit_seconds`` and ``tilewall_store_commit_failures_total`` (each
  a store transaction: a batch of changes, :mod:`tilewall.host.commit`) and
  ``tilewall_store_committed_changes_total`` (changes committed in them);
- ``tilewall_live_frames_in_total``, ``..._frames_sent_total``,
  ``..._frames_dropped_total``, ``..._bytes_in_total``, ``..._bytes_sent_total``,
  ``..._connections_total``, ``..._opened_total``, ``..._encoders_total``,
  ``tilewall_live_viewers`` and ``tilewall_live_delay_ms`` (of an open relay), by live
  source id (docs/live.md);
- ``tilewall_group_role{role}``: 1 for the host's role (active, standby or single);
  in a group also ``tilewall_group_generation`` (bumped by every change of active
  member, the same on every member), ``tilewall_group_takeovers_total{how}`` (this
  member's takeovers: of a ``free`` lock, or after ending a ``stalled`` active member's
  sessions), ``tilewall_group_lease_lapses_total`` (its watchdog saw its event loop
  stall while active), ``tilewall_group_lease_seconds`` (the lease time) and
  ``tilewall_group_lease_age_seconds`` (its renewals by the age the lease had reached,
  database clock: how near a busy active member came to being taken over) with
  ``tilewall_group_lease_age_max_seconds``;
- the process (CPU, memory, open files, start time), Python's GC and platform.
"""

import hmac
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from litestar import Request, Response, get
from litestar.enums import ScopeType
from litestar.exceptions import NotAuthorizedException
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import (
    GC_COLLECTOR,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from tilewall.api.auth import token_of
from tilewall.host.host import Host
from tilewall.host.hostgroup.members import LEASE_AGE_BUCKETS_MS, GroupStatus, Role
from tilewall.host.playback import timeline
from tilewall.live.feeds import LiveRelays

TOKEN_ENV = "TILEWALL_METRICS_TOKEN"
#: the Prometheus text format generate_latest writes (Litestar adds the charset)
TEXT_FORMAT = "text/plain; version=0.0.4"
ROLES = ("active", "standby", "single")
UNROUTED = "(unrouted)"
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class HostCollector(Collector):
    """Gauges read from the host and its receivers when scraped."""

    def __init__(self, metrics: "Metrics") -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        host = self.metrics.host
        role = GaugeMetricFamily(
            "tilewall_group_role", "1 for the role of this host in its group", labels=["role"]
        )
        current = self.metrics.role()
        for name in ROLES:
            role.add_metric([name], 1.0 if name == current else 0.0)
        yield role
        if host is None:
            return
        status = host.hostgroup.status()
        if status is not None:
            yield from group_metrics(status)
        state = host.core.state
        online = {seat for seat in state.stations if host.stations.is_online(seat)}
        available = sum(1 for seat in online if not state.stations[seat].locked)
        yield GaugeMetricFamily(
            "tilewall_receivers_online", "Receivers connected now", value=len(online)
        )
        yield GaugeMetricFamily(
            "tilewall_receivers_available",
            "Receivers connected and not locked (listed as available)",
            value=available,
        )
        by_state = {"online": 0, "offline": 0}
        showing = {"source": 0, "welcome": 0, "nothing": 0}
        for display in state.displays.values():
            by_state["online" if display.seat_id in online else "offline"] += 1
            tl = host.playback.effective_timeline(display)
            if tl.welcome:
                showing["welcome"] += 1
            elif timeline.playing_source_id(tl) is not None:
                showing["source"] += 1
            else:
                showing["nothing"] += 1
        displays = GaugeMetricFamily(
            "tilewall_displays", "Displays by receiver state", labels=["state"]
        )
        for name, count in by_state.items():
            displays.add_metric([name], count)
        yield displays
        shows = GaugeMetricFamily(
            "tilewall_displays_showing", "Displays by what they show", labels=["what"]
        )
        for name, count in showing.items():
            shows.add_metric([name], count)
        yield shows


def group_metrics(status: GroupStatus) -> Iterator[Metric]:
    """The group's generation, this member's takeovers and what it did with the lease."""
    yield GaugeMetricFamily(
        "tilewall_group_generation",
        "Bumped by every change of the group's active member",
        value=status.generation,
    )
    lease = status.lease
    if lease is None:
        return
    took = CounterMetricFamily(
        "tilewall_group_takeovers",
        "Takeovers this member made: of a free lock, or after ending a stalled member's sessions",
        labels=["how"],
    )
    took.add_metric(["free"], lease.took_free)
    took.add_metric(["stalled"], lease.took_stalled)
    yield took
    yield CounterMetricFamily(
        "tilewall_group_lease_lapses",
        "Times this member's event loop stalled while active (writes waited for a renewal)",
        value=lease.lapses,
    )
    yield GaugeMetricFamily(
        "tilewall_group_lease_seconds",
        "The lease time: an active member that has not renewed its lease for this long is "
        "taken over",
        value=lease.lease_ms / 1000,
    )
    buckets: list[tuple[str, float]] = []
    count = 0
    for bound, n in zip((*LEASE_AGE_BUCKETS_MS, None), lease.ages, strict=True):
        count += n
        buckets.append(("+Inf" if bound is None else str(bound / 1000), count))
    yield HistogramMetricFamily(
        "tilewall_group_lease_age_seconds",
        "This member's lease renewals by the age the lease had reached (database clock)",
        buckets=buckets,
        sum_value=lease.age_sum_ms / 1000,
    )
    yield GaugeMetricFamily(
        "tilewall_group_lease_age_max_seconds",
        "The oldest this member's lease was when it renewed it",
        value=lease.age_max_ms / 1000,
    )


class LiveCollector(Collector):
    """Counters of the live relays, per source, read when scraped."""

    COUNTERS = (
        ("frames_in", "Frames read from the live input"),
        ("frames_sent", "Frames sent to viewers (a frame sent to 9 viewers counts 9)"),
        ("frames_dropped", "Frames not sent to a viewer whose queue was full"),
        ("bytes_in", "Bytes of video read from the live input"),
        ("bytes_sent", "Bytes of frames sent to viewers"),
        ("connections", "Times the live input was opened (first try and reconnects)"),
        ("opened", "Times the live input opened and gave a picture (connections less failures)"),
        ("encoders", "Transcoders made for the input (one per opening, never per viewer)"),
    )

    def __init__(self, relays: LiveRelays) -> None:
        self.relays = relays

    def collect(self) -> Iterator[Metric]:
        counts = dict(self.relays.counts)
        for name, text in self.COUNTERS:
            family = CounterMetricFamily(f"tilewall_live_{name}", text, labels=["source"])
            for source_id, c in counts.items():
                family.add_metric([source_id], getattr(c, name))
            yield family
        viewers = GaugeMetricFamily(
            "tilewall_live_viewers", "Connections shown a live source now", labels=["source"]
        )
        for source_id in counts:
            viewers.add_metric([source_id], self.relays.viewers(source_id))
        yield viewers
        delays = GaugeMetricFamily(
            "tilewall_live_delay_ms",
            "How long after a frame reaches the host its receivers present it, now",
            labels=["source"],
        )
        for source_id, relay in list(self.relays.relays.items()):
            delays.add_metric([source_id], relay.latency.ms)
        yield delays


class Metrics:
    """The registry of one app and the instruments the app, hub and store feed."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        #: the labelled children, looked up once (labels() takes a lock and checks)
        self._latency_of: dict[tuple[str, str], Any] = {}
        self._count_of: dict[tuple[str, str, int], Any] = {}
        self.host: Host | None = None
        #: the host's role in its group (``single`` before a host is attached)
        self.role: Callable[[], str] = lambda: "single"
        self.requests = Counter(
            "tilewall_http_requests",
            "HTTP requests answered, by method, route template and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "tilewall_http_request_duration_seconds",
            "Time to answer HTTP requests, by method and route template",
            ["method", "route"],
            buckets=_FAST,
            registry=self.registry,
        )
        self.fanout = Histogram(
            "tilewall_receiver_fanout_seconds",
            "A committed change to its messages queued for every affected receiver",
            buckets=_FAST,
            registry=self.registry,
        )
        self.fanout_receivers = Counter(
            "tilewall_receiver_fanout_receivers",
            "Receivers sent a new state",
            registry=self.registry,
        )
        self.commit = Histogram(
            "tilewall_store_commit_seconds",
            "Time for the store to commit a batch of changes (one transaction)",
            buckets=_FAST,
            registry=self.registry,
        )
        self.commit_failures = Counter(
            "tilewall_store_commit_failures",
            "Batches of changes the store failed to commit",
            registry=self.registry,
        )
        self.committed_changes = Counter(
            "tilewall_store_committed_changes",
            "Changes committed (several may share one transaction)",
            registry=self.registry,
        )
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        if GC_COLLECTOR is not None:
            GCCollector(registry=self.registry)
        self.registry.register(HostCollector(self))

    def attach(self, host: Host) -> None:
        """Read ``host`` at each scrape and time its store commits."""
        self.host = host
        self.role = lambda: (
            "single" if host.hostgroup.role is Role.SOLO else str(host.hostgroup.role)
        )
        host.core.commit_observers.append(self.observe_commit)

    def attach_live(self, relays: LiveRelays) -> None:
        """Count what the live relays do (``tilewall_live_*`` by source id)."""
        self.registry.register(LiveCollector(relays))

    def observe_commit(self, seconds: float, committed: bool, changes: int) -> None:
        self.commit.observe(seconds)
        if committed:
            self.committed_changes.inc(changes)
        else:
            self.commit_failures.inc()

    def observe_fanout(self, seconds: float, receivers: int) -> None:
        if receivers:
            self.fanout.observe(seconds)
            self.fanout_receivers.inc(receivers)

    def middleware(self, app: ASGIApp) -> ASGIApp:
        """Times every routed HTTP request (Litestar middleware, inside the routing)."""

        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != ScopeType.HTTP:
                await app(scope, receive, send)
                return
            started = time.perf_counter()
            try:
                await app(scope, receive, send)
            finally:
                self.observe(scope, time.perf_counter() - started)

        return middleware

    def observe(self, scope: Scope, seconds: float) -> None:
        """The time an HTTP request took to answer, by method and route template."""
        key = (str(scope.get("method")), scope.get("path_template") or UNROUTED)
        timer = self._latency_of.get(key)
        if timer is None:
            timer = self._latency_of[key] = self.latency.labels(*key)
        timer.observe(seconds)

    async def count(self, message: Message, scope: Scope) -> None:
        """A ``before_send`` hook: counts every answer with its final status, also those
        no route handled (404, 405), which count as ``(unrouted)``."""
        if scope["type"] == ScopeType.HTTP and message["type"] == "http.response.start":
            key = (scope["method"], scope.get("path_template") or UNROUTED, message["status"])
            counter = self._count_of.get(key)
            if counter is None:
                counter = self._count_of[key] = self.requests.labels(*key[:2], str(key[2]))
            counter.inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)


def allowed(request: Request[Any, Any, Any], host: Host) -> bool:
    """A live session, or the bearer token of ``TILEWALL_METRICS_TOKEN``."""
    expected = os.environ.get(TOKEN_ENV, "")
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if expected and scheme.lower() == "bearer" and hmac.compare_digest(given, expected):
        return True
    return host.accounts.session(token_of(request)) is not None


@get("/metrics", include_in_schema=False, name="metrics", opt={"exclude_from_auth": True})
async def metrics_page(request: Request[Any, Any, Any], host: Host) -> Response[bytes]:
    if not allowed(request, host):
        raise NotAuthorizedException(
            f"log in, or send Authorization: Bearer with the {TOKEN_ENV} token"
        )
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.text(), media_type=TEXT_FORMAT)
