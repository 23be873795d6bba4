"""The operator console, driven in headless Chromium the way an operator uses it."""

import pytest

from tests.support.browser import CONSOLE_VIEWPORT, console_login, shot
from tests.support.http import ADMIN, PASSWORD
from tests.support.media import png_bytes
from tests.support.topology import source_id, zone_named
from tests.support.waiting import wait_until

pytestmark = pytest.mark.browser


def test_login_sends_back_where_the_operator_was(browser, host_url):
    context = browser.new_context(viewport=CONSOLE_VIEWPORT)
    page = context.new_page()
    try:
        page.goto(f"{host_url}/#/presets")
        page.wait_for_selector("#login-title")
        assert page.is_hidden("#topbar")
        page.fill("input[name=user]", ADMIN)
        page.fill("input[name=password]", "not the password")
        page.click("form.login button[type=submit]")
        alert = page.wait_for_selector("form.login [role=alert]:not([hidden])")
        assert "password" in alert.inner_text()
        assert "{" not in alert.inner_text()
        shot(page, "login")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button[type=submit]")
        page.wait_for_function("location.hash === '#/presets'")
        page.wait_for_selector("text=Demo Start")
        # logging out shows the login page again
        page.click("#logout")
        page.wait_for_selector("#login-title")
    finally:
        context.close()


def test_overview_switches_a_zone_and_follows_changes_elsewhere(page, host_url, api):
    page.goto(f"{host_url}/#/overview")
    page.wait_for_selector(".wall-canvas .tile")
    assert page.locator(".wall-canvas .tile").count() == 4
    assert page.locator(".display-row .tile").count() >= 2

    # choose from the list
    page.get_by_role("button", name="Lobby Bottom", exact=True).click()
    panel = page.locator("aside.panel")
    panel.locator("h2", has_text="Lobby Bottom").wait_for()
    clip = source_id(api, "Demo Clip")
    panel.locator("select[name=source]").select_option(clip)
    panel.get_by_role("button", name="Switch", exact=True).click()
    wait_until(lambda: zone_named(api, "Lobby Bottom")["playingSourceId"] == clip)
    panel.locator(".now", has_text="Demo Clip").wait_for()
    shot(page, "overview-control")

    # drag a source onto a zone
    project = source_id(api, "Project Page")
    page.drag_and_drop(f".source-chip[data-source-id='{project}']", ".chip:text('Lobby Top')")
    wait_until(lambda: zone_named(api, "Lobby Top")["playingSourceId"] == project)

    # pause and resume from the panel
    panel.get_by_role("button", name="❚❚ Pause").click()
    wait_until(lambda: zone_named(api, "Lobby Bottom")["isPlaying"] is False)
    panel.get_by_role("button", name="▶ Resume").click()
    wait_until(lambda: zone_named(api, "Lobby Bottom")["isPlaying"] is True)

    # by keyboard: a tile is a button; Enter selects its zone
    page.locator(".wall-canvas .tile[data-display-id='1']").focus()
    page.keyboard.press("Enter")
    panel.locator("h2", has_text="Lobby Top").wait_for()

    # a video list from the media library
    panel.get_by_role("button", name="Play a video list…").click()
    dialog = page.locator("dialog")
    dialog.locator("label.check", has_text="demo/bars.png").locator("input").check()
    dialog.get_by_role("button", name="Play", exact=True).click()
    dialog.wait_for(state="detached")
    top = zone_named(api, "Lobby Top")
    info = api.get(f"/zones/{top['zoneId']}/mediainfo").json()
    assert info["filename"] == "demo/bars.png"
    panel.locator(".now", has_text="Video list").wait_for()

    # a change made by another client shows by itself (the console's events), no reload
    slides = source_id(api, "Welcome Slides")
    group = api.get("/mirrorgroups").json()["mirrorgroups"][0]
    r = api.put(f"/mirrorgroups/{group['id']}/play", json={"sourceId": slides})
    assert r.status_code == 200, r.text
    page.locator(".display-row .tile .tile-caption", has_text="Welcome Slides").first.wait_for()
    shot(page, "overview")


