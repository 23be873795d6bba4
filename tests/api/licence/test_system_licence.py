"""The licence over HTTP: claim, raise, replace, remove, back up and restore; codes the
host refuses; and what a licence limits (stations at lock time, source types)."""

from datetime import date, timedelta

import pytest

from tests.support.app import app_client
from tests.support.app import run as call
from tests.support.licence import code
from tests.support.singletons import DeletableMixin
from tilewall.host.licence import codes


class TestLicence(DeletableMixin):
    """Claimed with a code signed by a key the host trusts."""

    path = "/system/license"
    absent = (404, ("licen",))

    @pytest.fixture(autouse=True)
    def trusted(self, signing_key):
        self.key = signing_key

    def valid_body(self, api):
        return {"activationCode": code(self.key, 8), "numberOfStations": 5}

    def shown(self, answer):
        return answer["numberOfStations"], answer["resellerName"]

    def expected(self, body):
        return 5, "AV Partners"

    def invalid_bodies(self, api):
        good = code(self.key)
        return [
            ({}, 400, ()),
            ({"activationCode": 5}, 400, ()),
            ({"activationCode": good, "numberOfStations": "x"}, 400, ()),
            ({"activationCode": good, "numberOfStations": -1}, 400, ()),
            ({"activationCode": "not a code", "numberOfStations": 1}, 400, ("TW1",)),
            ({"activationCode": "", "numberOfStations": 1}, 400, ("empty",)),
            ({"activationCode": code(self.key, 8), "numberOfStations": 9}, 400, ("8",)),
        ]


def system_id(api) -> str:
    return api.get("/system").json()["licenseSystemId"]


