"""Receivers ride out an outage of their host.

A real host process is killed while real Chromium receivers play a signage playlist of
solid-colour images and a two-colour video; every item still shows, checked by the
colours of screenshots, and once the host is back the receivers are in step with its
timeline within a second. Two kinds of receiver page play at once: one that reaches the
host as ``127.0.0.1`` (a secure context: service worker and Cache Storage) and one that
reaches it by a name over plain HTTP (``receiver.test``, mapped to 127.0.0.1 by Chromium:
no service worker, media kept in the page's own memory). Also: the budget and eviction
rule of ``prefetch.js`` (run in Chromium), and the media endpoint's ETag."""

import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from tests.support.browser import (
    ARGS,
    BLACK,
    BLUE,
    CHROMIUM,
    GREEN,
    RED,
    VIEWPORT,
    YELLOW,
    centre,
    near,
    needs_chromium,
    screenshot,
    tw,
    wait_connected,
)
from tests.support.http import SESSION_COOKIE
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until
from tilewall.host.playback.slots import Item, locate

pytestmark = [pytest.mark.browser, needs_chromium]

MEDIA = Path(__file__).parent / "media"
MAGENTA = (200, 50, 200)
#: videos: yellow for the first half, magenta for the second (media/README.md)
VIDEOS = {"d-video.mp4": MEDIA / "two-colours.mp4", "e-long.mp4": MEDIA / "two-colours-30s.mp4"}
#: a name for the host that is not a secure context (Chromium maps it to 127.0.0.1)
INSECURE = "receiver.test"
SLIDE_S = 4
IMAGES = {"a-red.png": RED, "b-green.png": GREEN, "c-blue.png": BLUE}
FILES = [*IMAGES, "d-video.mp4"]
#: the playlist whose video fails: a slot long enough for the host to restart in it
REJOIN = ["a-red.png", "c-blue.png", "e-long.mp4"]
ORANGE = (255, 140, 0)
#: an image of its own source, to switch to
SWITCH = "f-orange.png"
#: the next item starts loading 3 s before its slot (playlist.js PRELOAD_MS)
PRELOAD_MS = 3000
#: screenshots this close to a change of colour are not judged
MARGIN_MS = 400
#: a video comes to view once the browser draws it on top (deck.js): on a loaded
#: machine that can take a few hundred ms, the item before staying meanwhile
VIDEO_START_MS = 1000

SAMPLE = """() => {
  const t = window.tilewall;
  return {...t.sample(), timeline: t.state && t.state.content && t.state.content.timeline,
          connected: t.connected};
}"""
STATUS = "async () => (await import('/receiver/prefetch.js')).status()"
#: the page's media elements, for messages
MEDIA_STATE = """() => Array.from(document.querySelectorAll('.media'), (m) => ({
  tag: m.tagName, name: m.dataset.name, cls: m.className, vis: getComputedStyle(m).visibility,
  ...(m.tagName === 'VIDEO' ? {rs: m.readyState, t: m.currentTime, paused: m.paused,
      seeking: m.seeking, ended: m.ended, err: m.error && m.error.code, rate: m.playbackRate}
    : {complete: m.complete, w: m.naturalWidth})}))"""


@dataclass
class Rig:
    host: ServerProcess
    browser: Any
    source: str = ""
    rejoin: str = ""
    switch: str = ""
    sizes: dict[str, int] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    from playwright.sync_api import sync_playwright

    host = ServerProcess(tmp_path_factory.mktemp("ride") / "data")
    host.spawn()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=[*ARGS, f"--host-resolver-rules=MAP {INSECURE} 127.0.0.1"],
            )
            try:
                host.wait_ready()
                host.login()
                folder = tmp_path_factory.mktemp("ride-media")
                setup = Rig(host, browser)
                for name, colour in {**IMAGES, SWITCH: ORANGE}.items():
                    path = folder / name
                    Image.new("RGB", (160, 90), colour).save(path)
                    host.upload(name, path)
                    setup.sizes[name] = path.stat().st_size
                for name, path in VIDEOS.items():
                    host.upload(name, path)
                    setup.sizes[name] = path.stat().st_size
                setup.source = host.signage("Ride through", FILES, interval_s=SLIDE_S)
                setup.rejoin = host.signage("Rejoin", REJOIN, interval_s=SLIDE_S)
                setup.switch = host.signage("Switch", [SWITCH], interval_s=SLIDE_S)
                yield setup
            finally:
                browser.close()
    finally:
        host.close()


