"""The audit trail over HTTP: each kind of change leaves one entry with exactly who, what
and how (before and after of the fields it changed, never a secret); logins, failed
logins and logouts are recorded; a refused request (4xx) and a store that cannot write
leave none; the entries are chained by their hashes; ``GET /api/audit`` filters and
pages (keyset, newest first) and ``/api/audit.csv`` gives the same as CSV."""

import csv
import hashlib
import io
import itertools
import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.support.app import app_client, host_of, run, set_licence
from tests.support.http import ADMIN, PASSWORD, Api, error, login, ok, url
from tests.support.ports import FailingWrites
from tests.support.sources import RTSP, WEB, source_body
from tests.support.topology import locked_display
from tests.support.waiting import wait_until
from tilewall.host.clock import ManualClock

GENESIS = "0" * 64
DAY_MS = 24 * 3600 * 1000
ENTRY_FIELDS = {
    "id",
    "at",
    "user",
    "address",
    "session",
    "operation",
    "target",
    "changes",
    "outcome",
    "prev",
    "hash",
}


def audit(api: Api, **params: Any) -> dict[str, Any]:
    body: dict[str, Any] = ok(api.get("/audit", params=params))
    assert set(body) == {"entries", "next", "verified"}
    for entry in body["entries"]:
        assert set(entry) == ENTRY_FIELDS
    return body


def newest(api: Api) -> dict[str, Any]:
    entries: list[dict[str, Any]] = audit(api, limit=1)["entries"]
    return entries[0]


def last_id(api: Api) -> int:
    return int(newest(api)["id"])


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def session_handle(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:12]


def create(api: Api, name: str, page: str = "https://example.org/") -> dict[str, Any]:
    created: dict[str, Any] = ok(api.post("/sources", json=source_body(WEB, name, URL=page)))
    return created


def _params(page: str) -> list[dict[str, str]]:
    """A web page source's parameters as the host stores them."""
    return [
        {"paramName": "", "paramValue": "/docs/sources#web-browser", "type": "HELP"},
        {"paramName": "URL", "paramValue": page, "type": "URL"},
        {"paramName": "Refresh Interval", "paramValue": "0", "type": "NUMBER"},
    ]


def test_a_created_source_is_recorded_with_who_what_and_every_field(api: Api) -> None:
    created = create(api, "Lobby page")
    source_id = created["sourceId"]
    entry = newest(api)
    assert entry["user"] == ADMIN
    assert entry["address"] == "testclient"
    assert entry["session"] == session_handle(api.session or "")
    assert entry["operation"] == "POST /api/sources"
    assert entry["target"] == {"kind": "source", "id": source_id, "name": "Lobby page"}
    assert entry["outcome"] == "ok"
    assert entry["at"].endswith("Z")
    assert entry["changes"] == [
        {
            "kind": "source",
            "id": source_id,
            "name": "Lobby page",
            "created": {
                "id": {"before": None, "after": source_id},
                "name": {"before": None, "after": "Lobby page"},
                "params": {"before": None, "after": _params("https://example.org/")},
                "type": {"before": None, "after": WEB},
            },
        }
    ]


def test_an_update_records_only_the_fields_it_changed(api: Api) -> None:
    source_id = create(api, "Lobby page")["sourceId"]
    body = source_body(WEB, "Front desk", URL="https://example.org/")
    ok(api.put(url("sources", source_id), json=body))
    entry = newest(api)
    assert entry["operation"] == "PUT /api/sources/{sourceId}"
    assert entry["target"] == {"kind": "source", "id": source_id, "name": "Front desk"}
    assert entry["changes"] == [
        {
            "kind": "source",
            "id": source_id,
            "name": "Front desk",
            "changed": {"name": {"before": "Lobby page", "after": "Front desk"}},
        }
    ]


