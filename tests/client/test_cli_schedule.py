"""``tilewall schedule`` and ``tilewall playlog`` against a real host."""

import csv
import io
import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from tests.support.http import ADMIN, PASSWORD
from tests.support.server import ServerProcess, running
from tilewall.cli import main


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from running(tmp_path_factory, "cli-schedule")


def tilewall(host: ServerProcess, *args: str) -> tuple[int, str, str]:
    # no terminal's width (pytest-xdist's workers have COLUMNS=80): as into a pipe
    env = {
        "TILEWALL_URL": host.url,
        "TILEWALL_USER": ADMIN,
        "TILEWALL_PASSWORD": PASSWORD,
        "COLUMNS": None,
    }
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_add_list_show_and_remove_events(host: ServerProcess) -> None:
    host.ok("PUT", "/system/timezone", json={"timezone": "Europe/Paris"})
    host.ok("POST", "/presets", json={"name": "Evening"})
    code, out, err = tilewall(
        host, "schedule", "add", "Evening recall", "--start", "2030-01-07T18:00:00",
        "--repeat", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "--except", "2030-01-08",
        "--preset", "Evening",
    )  # fmt: skip
    assert code == 0, err
    assert "event 'Evening recall' scheduled" in out and "next 2030-01-07T17:00:00Z" in out
    code, out, err = tilewall(
        host, "schedule", "add", "--json", "Drill", "--start", "2030-01-09T10:00:00",
        "--time-zone", "America/New_York", "--duration", "600",
        "--broadcast", "Fire drill", "--level", "RED_LEVEL",
    )  # fmt: skip
    assert code == 0, err
    drill = json.loads(out)
    assert drill["timeZone"] == "America/New_York" and drill["durationSeconds"] == 600
    assert drill["action"] == {
        "kind": "broadcast",
        "message": "Fire drill",
        "alertLevel": "RED_LEVEL",
    }

    code, out, _ = tilewall(host, "schedule", "list")
    assert code == 0 and "Evening recall" in out and "recall preset Evening" in out
    code, out, _ = tilewall(
        host, "schedule", "list", "--json", "--from", "2030-01-07", "--to", "2030-01-10"
    )
    occurrences = json.loads(out)["occurrences"]
    assert [(o["name"], o["start"]) for o in occurrences] == [
        ("Evening recall", "2030-01-07T17:00:00Z"),
        ("Drill", "2030-01-09T15:00:00Z"),
        ("Evening recall", "2030-01-09T17:00:00Z"),  # the 8th is an exception
    ]
    code, out, _ = tilewall(host, "schedule", "show", "Drill")
    assert code == 0 and drill["id"] in out
    code, out, _ = tilewall(host, "schedule", "remove", "Drill")
    assert code == 0 and "deleted" in out
    assert [e["name"] for e in host.ok("GET", "/schedule")["events"]] == ["Evening recall"]


def test_bad_input_ends_with_the_hosts_message(host: ServerProcess) -> None:
    code, _, err = tilewall(
        host, "schedule", "add", "Bad", "--start", "2030-01-07T18:00:00",
        "--time-zone", "Mars/Base", "--power", "off",
    )  # fmt: skip
    assert code == 1
    assert "timeZone: unknown time zone 'Mars/Base'" in err and "(HTTP 400)" in err
    code, _, err = tilewall(host, "schedule", "add", "Bad", "--start", "2030-01-07T18:00:00")
    assert code == 2 and "give one action" in err


def test_the_play_log_as_a_table_and_as_csv(host: ServerProcess) -> None:
    code, out, _ = tilewall(host, "playlog", "retention")
    assert code == 0 and "kept 90 days" in out
    code, out, _ = tilewall(host, "playlog", "retention", "45")
    assert code == 0 and "kept 45 days" in out
    code, out, _ = tilewall(host, "playlog", "--csv", "--since", "2020-01-01T00:00:00Z")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:4] == ["id", "displayId", "sourceId", "sourceName"]
    code, out, _ = tilewall(host, "playlog", "--json", "--display", "7")
    assert code == 0 and json.loads(out) == {"entries": []}


def test_the_python_client_replaces_an_event(host: ServerProcess) -> None:
    from tilewall.client import Client

    with Client(host.url, ADMIN, PASSWORD) as client:
        made = client.schedule.create(
            {
                "name": "Wake",
                "start": "2030-02-01T07:00:00",
                "action": {"kind": "power", "state": "on"},
            }
        )
        replaced = client.schedule.replace(
            made["id"],
            {
                "name": "Wake later",
                "start": "2030-02-01T08:00:00",
                "action": {"kind": "power", "state": "on"},
            },
        )
        assert replaced["id"] == made["id"] and replaced["name"] == "Wake later"
        assert client.schedule.get(made["id"])["start"] == "2030-02-01T08:00:00"
        client.schedule.delete(made["id"])