def test_no_licence_is_404_until_claimed(signing_key, api):
    for method, path in (
        ("GET", "/system/license"),
        ("DELETE", "/system/license"),
        ("GET", "/system/license/download"),
    ):
        r = api.request(method, path)
        assert r.status_code == 404, (path, r.text)
        assert "licen" in r.json()["message"]
    r = api.put(
        "/system/license", json={"activationCode": code(signing_key, 8), "numberOfStations": 5}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["numberOfStations"] == 5
    assert body["resellerName"] == "AV Partners"
    assert body["licenseExpires"] == "2099-12-31" and body["supportExpires"] == "2099-01-01"
    assert api.get("/system/license").json() == body


def test_claim_raise_replace_and_remove(signing_key, api):
    first = code(signing_key, 10, system_id=system_id(api))
    assert (
        api.put("/system/license", json={"activationCode": first, "numberOfStations": 4}).json()[
            "numberOfStations"
        ]
        == 4
    )
    # the same code again changes the count, up to what it allows
    raised = api.put("/system/license", json={"activationCode": first, "numberOfStations": 10})
    assert raised.status_code == 200 and raised.json()["numberOfStations"] == 10
    too_many = api.put("/system/license", json={"activationCode": first, "numberOfStations": 11})
    assert too_many.status_code == 400 and "10" in too_many.json()["message"]
    assert api.get("/system/license").json()["numberOfStations"] == 10
    # another code replaces it; no count takes all the code allows
    second = code(signing_key, 20, reseller="Other Reseller")
    replaced = api.put("/system/license", json={"activationCode": second})
    assert replaced.status_code == 200
    assert replaced.json()["resellerName"] == "Other Reseller"
    assert replaced.json()["numberOfStations"] == 20
    removed = api.delete("/system/license")
    assert removed.status_code == 200
    assert api.get("/system/license").status_code == 404


def test_refused_codes(signing_key, api):
    stranger = codes.generate_signing_key()
    cases = {
        "untrusted issuer": (code(stranger), 403, "not trust"),
        "expired": (
            code(signing_key, expires=(date.today() - timedelta(days=1)).isoformat()),
            403,
            "expired",
        ),
        "other system": (code(signing_key, system_id="someone-else"), 403, "system"),
    }
    good = code(signing_key)
    head, _, signature = good.split(".")
    # another issuer's terms under a trusted signature; then the same naming the trusted key
    forged_payload = codes.issue(stranger, codes.LicenceTerms("X", 999, "2025-01-01"))
    cases["forged"] = (f"{head}.{forged_payload.split('.')[1]}.{signature}", 403, "")
    cases["forged by the trusted key id"] = (
        _with_kid(forged_payload, codes.key_id(signing_key), signature),
        403,
        "signature",
    )
    cases["garbage"] = ("not a code", 400, "TW1")
    cases["damaged"] = (f"{head}.!!!.{signature}", 400, "")
    cases["empty"] = ("", 400, "empty")
    for label, (text, status, words) in cases.items():
        r = api.put("/system/license", json={"activationCode": text, "numberOfStations": 1})
        assert r.status_code == status, (label, r.text)
        assert words in r.json()["message"], (label, r.json())
    assert api.get("/system/license").status_code == 404
    bad_bodies = [{}, {"activationCode": 5}, {"activationCode": good, "numberOfStations": "x"}]
    for body in bad_bodies:
        r = api.put("/system/license", json=body)
        assert r.status_code == 400 and r.json()["message"], body
    r = api.put(
        "/system/license", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400
    assert (
        api.put(
            "/system/license", json={"activationCode": good, "numberOfStations": -1}
        ).status_code
        == 400
    )


def _with_kid(issued: str, kid: str, signature: str) -> str:
    """A payload that names the trusted key but was not signed by it."""
    import base64
    import json

    head, payload, _ = issued.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    body["kid"] = kid
    raw = json.dumps(body, separators=(",", ":")).encode()
    return f"{head}.{base64.urlsafe_b64encode(raw).rstrip(b'=').decode()}.{signature}"


def test_untrusted_without_any_key(api):
    """A host with no trusted keys accepts no code at all."""
    stranger = codes.generate_signing_key()
    r = api.put("/system/license", json={"activationCode": code(stranger)})
    assert r.status_code == 403


def test_download_is_a_backup_that_restores(signing_key, api):
    original = code(signing_key, 12)
    api.put("/system/license", json={"activationCode": original, "numberOfStations": 7})
    r = api.get("/system/license/download")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    assert "attachment" in r.headers["content-disposition"]
    text = r.text
    assert "# Licensed stations: 7" in text and "AV Partners" in text
    assert original in text.splitlines()
    api.delete("/system/license")
    restored = api.put("/system/license", json={"activationCode": text})
    assert restored.status_code == 200, restored.text
    assert restored.json()["numberOfStations"] == 7
    assert api.get("/system/license/download").text == text


def test_keys_from_the_data_directory(data_dir):
    key = codes.generate_signing_key()
    (data_dir / "trusted-keys").mkdir(parents=True)
    (data_dir / "trusted-keys" / "issuer.pub").write_text(codes.public_key_text(key) + "\n")
    with app_client(data_dir) as client:
        r = client.put("/system/license", json={"activationCode": code(key, 3)})
        assert r.status_code == 200, r.text


def test_station_limit_at_lock_time(signing_key, api, host):
    api.put("/system/license", json={"activationCode": code(signing_key, 2)})
    for n in range(3):
        call(api, host.stations.hello, f"seat-{n}", f"10.0.0.{n + 1}")
    assert api.put("/network/seat-0/lock").status_code == 200
    assert api.put("/network/10.0.0.2/lock").status_code == 200
    r = api.put("/network/seat-2/lock")
    assert r.status_code == 403, r.text
    assert "2 stations" in r.json()["message"]
    assert api.get("/network/seat-2").json()["status"] == "AVAILABLE"
    # fewer stations than are locked is refused, and the licence is unchanged
    smaller = api.put("/system/license", json={"activationCode": code(signing_key, 1)})
    assert smaller.status_code == 409, smaller.text
    assert api.get("/system/license").json()["numberOfStations"] == 2
    # unlocking frees a seat
    api.put("/network/seat-0/unlock")
    assert api.put("/network/seat-2/lock").status_code == 200


def test_source_type_not_licensed(signing_key, api):
    api.put(
        "/system/license", json={"activationCode": code(signing_key, source_types=["Web Browser"])}
    )
    assert api.get("/system/license").json()["allowedSourceTypes"] == ["Web Browser"]
    web = {
        "sourceName": "Intranet",
        "sourceType": "Web Browser",
        "params": [{"type": "URL", "paramName": "URL", "paramValue": "https://example.org"}],
    }
    created = api.post("/sources", json=web)
    assert created.status_code == 200, created.text
    stream = {
        "sourceName": "Cam",
        "sourceType": "Network Streamer",
        "params": [{"type": "URL", "paramName": "URL", "paramValue": "https://cam.example"}],
    }
    r = api.post("/sources", json=stream)
    assert r.status_code == 403, r.text
    assert "Network Streamer" in r.json()["message"]
    sid = created.json()["sourceId"]
    r = api.put(f"/sources/{sid}", json={**stream, "sourceName": "Intranet"})
    assert r.status_code == 403
    # without a licence every type is allowed again
    api.delete("/system/license")
    assert api.post("/sources", json=stream).status_code == 200