def test_a_deletion_records_what_was_there(api: Api) -> None:
    source_id = create(api, "Lobby page")["sourceId"]
    ok(api.delete(url("sources", source_id)))
    entry = newest(api)
    assert entry["operation"] == "DELETE /api/sources/{sourceId}"
    assert entry["changes"] == [
        {
            "kind": "source",
            "id": source_id,
            "name": "Lobby page",
            "deleted": {
                "id": {"before": source_id, "after": None},
                "name": {"before": "Lobby page", "after": None},
                "params": {"before": _params("https://example.org/"), "after": None},
                "type": {"before": WEB, "after": None},
            },
        }
    ]


def test_a_switch_records_the_display_timeline_before_and_after(api: Api) -> None:
    display = locked_display(api)
    source_id = create(api, "Lobby page")["sourceId"]
    ok(api.put(f"/displays/{display}/switch", params={"destinationSourceId": source_id}))
    entry = newest(api)
    assert entry["operation"] == "PUT /api/displays/{displayId}/switch"
    assert entry["target"]["kind"] == "display"
    assert entry["target"]["id"] == str(display)
    [change] = entry["changes"]
    timeline = change["changed"]["timeline"]
    assert timeline["before"]["assigned_source_id"] == ""
    assert timeline["after"]["assigned_source_id"] == source_id
    assert set(change["changed"]) == {"timeline"}


def test_a_setting_is_recorded_as_its_value(api: Api) -> None:
    ok(api.put("/playlog/settings", json={"retentionDays": 30}))
    entry = newest(api)
    assert entry["operation"] == "PUT /api/playlog/settings"
    assert entry["target"] == {"kind": "setting", "id": "playlog_retention_days", "name": ""}
    assert entry["changes"][0]["created"] == {"value": {"before": None, "after": 30}}


def test_secrets_are_recorded_as_changed_never_as_their_value(api: Api) -> None:
    set_licence(api, reseller_name="Acme", code="SECRET-LICENCE-CODE")
    entry = newest(api)
    assert entry["user"] == "host"  # the host's own doing: no request asked
    assert "SECRET-LICENCE-CODE" not in json.dumps(audit(api))
    [change] = entry["changes"]
    assert change["created"]["code"] == {"before": None, "after": "(redacted)"}
    assert change["created"]["reseller_name"] == {"before": None, "after": "Acme"}


def test_a_refused_request_leaves_no_entry(api: Api) -> None:
    before = last_id(api)
    error(api.post("/sources", json=source_body(WEB, "Bad", URL="ftp://nope")), 400)
    error(api.delete(url("sources", "no-such-source")), 404)
    error(api.put("/playlog/settings", json={"retentionDays": 0}), 400)
    assert last_id(api) == before


def test_a_store_that_cannot_write_leaves_no_entry(api: Api) -> None:
    host = host_of(api)
    before = last_id(api)
    failing = FailingWrites(host.core.store)
    host.core.store = failing
    failing.failing = True
    try:
        error(api.post("/sources", json=source_body(WEB, "Lost", URL="https://example.org/")), 503)
    finally:
        host.core.store = failing.real
    assert last_id(api) == before
    create(api, "Kept")
    assert newest(api)["id"] == before + 1


def test_logins_failed_logins_and_logouts_are_recorded(anon: Api) -> None:
    error(anon.post("/session", json={"user": ADMIN, "password": "wrong password"}), 401)
    token = login(anon)
    handle = session_handle(token)
    first_login = [e for e in audit(anon)["entries"] if e["operation"] == "POST /api/session"]
    refused, opened = first_login[1], first_login[0]
    assert refused["user"] == ADMIN and refused["address"] == "testclient"
    assert refused["outcome"] == "refused: invalid user name or password"
    assert refused["session"] == "" and refused["changes"] == []
    assert refused["target"] == {"kind": "user", "id": ADMIN, "name": ADMIN}
    assert opened["outcome"] == "ok" and opened["session"] == handle
    assert opened["target"] == {"kind": "session", "id": handle, "name": ADMIN}
    ok(anon.delete("/session"))
    login(anon)
    logged_out = audit(anon)["entries"][1]
    assert logged_out["operation"] == "DELETE /api/session"
    assert logged_out["session"] == handle and logged_out["user"] == ADMIN
    assert logged_out["target"] == {"kind": "session", "id": handle, "name": ADMIN}