@pytest.fixture
def context(rig: Rig) -> Iterator[Any]:
    """A browser context of the test's own, closed after it even when it fails (a page of
    a failed try left open would be a second receiver on its seat for the rerun)."""
    opened = rig.browser.new_context(viewport=VIEWPORT)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(autouse=True)
def host_up(rig: Rig) -> None:
    """The host serves at the start of each test, though one before failed while it was away."""
    host = rig.host
    if host.alive:
        assert host.process is not None
        os.kill(host.process.pid, signal.SIGCONT)  # harmless when it is not stopped
    else:
        host.spawn()
    host.wait_ready()


def open_page(rig: Rig, context: Any, seat: str, secure: bool, query: str = "") -> Any:
    base = rig.host.url if secure else f"http://{INSECURE}:{rig.host.port}"
    page = context.new_page()
    errors = rig.errors.setdefault(seat, [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/receiver/?seat={seat}{query}")
    wait_connected(page)
    assert page.evaluate("() => window.isSecureContext") is secure
    return page


def through_service_worker(page: Any) -> None:
    """A page loaded before the service worker took control reloads once to go through it."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=10_000)
    page.reload()
    wait_connected(page)


def media_status(page: Any) -> dict[str, Any]:
    return page.evaluate(STATUS)


def wait_kept(page: Any, files: int) -> dict[str, Any]:
    """Wait until the page has fetched ahead all it will keep of ``files`` files."""

    def done() -> dict[str, Any] | None:
        s = media_status(page)
        return s if len(s["wanted"]) == files and not s["missing"] and not s["busy"] else None

    return wait_until(done, 10, 0.05, "the media kept ahead")


def playlist(page: Any, files: list[str]) -> list[Item]:
    source = tw(page, "t.state.content.source")
    assert [i["name"] for i in source["items"]] == files
    return [Item(i["name"], i["durationMs"], i["kind"] == "image") for i in source["items"]]


def position_at(timeline: dict[str, Any], host_ms: float) -> float:
    if timeline["state"] != "playing":
        return float(timeline["anchorPositionMs"])
    return float(timeline["anchorPositionMs"] + host_ms - timeline["anchorMs"])


def expected(items: list[Item], timeline: dict[str, Any], host_ms: float) -> tuple[str, Any, int]:
    """The item the timeline gives at ``host_ms``: its name, colour and offset."""
    slot = locate(items, int(position_at(timeline, host_ms)), True)
    assert slot is not None
    item = items[slot.index]
    if item.is_image:
        return item.name, IMAGES[item.name], slot.offset_ms
    return item.name, YELLOW if slot.offset_ms < item.duration_ms / 2 else MAGENTA, slot.offset_ms


def near_change(items: list[Item], timeline: dict[str, Any], host_ms: float) -> bool:
    """Whether ``host_ms`` is within MARGIN_MS of a change of colour."""
    total = sum(i.duration_ms for i in items)
    position = position_at(timeline, host_ms) % total
    changes: list[float] = [0]
    for item in items:
        if item.is_image:
            changes.append(changes[-1] + item.duration_ms)
        else:
            changes += [changes[-1] + item.duration_ms / 2, changes[-1] + item.duration_ms]
    return any(
        abs(position - c) < MARGIN_MS or abs(position - c - total) < MARGIN_MS for c in changes
    )


def named(colour: tuple[int, int, int]) -> str:
    colours = (*IMAGES.items(), ("yellow", YELLOW), ("magenta", MAGENTA), (SWITCH, ORANGE))
    for name, value in colours:
        if near(colour, value):
            return name
    return "black" if near(colour, BLACK, 12) else f"other {colour}"


@dataclass
class Watch:
    """Screenshots of one page while the host is away, judged against its timeline."""

    page: Any
    items: list[Item]
    seen: set[str] = field(default_factory=set)
    judged: int = 0
    wrong: list[str] = field(default_factory=list)
    #: offsets into a video's slot at which the item before was still seen
    late_video: list[int] = field(default_factory=list)

    def look(self, label: str) -> None:
        before = self.page.evaluate(SAMPLE)
        image = screenshot(self.page)
        after = self.page.evaluate(SAMPLE)
        colour = centre(image)
        name = named(colour)
        if name.startswith("other") or name == "black":
            # never black, never broken: whatever the moment, some content colour shows
            media = self.page.evaluate(MEDIA_STATE)
            offset = expected(self.items, before["timeline"], before["hostMs"])[2]
            self.wrong.append(f"{label}: {name} at {before['item']} +{offset} ms {media}")
            screenshot(self.page, f"ride-wrong-{label}")
            return
        timeline = before["timeline"]
        if near_change(self.items, timeline, before["hostMs"]) or near_change(
            self.items, timeline, after["hostMs"]
        ):
            return
        item, want, offset = expected(self.items, timeline, before["hostMs"])
        if expected(self.items, timeline, after["hostMs"])[1] != want:
            return
        self.judged += 1
        if near(colour, want):
            self.seen.add(item if item in IMAGES else named(want))
        elif (
            item not in IMAGES
            and offset < VIDEO_START_MS
            and near(colour, before_video(self.items, item))
        ):
            self.late_video.append(offset)
        else:
            media = self.page.evaluate(MEDIA_STATE)
            offset = expected(self.items, timeline, before["hostMs"])[2]
            self.wrong.append(f"{label}: {name} where {item} +{offset} ms plays {media}")
            screenshot(self.page, f"ride-wrong-{label}")


def before_video(items: list[Item], name: str) -> tuple[int, int, int]:
    """The colour the item before video ``name`` ends with."""
    index = [i.name for i in items].index(name)
    previous = items[index - 1]
    return IMAGES[previous.name] if previous.is_image else MAGENTA


def in_step(
    items: list[Item],
    timeline: dict[str, Any],
    s: dict[str, Any],
    colour: tuple[int, int, int] | None = None,
) -> bool:
    """Whether sample ``s`` shows the item the host's timeline gives (a video within 100 ms
    of its position), and in its colour when a screenshot's ``colour`` is given."""
    if near_change(items, timeline, s["hostMs"]):
        return True  # a change of item or colour is taken at the next tick: not judged
    item, want, offset = expected(items, timeline, s["hostMs"])
    if s["item"] != item or s.get("waiting") or s["positionMs"] is None:
        return False
    if item not in IMAGES and abs(s["positionMs"] - offset) > 100:
        return False
    return colour is None or near(colour, want)


def host_timeline(host: ServerProcess, display_id: int) -> dict[str, Any]:
    return host.ok("GET", f"/displays/{display_id}/render")["content"]["timeline"]


def back_in_step(
    host: ServerProcess, pages: dict[str, Any], ids: dict[str, int], items: list[Item], up_at: float
) -> dict[str, float]:
    """Seconds from the host's return until each page is in step with the host's timeline,
    and stays so. The pages are sampled for 4 s (screenshots every 0.3 s), then judged
    against the timeline the host gives: the test's own calls to a host just started
    take no part in the time."""
    samples: dict[str, list[tuple[float, dict[str, Any]]]] = {seat: [] for seat in pages}
    #: (seconds, sample before, sample after, colour): a screenshot takes a while on a
    #: loaded machine, and its picture is judged against both ends of it
    shots: dict[str, list[tuple[float, dict[str, Any], dict[str, Any], Any]]] = {
        seat: [] for seat in pages
    }
    next_shot = up_at + 0.3
    while time.monotonic() - up_at < 4:
        for seat, page in pages.items():
            samples[seat].append((time.monotonic() - up_at, page.evaluate(SAMPLE)))
        if time.monotonic() >= next_shot:
            for seat, page in pages.items():
                before = page.evaluate(SAMPLE)
                colour = centre(screenshot(page))
                after = page.evaluate(SAMPLE)
                shots[seat].append((time.monotonic() - up_at, before, after, colour))
            next_shot = time.monotonic() + 0.3
    took = {}
    for seat, page in pages.items():
        timeline = host_timeline(host, ids[seat])
        assert timeline == tw(page, "t.state.content.timeline"), "the host kept its timeline"
        judged = [(at, in_step(items, timeline, s)) for at, s in samples[seat]]
        first = next((at for at, ok in judged if ok), None)
        assert first is not None, (seat, [s for _, s in samples[seat]][-3:])
        late = [
            (round(at, 2), s)
            for (at, ok), (_, s) in zip(judged, samples[seat], strict=True)
            if at > first and not ok
        ]
        assert not late, (seat, "out of step again", late[:3])
        taken = [x for x in shots[seat] if x[0] > first]
        seen = [(round(at, 2), named(c)) for at, _, _, c in taken]
        wrong = [
            look
            for look, (_, before, after, c) in zip(seen, taken, strict=True)
            if not (in_step(items, timeline, before, c) or in_step(items, timeline, after, c))
        ]
        assert seen and not wrong, (seat, "pictures out of step", wrong)
        took[seat] = first
    return took


def start(
    rig: Rig, context: Any, name: str, source: str, query: str = ""
) -> tuple[dict[str, Any], dict[str, int]]:
    """A page of each kind, each its own display, both switched to the playlist."""
    pages = {
        f"{name}-sw": open_page(rig, context, f"{name}-sw", True, query),
        f"{name}-mem": open_page(rig, context, f"{name}-mem", False, query),
    }
    ids = {seat: rig.host.lock(seat) for seat in pages}
    through_service_worker(pages[f"{name}-sw"])
    for display_id in ids.values():
        rig.host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": source})
    for page in pages.values():
        page.wait_for_function(
            "() => window.tilewall.sample().item === 'a-red.png'", timeout=10_000
        )
    assert media_status(pages[f"{name}-sw"])["mode"] == "cache"
    assert media_status(pages[f"{name}-sw"])["served"], "the service worker serves media"
    assert media_status(pages[f"{name}-mem"])["mode"] == "memory"
    return pages, ids


def position(page: Any) -> float:
    s = page.evaluate(SAMPLE)
    return position_at(s["timeline"], s["hostMs"])


@pytest.mark.parametrize("outage", ["killed", "frozen"])
def test_every_item_plays_while_the_host_is_away(rig: Rig, context: Any, outage: str) -> None:
    """``killed``: the host process dies (connections refused). ``frozen``: it stops
    (SIGSTOP) and answers nothing, as a hung host or a cut cable would."""
    host = rig.host
    name = f"away-{outage}"
    pages, ids = start(rig, context, name, rig.source)
    sw = pages[f"{name}-sw"]
    items = playlist(sw, FILES)
    cycle_ms = sum(i.duration_ms for i in items)
    assert cycle_ms == 3 * SLIDE_S * 1000 + 12_000

    # every file of the playlist is kept ahead of time, long before it plays
    for seat, page in pages.items():
        wait_kept(page, 4)
        kept = {e["url"]: e["bytes"] for e in media_status(page)["entries"]}
        assert kept == {f"/media/{n}": rig.sizes[n] for n in FILES}, seat
    # the host dies before blue and the video were ever asked for by the picture
    blue_loads_at = 2 * SLIDE_S * 1000 - PRELOAD_MS
    for page in pages.values():
        assert position(page) < blue_loads_at - 500, "too late to kill the host first"
        assert page.locator("img[data-name='c-blue.png'], video").count() == 0
    assert host.process is not None
    if outage == "killed":
        host.kill()
    else:
        os.kill(host.process.pid, signal.SIGSTOP)
    down_at = time.monotonic()
    try:
        away(rig, pages, items)
    finally:
        if outage == "frozen":
            os.kill(host.process.pid, signal.SIGCONT)
    if outage == "killed":
        host.spawn()
    host.wait_ready()
    up_at = time.monotonic()
    took = back_in_step(host, pages, ids, items, up_at)
    print(f"host away {up_at - down_at:.1f} s; in step after its return: {took}")
    for page in pages.values():
        wait_connected(page, timeout_s=25)
    for seat in pages:
        assert not rig.errors[seat], rig.errors[seat]


def away(rig: Rig, pages: dict[str, Any], items: list[Item]) -> None:
    """While the host is away: byte ranges from the kept copy, and every item in its slot."""
    cycle_ms = sum(i.duration_ms for i in items)
    for page in pages.values():
        page.wait_for_function("() => !window.tilewall.connected", timeout=8000)

    # the service worker answers byte ranges from the kept copy
    sw = next(page for seat, page in pages.items() if seat.endswith("-sw"))
    got = sw.evaluate(
        """async () => {
          const r = await fetch('/media/d-video.mp4', {headers: {range: 'bytes=100-199'}});
          return {status: r.status, range: r.headers.get('content-range'),
                  bytes: Array.from(new Uint8Array(await r.arrayBuffer()))};
        }"""
    )
    video = VIDEOS["d-video.mp4"].read_bytes()
    assert got["status"] == 206
    assert got["range"] == f"bytes 100-199/{len(video)}"
    assert bytes(got["bytes"]) == video[100:200]

    # a whole cycle and a bit with no host: every item shows, in its slot
    watches = {seat: Watch(page, items) for seat, page in pages.items()}
    rounds = 0
    watched_from = time.monotonic()
    while time.monotonic() - watched_from < cycle_ms / 1000 + 1:
        rounds += 1
        for seat, watch in watches.items():
            watch.look(f"{seat}-{rounds}")
    for seat, watch in watches.items():
        print(
            f"\n{seat}: {watch.judged} screenshots judged, saw {sorted(watch.seen)};"
            f" the item before a video still seen at {watch.late_video} ms into its slot"
        )
        assert not watch.wrong, (seat, watch.wrong)
        assert watch.seen == {*IMAGES, "yellow", "magenta"}, (seat, watch.seen)
        assert watch.judged >= 10, seat
        assert not tw(watch.page, "t.connected")


def test_a_video_that_failed_rejoins_when_the_host_returns(rig: Rig, context: Any) -> None:
    """The budget keeps the images but not the video: while the host is away the video's
    slot holds the last image shown (never black, never broken); when the host is back
    the video loads again and joins the timeline where it is."""
    host = rig.host
    images = [n for n in REJOIN if n in IMAGES]
    budget = sum(rig.sizes[n] for n in images) + rig.sizes["e-long.mp4"] // 2
    query = f"&mediaBudgetMB={budget / 1024 / 1024:.6f}"
    pages, ids = start(rig, context, "rejoin", rig.rejoin, query)
    items = playlist(pages["rejoin-sw"], REJOIN)
    for seat, page in pages.items():
        wait_kept(page, 3)
        status = media_status(page)
        assert status["skipped"] == ["/media/e-long.mp4"], (seat, status)
        assert {e["url"] for e in status["entries"]} == {f"/media/{n}" for n in images}, seat
        assert status["usedBytes"] <= status["budgetBytes"]
    video_at = 2 * SLIDE_S * 1000
    video_loads_at = video_at - PRELOAD_MS
    for page in pages.values():
        assert position(page) < video_loads_at - 500, "too late to kill the host first"
    host.kill()
    down_at = time.monotonic()

    # into the video's slot: blue stays, the video waits
    sw = pages["rejoin-sw"]
    wait_until(lambda: position(sw) > video_at + 1500, timeout=20, what="the video's slot")
    for seat, page in pages.items():
        s = page.evaluate(SAMPLE)
        assert s["item"] == "c-blue.png" and s["waiting"] == "e-long.mp4", (seat, s)
        image = screenshot(page, f"ride-held-{seat}")
        assert near(centre(image), BLUE), (seat, centre(image))
        assert page.locator("video.shown").count() == 0
    host.spawn()
    host.wait_ready()
    up_at = time.monotonic()
    assert position(sw) < video_at + 30_000 - 1500, "the host took too long to start"
    took = back_in_step(host, pages, ids, items, up_at)
    print(f"\nhost away {up_at - down_at:.1f} s; the video in step after its return: {took}")
    for seat in took:
        page = pages[seat]
        assert page.evaluate(SAMPLE)["item"] == "e-long.mp4"
        screenshot(page, f"ride-rejoined-{seat}")
    for page in pages.values():
        wait_connected(page, timeout_s=25)
    for seat in pages:
        assert not rig.errors[seat], rig.errors[seat]


def test_slow_media_hold_the_item_before(rig: Rig, context: Any) -> None:
    """The host is up but some files come late (their requests are held back): the
    picture keeps the item before, still, until the late one is decoded and can play;
    never black, never a broken image. The same when switching to another source."""
    # a seat of its own each time: a run again must not find the display mid-cycle
    seat = f"slow-{len(rig.errors)}"
    # a budget that keeps nothing: every medium comes from the host, when it comes
    page = open_page(rig, context, seat, False, "&mediaBudgetMB=0.000001")
    delay_s = PRELOAD_MS / 1000 + 2  # asked for 3 s before its slot, it comes 2 s into it
    held: list[tuple[Any, float, str]] = []
    released: dict[str, float] = {}  # file -> timeline position of its last release

    def hold(route: Any) -> None:
        if "x-tilewall-prefetch" in route.request.headers:
            route.continue_()  # the page's own fetches ahead and probes: not the picture's
        else:
            held.append((route, time.monotonic() + delay_s, route.request.url.rsplit("/", 1)[-1]))

    for name in ("c-blue.png", "d-video.mp4", SWITCH):
        page.route(f"**/media/{name}", hold)
    display_id = rig.host.lock(seat)
    rig.host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": rig.source})
    page.wait_for_function("() => window.tilewall.sample().item === 'a-red.png'", timeout=10_000)
    items = playlist(page, FILES)

    looks: list[tuple[float, str, dict[str, Any]]] = []

    def look() -> None:
        for entry in list(held):
            route, due, name = entry
            if time.monotonic() >= due:
                held.remove(entry)
                route.continue_()
                released[name] = position(page)
        s = page.evaluate(SAMPLE)
        at = position_at(s["timeline"], s["hostMs"])
        name = named(centre(screenshot(page)))
        if name == "black" or name.startswith("o"):
            s = {**s, "media": page.evaluate(MEDIA_STATE)}
        looks.append((at, name, s))

    blue_at, video_at = 2 * SLIDE_S * 1000, 3 * SLIDE_S * 1000
    while position(page) < video_at + delay_s * 1000 + 1500:
        look()
    wrong = [
        (round(at), name, s.get("media"))
        for at, name, s in looks
        if name == "black" or name.startswith("o")
    ]
    assert not wrong, wrong

    def shown(start: float, end: float) -> set[str]:
        return {name for at, name, _ in looks if start < at < end}

    # blue came about 2 s into its slot (later by the loop's look, slow on a loaded
    # machine, but well before the video's): green stayed until then, waiting for it
    blue_came = released["c-blue.png"]
    assert blue_at + 1000 < blue_came < video_at - 2 * MARGIN_MS, blue_came
    assert shown(blue_at + MARGIN_MS, blue_came - MARGIN_MS) == {"b-green.png"}
    assert any(
        s["item"] == "b-green.png" and s.get("waiting") == "c-blue.png"
        for at, _, s in looks
        if blue_at + MARGIN_MS < at < blue_came - MARGIN_MS
    )
    # the video likewise: blue stayed until it could play, then it played in step (blue
    # from its coming to the video's: between its coming and the video's slot alone, a
    # loaded machine's slow looks may see nothing)
    video_came = released["d-video.mp4"]
    assert shown(blue_came + 2 * MARGIN_MS, video_came - MARGIN_MS) == {"c-blue.png"}
    assert shown(video_at + MARGIN_MS, video_came - MARGIN_MS) == {"c-blue.png"}
    assert shown(video_came + VIDEO_START_MS, video_at + 6000 - MARGIN_MS) == {"yellow"}
    timeline = host_timeline(rig.host, display_id)
    wait_until(
        lambda: in_step(items, timeline, page.evaluate(SAMPLE), centre(screenshot(page))),
        3,
        0.05,
        "the video in step",
    )

    # another source whose image comes late: the video's frame stays until it is there
    looks.clear()
    rig.host.ok("PUT", f"/displays/{display_id}/switch", params={"destinationSourceId": rig.switch})
    switched = time.monotonic()
    while SWITCH not in released or time.monotonic() - switched < delay_s + 1:
        look()
    names = [name for _, name, _ in looks]
    assert "black" not in names and not any(n.startswith("o") for n in names), names
    assert names[0] in ("yellow", "magenta") and names[-1] == SWITCH, names
    assert page.locator("video").count() == 0, "the source before is gone once the new one shows"
    assert not rig.errors[seat], rig.errors[seat]


# --- prefetch.js in Chromium -------------------------------------------------------------

PLAN = """async () => {
  const { plan } = await import('/receiver/prefetch.js');
  const MB = 1024 * 1024;
  const e = (url, mb, usedAt) => ({ url: '/media/' + url, bytes: mb * MB, usedAt });
  const p = (...names) => names.map((n) => '/media/' + n);
  return {
    under: plan([e('a', 1, 1), e('b', 1, 2)], [], 3 * MB),
    lru: plan([e('a', 2, 30), e('b', 2, 10), e('c', 2, 20), e('p', 2, 0)], p('p'), 5 * MB),
    incoming: plan([e('a', 1, 5), e('b', 1, 1), e('p', 2, 0)], p('p'), 4 * MB, 1 * MB),
    tooBig: plan([e('p', 4, 0), e('q', 1, 0)], p('p'), 5 * MB, 2 * MB),
    pinnedOver: plan([e('p', 6, 0), e('q', 1, 0)], new Set(p('p')), 5 * MB),
    ties: plan([e('s', 1, 7), e('l', 3, 7), e('m', 2, 9)], [], 4 * MB),
  };
}"""


def session(rig: Rig) -> str:
    """A live session of the host's own client (media go to sessions and locked stations)."""
    rig.host.ok("GET", "/network")  # logs in again after a restart
    assert rig.host.api.session
    return str(rig.host.api.session)


def unit_page(rig: Rig) -> Any:
    context = rig.browser.new_context()
    context.add_cookies([{"name": SESSION_COOKIE, "value": session(rig), "url": rig.host.url}])
    page = context.new_page()
    page.goto(f"{rig.host.url}/receiver/screen.css")  # any page of the origin, no receiver
    return page


def test_budget_and_eviction_rule(rig: Rig) -> None:
    page = unit_page(rig)
    got = page.evaluate(PLAN)
    m = "/media/"
    assert got["under"] == {"evict": [], "fits": True}
    # least recently used first, never a pinned one, only as many as needed
    assert got["lru"] == {"evict": [m + "b", m + "c"], "fits": True}
    assert got["incoming"] == {"evict": [m + "b"], "fits": True}
    # what cannot fit beside the pinned files evicts nothing
    assert got["tooBig"] == {"evict": [], "fits": False}
    # pinned files over the budget: every unpinned one goes, the pinned ones stay
    assert got["pinnedOver"] == {"evict": [m + "q"], "fits": False}
    # equally old: the larger goes first
    assert got["ties"] == {"evict": [m + "l"], "fits": True}
    page.context.close()


MEDIA_URLS = """async () => {
  const { mediaUrls } = await import('/receiver/prefetch.js');
  const item = (name) => ({ name, url: '/media/' + name, kind: 'image', durationMs: 1000 });
  const timeline = { state: 'playing', anchorMs: 0, anchorPositionMs: 0, repeat: true };
  const signage = { type: 'signage', items: ['a', 'b', 'c', 'a'].map(item) };
  const layout = { type: 'layout', windows: [
    { source: { type: 'stream', url: '/media/s.mp4' } },
    { source: { type: 'stream', url: 'https://elsewhere.example/live.m3u8' } },
    { source: { type: 'web', url: '/media/page.html' } },
    { source: { type: 'signage', items: [item('z'), item('a%20b')] } },
  ] };
  return {
    fromNow: mediaUrls({ content: { timeline, source: signage } }, 1500),
    layout: mediaUrls({ content: { timeline, source: layout } }, 0),
    welcome: mediaUrls({ content: { welcome: true, timeline, source: signage } }, 0),
    pairing: mediaUrls({ role: 'pairing', content: null }, 0),
  };
}"""


def test_what_is_fetched_ahead(rig: Rig) -> None:
    page = unit_page(rig)
    got = page.evaluate(MEDIA_URLS)
    # in the order they will play, from the item playing now; each file once
    assert got["fromNow"] == ["/media/b", "/media/c", "/media/a"]
    # streams of this origin's media too; other origins and web pages not
    assert got["layout"] == ["/media/s.mp4", "/media/z", "/media/a%20b"]
    assert got["welcome"] == [] and got["pairing"] == []
    page.context.close()


STORE = """async ([budgetMB, steps]) => {
  const { mediaStore } = await import('/receiver/prefetch.js');
  const store = mediaStore({ owner: 'unit', budgetMB, memory: true });
  const timeline = { state: 'playing', anchorMs: 0, anchorPositionMs: 0, repeat: true };
  const describe = (names) => ({ content: { timeline, source: { type: 'signage',
    items: names.map((name) => ({ name, url: '/media/' + name, kind: 'image', durationMs: 1000 })) } } });
  const settled = async () => {
    await new Promise((r) => setTimeout(r, 5));
    while (store.status().busy) await new Promise((r) => setTimeout(r, 10));
  };
  const out = [];
  for (const names of steps) {
    store.want(describe(names), 0);
    await settled();
    const s = store.status();
    out.push({ kept: s.entries.map((e) => e.url).sort(), skipped: s.skipped, used: s.usedBytes,
               src: await store.src('/media/' + names[0]) });
  }
  return out;
}"""


def test_the_store_keeps_the_budget(rig: Rig) -> None:
    """prefetch.js's store against the live host: what it keeps, evicts and skips."""
    red, green, blue, video = (rig.sizes[n] for n in FILES)
    page = unit_page(rig)
    budget = green + video + blue + red // 2  # red, green and the video fit; adding blue does not
    got = page.evaluate(
        STORE,
        [
            budget / 1024 / 1024,
            [
                ["a-red.png", "b-green.png", "d-video.mp4"],
                ["b-green.png"],  # green used again: red and the video are older
                ["c-blue.png"],  # room for blue: red goes, the least recently used
            ],
        ],
    )
    m = "/media/"
    assert got[0]["kept"] == [m + "a-red.png", m + "b-green.png", m + "d-video.mp4"]
    assert got[0]["used"] == red + green + video
    assert got[1]["kept"] == got[0]["kept"]
    assert got[2]["kept"] == [m + "b-green.png", m + "c-blue.png", m + "d-video.mp4"]
    assert got[2]["used"] <= budget
    for step in got:
        assert step["src"].startswith("blob:"), "kept copies play from the page's memory"

    # pinned files over the budget: the video (second to play) is not kept, the rest is
    got = page.evaluate(STORE, [(red + blue + video // 2) / 1024 / 1024, [FILES]])
    assert got[0]["kept"] == [m + "a-red.png", m + "b-green.png", m + "c-blue.png"]
    assert got[0]["skipped"] == [m + "d-video.mp4"]
    page.context.close()


REVALIDATE = """async ([path, checkedAt]) => {
  const { mediaStore } = await import('/receiver/prefetch.js');
  window.swapStore = window.swapStore || mediaStore({ owner: 'swap', memory: true });
  const store = window.swapStore;
  const timeline = { state: 'playing', anchorMs: 0, anchorPositionMs: 0, repeat: true };
  const item = { name: path, url: path, kind: 'image', durationMs: 1000 };
  if (checkedAt != null) store.index.get(path).checkedAt = checkedAt; // as if checked long ago
  store.want({ content: { timeline, source: { type: 'signage', items: [item] } } }, 0);
  await new Promise((r) => setTimeout(r, 5));
  while (store.status().busy) await new Promise((r) => setTimeout(r, 10));
  const img = new Image();
  img.src = await store.src(path); // the kept copy, through an object URL
  await img.decode();
  return { bytes: store.status().entries[0].bytes, size: (await store.backend.blob(path)).size,
           blob: img.src.startsWith('blob:'), width: img.naturalWidth };
}"""


def test_a_replaced_file_replaces_its_copy(rig: Rig, tmp_path: Path) -> None:
    """Kept copies are checked with the host by ETag: unchanged, a 304 and nothing
    fetched; replaced under the same name, the new file replaces the copy."""
    path = tmp_path / "g-swap.png"
    Image.new("RGB", (160, 90), RED).save(path)
    rig.host.upload("g-swap.png", path)
    first = path.stat().st_size
    page = unit_page(rig)
    statuses: list[int] = []

    def answered(response: Any) -> None:
        if response.url.endswith("/g-swap.png"):
            statuses.append(response.status)

    page.on("response", answered)
    kept = {"bytes": first, "size": first, "blob": True, "width": 160}
    assert page.evaluate(REVALIDATE, ["/media/g-swap.png", None]) == kept
    # checked a while ago: the host says unchanged
    assert page.evaluate(REVALIDATE, ["/media/g-swap.png", 0]) == kept
    # checked recently: not asked again
    assert page.evaluate(REVALIDATE, ["/media/g-swap.png", None])["bytes"] == first
    assert statuses == [200, 304]
    Image.new("RGB", (320, 180), GREEN).save(path)
    rig.host.upload("g-swap.png", path)
    second = path.stat().st_size
    assert second != first
    replaced = {"bytes": second, "size": second, "blob": True, "width": 320}
    assert page.evaluate(REVALIDATE, ["/media/g-swap.png", 0]) == replaced
    assert statuses == [200, 304, 200]
    page.context.close()


def test_media_carry_an_etag(rig: Rig) -> None:
    url = f"{rig.host.url}/media/a-red.png"
    cookies = {SESSION_COOKIE: session(rig)}
    first = httpx.get(url, cookies=cookies)
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('"')
    assert first.headers["last-modified"].endswith("GMT")
    again = httpx.get(url, headers={"if-none-match": etag}, cookies=cookies)
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    other = httpx.get(url, headers={"if-none-match": '"other"'}, cookies=cookies)
    assert other.status_code == 200
    ranged = httpx.get(url, headers={"range": "bytes=0-9"}, cookies=cookies)
    assert ranged.status_code == 206 and ranged.headers["etag"] == etag
