"""The console's Schedule and Play log screens in a real headless Chromium, against a
host serving the demo topology."""

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CONSOLE_ARGS, CONSOLE_VIEWPORT, chromium, console_login
from tests.support.server import ServerProcess, running

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``tilewall serve --demo`` on a fresh data directory."""
    yield from running(tmp_path_factory, "console-schedule", demo=True)


@pytest.fixture(scope="module")
def context(host: ServerProcess) -> Iterator[Any]:
    for browser in chromium(CONSOLE_ARGS):
        ctx = browser.new_context(viewport=CONSOLE_VIEWPORT, accept_downloads=True)
        page = ctx.new_page()
        console_login(page, host.url, "#/schedule")
        page.close()
        yield ctx
        ctx.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.set_default_timeout(8000)
    yield p
    p.close()
    assert not errors, errors


def open_form(page: Any, host: ServerProcess) -> Any:
    page.goto(f"{host.url}/#/schedule")
    page.get_by_role("button", name="New event").click()
    return page.locator("form.event-form")


def field_error(form: Any, control: str) -> str:
    return str(form.locator(f".field:has([name={control}]) .field-error").inner_text())


def test_an_event_made_in_the_form_shows_in_the_week_and_the_list(
    page: Any, host: ServerProcess
) -> None:
    zone = host.ok("GET", "/zones")["zones"][0]
    form = open_form(page, host)
    form.locator("input[name=name]").fill("Weekday slides")
    form.locator("input[name=start]").fill("2026-03-02T09:00:00")
    form.locator("select[name=ends]").select_option("duration")
    form.locator("input[name=durationMinutes]").fill("90")
    form.locator("select[name=repeat]").select_option("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    form.locator("select[name=targetKind]").select_option("zone")
    form.locator("select[name=target]").select_option(zone["zoneId"])
    form.locator("select[name=source]").select_option(label="Welcome Slides")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("form.event-form", state="detached")

    events = host.ok("GET", "/schedule")["events"]
    made = next(e for e in events if e["name"] == "Weekday slides")
    assert made["durationSeconds"] == 5400
    assert made["recurrence"] == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
    assert made["action"]["zoneId"] == zone["zoneId"]
    # the week shown is this week: its weekdays, in the zone's row
    selector = f'.week tr[data-target="zone:{zone["zoneId"]}"] .occurrence'
    count = f"() => document.querySelectorAll('{selector}').length === 5"
    page.wait_for_function(count)
    row = page.locator(f'.week tr[data-target="zone:{zone["zoneId"]}"]')
    assert "09:00–10:30" in row.locator(".occurrence").first.inner_text()
    assert (
        page.locator(f'tr[data-event-id="{made["id"]}"]').inner_text().count("every weekday") == 1
    )
    page.get_by_role("button", name="Next week").click()
    page.wait_for_function(
        "() => !!document.querySelector('#week-title')?.textContent.includes('Week of')"
    )
    assert row.locator(".occurrence").count() == 5

    # edit it from its occurrence
    row.locator(".occurrence").first.click()
    form = page.locator("form.event-form")
    form.locator("input[name=name]").fill("Weekday slides, later")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("form.event-form", state="detached")
    page.wait_for_selector(f'tr[data-event-id="{made["id"]}"] >> text=Weekday slides, later')
    assert host.ok("GET", f"/schedule/{made['id']}")["name"] == "Weekday slides, later"


def test_the_form_checks_as_the_host_does_and_shows_the_hosts_message(
    page: Any, host: ServerProcess
) -> None:
    form = open_form(page, host)
    form.locator("input[name=name]").fill("Bad")
    form.locator("input[name=start]").fill("2026-03-02T09:00:00")
    form.locator("select[name=ends]").select_option("end")
    form.locator("input[name=end]").fill("2026-03-02T08:00:00")
    form.locator("select[name=target]").select_option(index=1)
    form.locator("select[name=source]").select_option(index=1)
    form.locator("button[type=submit]").click()
    assert field_error(form, "end") == "end: must be after start"
    # a rule only the host can judge: its 400 message appears beside the rule
    form.locator("select[name=ends]").select_option("none")
    form.locator("select[name=repeat]").select_option("custom")
    form.locator("input[name=recurrence]").fill("FREQ=FORTNIGHTLY")
    form.locator("button[type=submit]").click()
    page.wait_for_function(
        "() => document.querySelector('.field:has([name=recurrence]) .field-error')?.textContent"
    )
    message = field_error(form, "recurrence")
    assert message.startswith("recurrence:") and "FORTNIGHTLY" in message
    assert form.locator("input[name=recurrence]").get_attribute("aria-invalid") == "true"
    assert all(e["name"] != "Bad" for e in host.ok("GET", "/schedule")["events"])


def test_the_play_log_shows_what_played_with_filters_and_a_csv(
    page: Any, host: ServerProcess
) -> None:
    shown = host.ok("GET", "/displays")["displays"][0]
    display = shown["displayId"]
    sources = host.ok("GET", "/sources")["sources"]
    source = next(s for s in sources if s["sourceId"] != shown["playingSourceId"])
    # a switch through the console's own interface calls, then a preset recalled
    page.goto(f"{host.url}/#/presets")
    page.evaluate(
        """async ([display, source]) => {
            const { put } = await import('/js/api.js');
            await put(`/displays/${display}/switch`, undefined, { query: { destinationSourceId: source } });
        }""",
        [display, source["sourceId"]],
    )
    page.get_by_role("button", name="Recall preset Demo Start").click()
    page.wait_for_selector("text=Recalled Demo Start")
    page.goto(f"{host.url}/#/playlog")
    page.locator("select[name=displayId]").select_option(str(display))
    page.get_by_role("button", name="Show").click()
    page.wait_for_selector("table[aria-label=Plays] tbody tr")
    newest = page.locator("table[aria-label=Plays] tbody tr")
    # what the host logged, to say why if the page shows otherwise
    logged = host.ok("GET", "/playlog", params={"displayId": display})
    logged = [(e["trigger"], e["sourceName"], e["start"], e["end"]) for e in logged["entries"]]
    assert newest.nth(0).get_attribute("data-trigger") == "preset", logged
    assert "Demo Start" in newest.nth(0).inner_text()
    assert newest.nth(1).get_attribute("data-trigger") == "console", logged
    assert source["sourceName"] in newest.nth(1).inner_text()
    with page.expect_download() as caught:
        page.get_by_role("link", name="Download CSV").click()
    download = caught.value
    assert download.suggested_filename == "playlog.csv"
    rows = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert rows and {r["displayId"] for r in rows} == {str(display)}
    assert [r["trigger"] for r in rows[-2:]] == ["console", "preset"]
    assert rows[-2]["sourceName"] == source["sourceName"] and rows[-1]["cause"] == "Demo Start"