def test_entries_chain_each_to_the_one_before(api: Api) -> None:
    for name in ("One", "Two", "Three"):
        create(api, name)
    body = audit(api, limit=1000)
    assert body["verified"] is True
    entries = list(reversed(body["entries"]))
    assert [e["id"] for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0]["prev"] == GENESIS
    for before, after in itertools.pairwise(entries):
        assert after["prev"] == before["hash"]
    assert len({e["hash"] for e in entries}) == len(entries)


def test_filters_and_pages_newest_first(api: Api) -> None:
    ids = [create(api, f"Page {n}")["sourceId"] for n in range(5)]
    created = audit(api, operation="POST /api/sources")
    assert [e["target"]["id"] for e in created["entries"]] == ids[::-1]
    assert created["next"] is None
    first = audit(api, operation="POST /api/sources", limit=2)
    assert [e["target"]["id"] for e in first["entries"]] == ids[:2:-1]
    second = audit(api, operation="POST /api/sources", limit=2, before=first["next"])
    assert [e["target"]["id"] for e in second["entries"]] == ids[2:0:-1]
    assert [e["id"] for e in audit(api, target=ids[1])["entries"]] == [second["entries"][1]["id"]]
    assert {e["user"] for e in audit(api, user=ADMIN)["entries"]} == {ADMIN}
    assert audit(api, user="nobody")["entries"] == []
    newest_at = newest(api)["at"]
    since = audit(api, since=newest_at)["entries"]
    assert since and all(instant(e["at"]) >= instant(newest_at) for e in since)
    until = audit(api, until=newest_at)["entries"]
    assert until and all(instant(e["at"]) < instant(newest_at) for e in until)
    error(api.get("/audit", params={"since": newest_at, "until": newest_at}), 400, "until")
    error(api.get("/audit", params={"limit": 0}), 400)


def test_the_csv_gives_the_same_entries(api: Api) -> None:
    create(api, "=SUM(A1)")
    response = api.get("/audit.csv")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    entries = audit(api, limit=1000)["entries"]
    assert [int(r["id"]) for r in rows] == [e["id"] for e in entries]
    top = rows[0]
    assert top["targetName"] == "'=SUM(A1)"  # never run as a formula
    assert top["operation"] == "POST /api/sources"
    assert json.loads(top["changes"]) == entries[0]["changes"]
    assert top["hash"] == entries[0]["hash"]


def test_the_audit_needs_a_session(anon: Api) -> None:
    error(anon.get("/audit"), 401)


def test_the_password_never_appears(anon: Api) -> None:
    error(anon.post("/session", json={"user": ADMIN, "password": "wrong password"}), 401)
    login(anon)
    text = anon.get("/audit.csv").text + json.dumps(audit(anon))
    assert PASSWORD not in text and "wrong password" not in text


def test_a_session_found_expired_is_ended_with_its_entry(data_dir: Path) -> None:
    with app_client(data_dir, session=False, session_idle_seconds=1.0) as client:
        short = login(client)
        kept = login(client, keep=True)
        client.forget_session()
        time.sleep(1.5)
        error(client.get("/sources", headers={"cookie": f"JSESSIONID={short}"}), 401)
        client.use_session(kept)

        def expired() -> list[dict[str, Any]]:
            entries = audit(client, operation="session expired")["entries"]
            return list(entries)

        [entry] = wait_until(expired, 10, 0.05, "the expiry's entry")
        handle = session_handle(short)
        assert entry["user"] == ADMIN and entry["session"] == handle
        assert entry["target"] == {"kind": "session", "id": handle, "name": ADMIN}
        assert entry["outcome"] == "ok"
    # ended in the database too: a host opened again does not find it
    with app_client(data_dir, session=False) as client:
        error(client.get("/sources", headers={"cookie": f"JSESSIONID={short}"}), 401)


