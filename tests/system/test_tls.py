"""HTTPS end to end: ``tilewall serve --tls self-signed`` makes and keeps a certificate
for the machine, prints its fingerprints, and serves the interface, the console, media
and the receivers' WebSocket (wss://) over TLS on one port; clients trust it by its file
(httpx with the CA file) or by its public key (Chromium's SPKI list). An operator's own
certificate and key are taken from options or the environment."""

import os
import re
import shutil
import time
from pathlib import Path

import httpx
import pytest
from cryptography import x509

from tests.support.media import png_bytes
from tests.support.serving import ADMIN, PASSWORD, Served, logged_in
from tilewall import tls

CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
CSP_PROBE = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_self_signed_certificate_is_made_once_kept_and_trusted_by_its_file(tmp_path) -> None:
    data_dir = tmp_path / "data"
    with Served(data_dir, "--tls", "self-signed") as served:
        cert = data_dir / "tls" / "self-signed.crt"
        key = data_dir / "tls" / "self-signed.key"
        assert oct(key.stat().st_mode & 0o777) == "0o600"
        printed = served.output()
        assert f"fingerprint: {tls.fingerprint(cert)}" in printed
        assert tls.spki_hash(cert) in printed and "(made)" in printed
        san = x509.load_pem_x509_certificate(cert.read_bytes()).extensions.get_extension_for_class(
            x509.SubjectAlternativeName
        )
        assert "localhost" in san.value.get_values_for_type(x509.DNSName)
        addresses = {str(a) for a in san.value.get_values_for_type(x509.IPAddress)}
        assert {"127.0.0.1", "::1"} <= addresses
        # trusted by its file: the interface, with a Secure session cookie
        with httpx.Client(base_url=served.base, verify=str(cert), timeout=15) as client:
            login = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
            assert login.status_code == 200
            cookie = login.headers["set-cookie"]
            assert "Secure" in cookie and "HttpOnly" in cookie
            client.cookies.set("JSESSIONID", login.json()["session"]["value"])
            assert client.get("/system").status_code == 200
            assert client.put("/media/tls.png", content=png_bytes()).status_code == 200
            media = client.get(f"{served.origin}/media/tls.png")
            assert media.status_code == 200 and media.content[:4] == b"\x89PNG"
        # not trusted without it, and no plain HTTP on the port
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.get(f"{served.base}/system", timeout=5)
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{served.port}/api/system", timeout=5)
        first = tls.fingerprint(cert)
    # a restart keeps the same certificate
    with Served(data_dir, "--tls", "self-signed") as again:
        assert "(kept)" in again.output()
        assert tls.fingerprint(cert) == first


def test_an_operators_certificate_from_the_environment(tmp_path) -> None:
    files, _ = tls.self_signed(tmp_path / "issuer")
    env = {"TILEWALL_TLS_CERT": str(files.cert), "TILEWALL_TLS_KEY": str(files.key)}
    served = Served(tmp_path / "data", env=env)
    served.scheme = "https"
    with served:
        assert (tmp_path / "data" / "tls").exists() is False
        client = logged_in(served.base, verify=str(files.cert))
        assert client.get("/system").status_code == 200
        client.close()


def test_a_key_that_does_not_match_stops_the_host_with_a_message(tmp_path) -> None:
    one, _ = tls.self_signed(tmp_path / "one")
    two, _ = tls.self_signed(tmp_path / "two")
    served = Served(tmp_path / "data", "--tls-cert", str(one.cert), "--tls-key", str(two.key))
    with pytest.raises(RuntimeError, match="cannot be used together"):
        served.start(timeout=20)
    assert served.proc is not None and served.proc.returncode == 2


@pytest.mark.browser
@pytest.mark.timeout(180)
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
def test_chromium_receiver_over_wss_and_console_over_https(tmp_path) -> None:
    from playwright.sync_api import sync_playwright

    data_dir = tmp_path / "data"
    with Served(data_dir, "--tls", "self-signed") as served:
        cert = data_dir / "tls" / "self-signed.crt"
        spki = re.search(r"SPKI, base64\): (\S+)", served.output())
        assert spki is not None and spki.group(1) == tls.spki_hash(cert)
        client = logged_in(served.base, verify=str(cert))
        client.put(
            "/media/green.png", content=png_bytes((20, 200, 40), (64, 36))
        ).raise_for_status()
        source = client.post(
            "/sources",
            json={
                "sourceName": "Green",
                "sourceType": "Signage Player",
                "params": [
                    {
                        "type": "FILE_DIR_SELECT",
                        "paramName": "Media",
                        "paramValue": '[{"type": "file", "name": "green.png", "value": "green.png"}]',
                    }
                ],
            },
        ).json()
        with sync_playwright() as playwright:
            # without the certificate's key in its list, Chromium refuses the host
            untrusting = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            try:
                with pytest.raises(Exception, match="ERR_CERT"):
                    untrusting.new_page().goto(f"{served.origin}/receiver/")
            finally:
                untrusting.close()
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                args=[*ARGS, f"--ignore-certificate-errors-spki-list={spki.group(1)}"],
            )
            try:
                page = browser.new_page()
                page.add_init_script(CSP_PROBE)
                errors: list[str] = []
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(f"{served.origin}/receiver/?seat=tls-seat")
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    seats = {s["seatId"] for s in client.get("/network").json()["network"]}
                    if "tls-seat" in seats:
                        break
                    time.sleep(0.3)
                else:
                    raise AssertionError(f"the receiver never connected: {errors}")
                lock = client.put("/network/tls-seat/lock")
                assert lock.status_code == 200, lock.text
                display = lock.json()["displayId"]
                client.put(
                    f"/displays/{display}/switch",
                    params={"destinationSourceId": source["sourceId"]},
                ).raise_for_status()
                page.wait_for_function(
                    "() => { const i = document.querySelector('img.media.shown');"
                    " return i && i.complete && i.naturalWidth > 0; }",
                    timeout=20_000,
                )
                assert page.evaluate("location.protocol") == "https:"
                assert page.evaluate("window.__csp") == []
                # the console: log in over HTTPS (the Secure cookie) and see the overview
                console = browser.new_page()
                console.add_init_script(CSP_PROBE)
                console.goto(f"{served.origin}/#/overview")
                console.wait_for_selector("#login-title")
                console.fill("input[name=user]", ADMIN)
                console.fill("input[name=password]", PASSWORD)
                console.click("form.login button[type=submit]")
                console.wait_for_function("() => location.hash.startsWith('#/overview')")
                console.goto(f"{served.origin}/#/media")
                console.wait_for_selector(".media-item[data-name='green.png']", timeout=15_000)
                assert console.evaluate("window.__csp") == []
                assert not [e for e in errors if "Content Security Policy" in e], errors
            finally:
                browser.close()
        client.close()


def test_granian_serves_https_as_well(tmp_path) -> None:
    data_dir = tmp_path / "data"
    with Served(data_dir, "--tls", "self-signed", "--server", "granian") as served:
        cert = data_dir / "tls" / "self-signed.crt"
        with httpx.Client(base_url=served.base, verify=str(cert), timeout=15) as client:
            login = client.post("/session", json={"user": ADMIN, "password": PASSWORD})
            assert login.status_code == 200
            assert "Secure" in login.headers["set-cookie"]
            client.cookies.set("JSESSIONID", login.json()["session"]["value"])
            assert client.get("/system").status_code == 200
