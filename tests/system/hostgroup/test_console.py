"""The console of a group: the settings screen shows the group (members, which is
active and since when, the last takeover), and a standby's console says it is one."""

import pytest

from tests.support.browser import CHROMIUM, CONSOLE_ARGS, console_login, needs_chromium
from tests.support.cluster import Cluster


@pytest.mark.browser
@pytest.mark.timeout(180)
@needs_chromium
def test_the_console_shows_the_group_and_says_when_its_host_is_a_standby(
    cluster: Cluster,
) -> None:
    from playwright.sync_api import sync_playwright

    active, standby = cluster.start("active", "standby")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CONSOLE_ARGS)
        try:
            page = browser.new_page()
            console_login(page, standby.address, "#/settings")
            banner = page.locator("#standby-banner")
            banner.wait_for(state="visible", timeout=10_000)
            assert "This host is a standby of its group" in banner.inner_text()
            assert banner.locator("a").get_attribute("href") == f"{active.address}/"

            card = page.locator("section.card", has_text="Group of hosts")
            card.locator("table").wait_for(timeout=10_000)
            text = card.inner_text()
            assert "This host is a standby of the group" in text
            assert f"{standby.address} (this host)" in text
            assert active.address in text and "Active since" in text
            rows = card.locator("tbody tr")
            assert rows.count() == 2
            assert "active" in rows.nth(0).inner_text()

            # the active host's console has no banner, and shows the takeover after one
            other = browser.new_page()
            console_login(other, active.address, "#/settings")
            other.locator("section.card", has_text="Group of hosts").locator("table").wait_for()
            assert other.locator("#standby-banner").is_hidden()
            active.kill()
            assert cluster.active() is standby
            page.reload()
            card = page.locator("section.card", has_text="Group of hosts")
            card.locator("table").wait_for(timeout=10_000)
            page.wait_for_function(
                "() => !document.querySelector('#standby-banner') ||"
                " document.querySelector('#standby-banner').hidden",
                timeout=10_000,
            )
            text = card.inner_text()
            assert "This host is the active host" in text
            assert f"took over from {active.address}" in text
        finally:
            browser.close()