def test_save_recall_and_delete_a_preset(page, host_url, api):
    page.goto(f"{host_url}/#/presets")
    slides = source_id(api, "Welcome Slides")
    r = api.put("/zones/byname/Lobby Top/switch", params={"destinationSourceId": slides})
    assert r.status_code == 200, r.text
    page.fill("input[name=presetName]", "Console Test")
    page.get_by_role("button", name="Save current state").click()
    row = page.locator("li", has=page.locator(".preset-name", has_text="Console Test"))
    row.wait_for()
    assert any(p["name"] == "Console Test" for p in api.get("/presets").json()["presets"])

    web = source_id(api, "Project Page")
    api.put("/zones/byname/Lobby Top/switch", params={"destinationSourceId": web})
    assert zone_named(api, "Lobby Top")["playingSourceId"] == web
    row.get_by_role("button", name="Recall preset Console Test").click()
    wait_until(lambda: zone_named(api, "Lobby Top")["playingSourceId"] == slides)
    shot(page, "presets")

    row.get_by_role("button", name="Delete preset Console Test").click()
    page.locator("dialog").get_by_role("button", name="Delete").click()
    row.wait_for(state="detached")
    assert not any(p["name"] == "Console Test" for p in api.get("/presets").json()["presets"])


def test_upload_a_media_file(page, host_url, api):
    page.goto(f"{host_url}/#/media")
    page.wait_for_selector(".media-item")
    page.fill("input[name=folder]", "console")
    page.set_input_files(
        "input[type=file]",
        files=[{"name": "swatch.png", "mimeType": "image/png", "buffer": png_bytes()}],
    )
    page.wait_for_selector(".media-item[data-name='console/swatch.png']")
    names = [f["name"] for f in api.get("/media").json()["files"]]
    assert "console/swatch.png" in names
    shot(page, "media")
    # preview opens a dialog with the image
    page.get_by_role("button", name="Preview console/swatch.png").click()
    page.wait_for_selector("dialog img.preview-media")
    page.keyboard.press("Escape")


def test_create_a_source_from_its_form(page, host_url, api):
    page.goto(f"{host_url}/#/sources")
    page.get_by_role("button", name="+ New source").click()
    form = page.locator("form.source-form")
    form.wait_for()
    form.locator("select[name=sourceType]").select_option("Web Browser")
    form.locator("input[name=sourceName]").fill("Console Page")
    form.locator("input[name=URL]").fill("not a web address")
    form.get_by_role("button", name="Create source").click()
    # the host's validation message, next to the field it names
    message = form.locator(".field-error:not([hidden])").first
    message.wait_for()
    assert "URL" in message.inner_text()
    assert "{" not in form.locator(".error-box").inner_text()
    shot(page, "source-form-error")
    form.locator("input[name=URL]").fill("https://example.com/board")
    form.locator("input[name='Refresh Interval']").fill("60")
    form.get_by_role("button", name="Create source").click()
    page.locator("li[data-source-id] strong", has_text="Console Page").wait_for()
    created = [
        s for s in api.get("/sources").json()["sources"] if s["sourceName"] == "Console Page"
    ]
    assert len(created) == 1
    params = {p["paramName"]: p["paramValue"] for p in created[0]["params"]}
    assert params["URL"] == "https://example.com/board"
    assert params["Refresh Interval"] == "60"

    # a Signage Player from library files, ticked in order
    page.get_by_role("button", name="+ New source").click()
    form.locator("select[name=sourceType]").select_option("Signage Player")
    form.locator("input[name=sourceName]").fill("Console Slides")
    form.locator("label.check", has_text="demo/bars.png").locator("input").check()
    form.locator("label.check", has_text="demo/pattern.png").locator("input").check()
    shot(page, "source-form")
    form.get_by_role("button", name="Create source").click()
    page.locator("li[data-source-id] strong", has_text="Console Slides").wait_for()
    slides = [
        s for s in api.get("/sources").json()["sources"] if s["sourceName"] == "Console Slides"
    ]
    media = next(p["paramValue"] for p in slides[0]["params"] if p["paramName"] == "Media")
    assert media.index("demo/bars.png") < media.index("demo/pattern.png")