def test_retention_removes_a_whole_old_prefix_and_what_is_kept_verifies(api: Api) -> None:
    host = host_of(api)
    assert ok(api.get("/audit/settings")) == {"retentionDays": 365}
    start = int(time.time() * 1000) + DAY_MS
    host.core.clock = ManualClock(start)
    old = [create(api, f"Old {n}")["sourceId"] for n in range(3)]
    host.core.clock.ms = start + 400 * DAY_MS
    young = [create(api, f"Young {n}")["sourceId"] for n in range(2)]
    last_old = audit(api, target=old[-1])["entries"][0]
    assert ok(api.put("/audit/settings", json={"retentionDays": 365})) == {"retentionDays": 365}
    entries = audit(api, limit=1000)
    assert entries["verified"] is True
    kept = list(reversed(entries["entries"]))
    # everything up to the last old entry went (the login before it too), nothing after
    assert kept[0]["id"] == last_old["id"] + 1
    assert kept[0]["prev"] == last_old["hash"]
    created = [e["target"]["id"] for e in kept if e["operation"] == "POST /api/sources"]
    assert created == young
    assert [e["operation"] for e in kept].count("PUT /api/audit/settings") == 1
    # the scheduler's loop may have pruned as soon as the clock moved, before the setting
    [noted] = [e for e in kept if e["operation"] == "audit retention"]
    assert noted["user"] == "host"
    assert noted["changes"] == [
        {
            "kind": "audit",
            "id": f"1-{last_old['id']}",
            "name": "",
            "deleted": {"first": 1, "last": last_old["id"], "retentionDays": 365},
        }
    ]
    assert run(api, host.audit.verify) is None
    # the chain goes on from what was kept
    create(api, "After")
    assert audit(api, limit=1000)["verified"] is True
    assert run(api, host.audit.verify) is None
    error(api.put("/audit/settings", json={"retentionDays": 0}), 400, "retentionDays")


def test_a_password_in_a_source_url_is_never_recorded(api: Api) -> None:
    body = source_body(RTSP, "Door camera", URL="rtsp://viewer:s3cret-pw@10.0.0.9:554/live")
    source_id = ok(api.post("/sources", json=body))["sourceId"]
    body = source_body(RTSP, "Door camera", URL="rtsp://viewer:n3w-pw@10.0.0.9:554/live")
    ok(api.put(url("sources", source_id), json=body))
    text = json.dumps(audit(api)) + api.get("/audit.csv").text
    assert "s3cret-pw" not in text and "n3w-pw" not in text
    [change] = newest(api)["changes"]
    urls = [
        [p["paramValue"] for p in change["changed"]["params"][side] if p["paramName"] == "URL"]
        for side in ("before", "after")
    ]
    assert urls == [["rtsp://viewer:(redacted)@10.0.0.9:554/live"]] * 2


def test_what_the_schedule_does_is_put_down_to_it(api: Api) -> None:
    display = locked_display(api)
    source_id = create(api, "Morning ads")["sourceId"]
    host = host_of(api)
    start = int(time.time() * 1000) // 60_000 * 60_000 + 3_600_000  # the next hour or so
    host.core.clock = ManualClock(start - 60_000)
    event = {
        "name": "Ads at the hour",
        "start": datetime.fromtimestamp(start / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S"),
        "timeZone": "UTC",
        "durationSeconds": 600,
        "action": {"kind": "switch", "displayId": display, "sourceId": source_id},
    }
    ok(api.post("/schedule", json=event))
    host.core.clock.ms = start + 1000  # the scheduler's loop finds the event due

    def applied() -> list[dict[str, Any]]:
        return [
            e for e in audit(api, user="schedule")["entries"] if e["target"]["kind"] == "display"
        ]

    [entry] = wait_until(applied, 10, 0.1, "the schedule's switch in the audit trail")
    assert entry["operation"] == "schedule: apply events"
    assert entry["address"] == "" and entry["session"] == ""
    assert entry["target"]["id"] == str(display)
    timeline = entry["changes"][0]["changed"]["timeline"]
    assert timeline["after"]["assigned_source_id"] == source_id
    assert instant(entry["at"]) == datetime.fromtimestamp((start + 1000) / 1000, UTC)
