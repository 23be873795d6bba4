"""A stalled active host: frozen (``SIGSTOP``, what a paused VM, a storage hang or a
machine swapping to death do) in the middle of a stream of writes, its database session
and advisory lock still alive. The standby sees its lease run out, ends its sessions and
takes over within the lease time plus 2 s (bench/groupload.py measures it; here, with
room for a loaded machine); writes sent to the standby meanwhile answer
503 quickly instead of hanging; the frozen host, woken (``SIGCONT``), acknowledges
nothing of the write it finds waiting, steps down and follows; every acknowledged write
is on both hosts and no two hosts wrote as active at once."""

import json
import signal
import threading
import time
from collections.abc import Callable
from functools import partial

import httpx
import pytest

from tests.support.browser import needs_chromium
from tests.support.cluster import Cluster, Host, wait_for, web_source
from tests.support.group_receiver import receiver_of_group
from tests.support.writes import Stream, check_fenced, write_log

#: the default lease time (TILEWALL_GROUP_LEASE_MS)
LEASE_S = 5.0
#: the group promises a takeover within the lease + 2 s of a freeze; bench/groupload.py
#: measures that (6.1-6.97 s). Here it is only a bound for "it takes over": beside the
#: rest of the suite the standby runs late (full runs saw 10.2 s, and over 12 s once),
#: and 4.3-5.0 s beside six busy loops alone
TAKEOVER_LIMIT_S = 30.0
#: a write sent to the standby while the active host is frozen answers within this
#: (forwarding gives up 2 s after sending, once the lease is late)
PROBE_LIMIT_S = 6.0
#: every receiver back on the new active host: the lease plus 2 s, and room for a
#: loaded machine (the receiver finds silence after 5 s without a message)
RECEIVER_LIMIT_S = LEASE_S + 2.0 + 3.0
#: how long the test hook blocks the event loop
BLOCK_S = 20.0


def _post(host: Host, name: str, out: list[httpx.Response | BaseException]) -> None:
    try:
        out.append(host.api.post("/sources", json=web_source(name), timeout=60))
    except httpx.HTTPError as error:
        out.append(error)


def _has_all(host: Host, names: set[str]) -> bool:
    return names <= set(host.source_names())


@pytest.mark.timeout(240)
def test_freeze_the_active_host_in_the_middle_of_a_stream_of_writes(cluster: Cluster) -> None:
    first = cluster.start("first", "second")[0]
    assert first.proc is not None
    proc = first.proc
    _stall_in_a_stream_of_writes(
        cluster,
        lambda: proc.send_signal(signal.SIGSTOP),
        lambda: proc.send_signal(signal.SIGCONT),
    )