def test_lock_a_receiver_and_build_a_wall(page, host_url, api):
    # as a failed try (run again) may leave it: demo-7 locked, the wall made (a page that
    # showed it unlocked before its list came, then clicked "Lock", hit "Unlock")
    for wall in api.get("/videowalls").json()["videowalls"]:
        if wall["name"] == "Console Wall":
            assert api.delete(f"/videowalls/{wall['id']}").status_code == 200
    assert api.put("/network/demo-7/unlock").status_code == 200
    page.goto(f"{host_url}/#/receivers")
    page.get_by_role("button", name="Lock Demo 7").click()
    page.get_by_role("button", name="Unlock Demo 7").wait_for()
    shot(page, "receivers")
    seven = next(n for n in api.get("/network").json()["network"] if n["seatId"] == "demo-7")
    assert seven["status"] == "CONNECTED"
    display_id = seven["displayId"]

    page.goto(f"{host_url}/#/walls")
    page.get_by_role("button", name="+ New wall").click()
    page.fill("input[name=wallName]", "Console Wall")
    page.locator("select[name=addDisplay]").select_option(str(display_id))
    page.get_by_role("button", name="Add display").click()
    page.get_by_label(f"Rotation (degrees) of Demo 7 (#{display_id})").fill("90")
    monitor = page.locator(".editor-canvas .mon").first
    box = monitor.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 40, box["y"] + box["height"] / 2 + 10, steps=5)
    page.mouse.up()
    page.get_by_role("button", name="Create wall").click()
    page.get_by_role("heading", name="Wall “Console Wall”").wait_for()
    walls = api.get("/videowalls").json()["videowalls"]
    wall = next(w for w in walls if w["name"] == "Console Wall")
    assert [m["displayId"] for m in wall["monitors"]] == [display_id]
    geometry = wall["monitors"][0]["monitorGeometry"]
    assert geometry["rotationDegrees"] == 90
    assert geometry["centerX"] != 605  # moved by the drag

    # a zone on it
    page.fill("input[name=newZoneName]", "Console Zone")
    page.locator(".new-zone label.check", has_text=f"#{display_id}").locator("input").check()
    page.get_by_role("button", name="Create zone").click()
    page.locator("input[name=zoneName]").first.wait_for()
    zone = zone_named(api, "Console Zone")
    assert zone["videowallId"] == wall["id"]
    assert [d["displayId"] for d in zone["zoneDisplays"] if d["isSelected"]] == [display_id]
    shot(page, "walls", full_page=True)


def test_broadcast_an_alert(page, host_url, api):
    page.goto(f"{host_url}/#/alerts")
    page.fill("textarea[name=message]", "Fire drill at 11:00")
    page.locator("label.check", has_text="Warning (orange)").locator("input").check()
    page.fill("input[name=seconds]", "20")
    page.get_by_role("button", name="Broadcast alert").click()
    page.locator(".toast", has_text="Alert broadcast").wait_for()
    shot(page, "alerts")
    status = api.get("/system/broadcast").json()
    assert status["isDisplayed"] is True
    assert status["message"] == "Fire drill at 11:00"
    assert status["alertLevel"] == "ORANGE_LEVEL"
    assert 0 < status["remainingMillisec"] <= 20_000
    api.put("/system/broadcast/stop")


def test_settings_and_layouts_render_readably(page, host_url):
    page.goto(f"{host_url}/#/settings")
    page.get_by_role("heading", name="Diagnostics").wait_for()
    page.wait_for_function("!document.body.innerText.includes('Loading…')")
    text = page.inner_text("main")
    assert '{"status"' not in text and "<html" not in text.lower()
    shot(page, "settings", full_page=True)
    page.goto(f"{host_url}/#/layouts")
    page.get_by_role("heading", name="Control-room layouts").wait_for()
    page.wait_for_timeout(300)
    shot(page, "layouts")


def test_a_lost_session_goes_to_login_and_back(browser, host_url):
    context = browser.new_context(viewport=CONSOLE_VIEWPORT)
    page = context.new_page()
    try:
        console_login(page, host_url, "#/media")
        page.wait_for_selector(".media-item")
        context.clear_cookies()
        page.goto(f"{host_url}/#/sources")
        page.wait_for_selector("#login-title")
        assert "next=" in page.evaluate("location.hash")
        page.fill("input[name=password]", PASSWORD)
        page.click("form.login button[type=submit]")
        page.wait_for_function("location.hash === '#/sources'")
    finally:
        context.close()


SYSTEM = {
    "/api/system": {
        "hostName": "lobby-host",
        "ipAddress": "10.0.0.5",
        "licenseSystemId": "SYS-1234",
        "productVersion": "11.3",
        "productBuildData": "2026-01-01",
        "linuxDistro": "Debian",
        "linuxVersion": "12",
        "onboardStations": 0,
        "usbStations": 0,
        "networkStations": 7,
        "unknownStations": 0,
        "version": "1.9",
    },
    "/api/system/hostname": {"hostName": "lobby-host"},
    "/api/system/license": {
        "resellerName": "Wall Co",
        "numberOfStations": 10,
        "systemId": "SYS-1234",
        "licenseIssued": "2026-01-01",
        "licenseExpires": "2027-01-01",
        "supportExpires": "",
        "videoWallModule": "enabled",
        "fastVideoFeature": False,
        "sessionManagement": True,
    },
    "/api/system/timezone": {
        "currentTimeZone": {"timezone": "Europe/Berlin", "offset": 60},
        "availableTimeZones": ["Europe/Berlin", "Europe/Lisbon", "America/New_York"],
    },
    "/api/system/partneraccess": {"partnerAccess": False},
    "/api/system/receiverdeviceassignmentsettings": {"autoAssign": True, "autoInherit": False},
    "/api/system/diag": {
        "results": [
            {"id": "LICENSE", "success": True},
            {"id": "ROOT_FREE_DISK_SPACE", "success": False, "params": ["/", "3%"]},
            {"id": "NETWORK_DHCP", "success": True},
            {"id": "TOTAL_RAM", "success": False, "params": ["2 GB"]},
        ]
    },
    "/api/system/networkinterfaces": [
        {
            "id": "eth0",
            "deviceName": "Onboard Ethernet",
            "portStatus": "up",
            "linkSpeed": "1000 Mb/s",
            "usesDHCP": False,
            "leaseDuration": "",
            "ipAddress": "10.0.0.5",
            "subnetMask": "255.255.255.0",
            "defaultGateway": "10.0.0.1",
            "preferredDNSAddress": "10.0.0.1",
            "alternateDNSAddress": "",
            "runningDhcpd": False,
            "dhcpdStarting": False,
        }
    ],
    "/api/failover-group-network-settings": {
        "failoverInterface": "",
        "availableInterfaces": ["eth0"],
        "autoDiscoverPeer": True,
        "peerIP": "",
    },
    "/api/printprofiles": {
        "printProfiles": [
            {
                "isGlobal": False,
                "global": False,
                "queueName": "lobby",
                "print_dialog": True,
                "showDialog": True,
                "release_jobs": False,
                "autoReleaseJob": False,
                "show_text_entry": False,
                "showTextEntry": False,
            }
        ]
    },
    "/api/system/vpn": {"running": False},
    "/api/system/manifest": {"installedPackages": [{"name": "tilewall", "version": "0.1.0"}]},
}