@pytest.mark.timeout(240)
def test_block_the_active_hosts_event_loop_in_a_stream_of_writes(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same with the host's own event loop blocked (a blocking call in a handler):
    the process is alive and its kernel answers, but it does nothing for 20 s."""
    monkeypatch.setenv("TILEWALL_TEST_BLOCK_LOOP_S", str(BLOCK_S))
    first = cluster.start("first", "second")[0]
    assert first.proc is not None
    proc = first.proc
    blocked: list[float] = []

    def block() -> None:
        blocked.append(time.monotonic())
        proc.send_signal(signal.SIGUSR1)

    def unblock() -> None:  # it ends by itself
        time.sleep(max(0.0, blocked[0] + BLOCK_S - time.monotonic()))

    _stall_in_a_stream_of_writes(cluster, block, unblock)


def _stall_in_a_stream_of_writes(
    cluster: Cluster, stall: Callable[[], None], wake: Callable[[], None]
) -> None:
    first, second = cluster.hosts
    assert first.role() == "active" and second.role() == "standby"
    ids = {h.name: h.group()["memberId"] for h in (first, second)}
    second.api  # noqa: B018  (logged in before the stall: the session is the group's)

    stream = Stream([first, second])
    writer = threading.Thread(target=stream.run, args=(time.monotonic() + 120,))
    writer.start()
    wait_for(lambda: len(stream.acked) >= 20, timeout=30)
    frozen_at = time.monotonic()
    stall()
    try:
        # a write to the standby during the stall answers 503 with the reason, quickly
        sent = time.monotonic()
        probe = second.api.post("/sources", json=web_source("during the stall"), timeout=30)
        took = time.monotonic() - sent
        print(f"write to the standby during the stall: {probe.status_code} after {took:.2f} s")
        assert took < PROBE_LIMIT_S
        if probe.status_code == 503:
            assert "not acknowledged" in probe.json()["message"], probe.text
        else:  # the standby took over meanwhile and made it
            assert probe.status_code == 200, probe.text

        second.becomes("active", timeout=TAKEOVER_LIMIT_S)
        took_over = time.monotonic() - frozen_at
        wait_for(lambda: len(stream.after(frozen_at)) >= 1, timeout=30)
        first_ack = stream.after(frozen_at)[0].at - frozen_at
        print(
            f"takeover after the stall: standby active {took_over:.2f} s, its first write "
            f"acknowledged {first_ack:.2f} s after the stall began (lease {LEASE_S:.0f} s)"
        )

        # a write waits in the stalled host's socket; it is the first thing it sees
        woken: list[httpx.Response | BaseException] = []
        late = threading.Thread(target=_post, args=(first, "to the woken host", woken))
        late.start()
        time.sleep(0.5)
    finally:
        wake()
    late.join(60)
    answer = woken[0]
    assert isinstance(answer, httpx.Response), answer
    print(f"the woken host's first write: {answer.status_code} {answer.text[:160]}")
    assert answer.status_code == 503, answer.text
    assert "nothing was changed" in answer.json()["message"], answer.text

    # it steps down and tells its clients (and receivers) where the active host is
    wait_for(first.is_standby, timeout=15)
    wait_for(lambda: first.group()["activeAddress"] == second.address, timeout=15)
    stream.stop.set()
    writer.join(30)

    # every acknowledged write is on both hosts; nothing refused was made
    log = write_log(cluster.server, cluster.database)
    writers = check_fenced(log)
    assert list(writers.values()) == [ids["first"], ids["second"]]
    acked = {a.name for a in stream.acked}
    for host in (first, second):
        wait_for(partial(_has_all, host, acked), timeout=15)
    assert "to the woken host" not in second.source_names()
    created = {key for row in log for kind, key in row["changed"] if kind == "source"}
    assert {a.source_id for a in stream.acked} <= created
    print(f"writes: {len(stream.acked)} acknowledged, {stream.refused} refused, {len(log)} logged")

    # the woken host forwards writes to the new active host again
    again = first.api.post("/sources", json=web_source("after waking"))
    assert again.status_code == 200, again.text
    wait_for(partial(second.has_source, "after waking"), timeout=5)


@pytest.mark.browser
@pytest.mark.timeout(240)
@needs_chromium
def test_a_receiver_page_follows_the_group_when_its_host_is_frozen(cluster: Cluster) -> None:
    with receiver_of_group(cluster) as (first, second, receiver):
        assert first.proc is not None
        frozen_at = time.monotonic()
        first.proc.send_signal(signal.SIGSTOP)
        try:
            # it notices the silence, goes to the new active host, keeps its picture
            receiver.page.wait_for_function(
                "() => window.tilewall.connected && window.tilewall.host === "
                + json.dumps(second.address),
                timeout=30_000,
            )
            back = time.monotonic() - frozen_at
            print(f"the receiver is back on the new active host {back:.2f} s after SIGSTOP")
            assert back < RECEIVER_LIMIT_S
            assert second.role() == "active"
            assert receiver.showing() == receiver.red
            switched = second.api.put(
                f"/displays/{receiver.display}/switch",
                params={"destinationSourceId": receiver.green},
            )
            assert switched.status_code == 200, switched.text
            receiver.wait_showing(receiver.green, timeout_ms=30_000)
            assert receiver.host() == second.address
        finally:
            first.proc.send_signal(signal.SIGCONT)
        wait_for(first.is_standby, timeout=15)
        # the woken host does not take the receiver back
        time.sleep(2)
        assert receiver.host() == second.address
        assert receiver.showing() == receiver.green