def test_settings_against_a_host_that_offers_system_operations(page, host_url):
    """The /system operations are answered here as SPEC.md shapes them, so the cards,
    the diagnostics checklist and a change can be checked before the host has them."""
    import json
    from urllib.parse import urlsplit

    sent: list[tuple[str, str, object]] = []

    def answer(route):
        request = route.request
        path = urlsplit(request.url).path
        if request.method != "GET":
            body = request.post_data
            sent.append((request.method, path, json.loads(body) if body else None))
            route.fulfill(status=200, content_type="application/json", body='{"message": "ok"}')
        elif path in SYSTEM:
            route.fulfill(
                status=200, content_type="application/json", body=json.dumps(SYSTEM[path])
            )
        elif path.startswith("/api/failover-group"):
            route.fulfill(
                status=404,
                content_type="application/json",
                body='{"status": 404, "message": "this host is in no failover group"}',
            )
        else:
            route.continue_()

    page.route("**/api/system**", answer)
    page.route("**/api/failover-group**", answer)
    page.route("**/api/printprofiles**", answer)
    page.goto(f"{host_url}/#/settings")
    page.get_by_text("2 of 4 checks need attention.").wait_for()
    page.get_by_text("Enough free disk space").wait_for()
    page.get_by_text("This host is in no failover group.").wait_for()
    assert page.locator("input[name=hostName]").input_value() == "lobby-host"
    page.locator("select[name=timezone]").select_option("Europe/Lisbon")
    page.get_by_role("button", name="Set time zone").click()
    wait_until(
        lambda: ("PUT", "/api/system/timezone", {"timezone": "Europe/Lisbon"}) in sent, page=page
    )
    shot(page, "settings-offered", full_page=True)

    # reboot only after confirming
    page.get_by_role("button", name="Reboot the host").click()
    page.locator("dialog").get_by_role("button", name="Cancel").click()
    assert not any(p == "/api/system/reboot" for _, p, _ in sent)
    page.get_by_role("button", name="Reboot the host").click()
    page.locator("dialog").get_by_role("button", name="Reboot the host").click()
    wait_until(lambda: any(p == "/api/system/reboot" for _, p, _ in sent), page=page)


def test_a_desktops_password_is_typed_hidden_and_kept(page, host_url, api):
    page.goto(f"{host_url}/#/sources")
    page.get_by_role("button", name="+ New source").click()
    form = page.locator("form.source-form")
    form.wait_for()
    form.locator("select[name=sourceType]").select_option("Desktop Streamer (VNC)")
    form.locator("input[name=sourceName]").fill("Console Desktop")
    form.locator("input[name=Host]").fill("ops-pc.example.org")
    password = form.locator("input[name=Password]")
    assert password.get_attribute("type") == "password"
    password.fill("s3cret-pw")
    form.get_by_role("button", name="Create source").click()
    page.locator("li[data-source-id] strong", has_text="Console Desktop").wait_for()
    created = next(
        s for s in api.get("/sources").json()["sources"] if s["sourceName"] == "Console Desktop"
    )
    values = {p["paramName"]: p["paramValue"] for p in created["params"]}
    assert values["Host"] == "ops-pc.example.org" and values["Password"] == "***"
    assert "s3cret-pw" not in page.content()
    # edited and saved unchanged: the console sends back what it read, which keeps it
    page.click("button[aria-label='Edit Console Desktop']")
    form.locator("input[name=Password]").wait_for()
    assert form.locator("input[name=Password]").input_value() == "***"
    assert "Kept as it is" in form.inner_text()
    form.locator("input[name=Port]").fill("5901")
    with page.expect_request(lambda r: r.method == "PUT" and "/api/sources/" in r.url) as sent:
        form.get_by_role("button", name="Save").click()
    body = sent.value.post_data_json
    params = {p["paramName"]: p["paramValue"] for p in body["params"]}
    assert params["Password"] == "***" and params["Port"] == "5901"
