"""The interface's failover operations are the group's: version 2 on two hosts naming
each other forms the group, version 1 with both members sending the same request, GET
on every member, DELETE leaves; hosts that do not share a database answer 409; the
mapping data version is the group's."""

from typing import Any

import psutil
import pytest

from tests.support.cluster import Cluster, Host, wait_for


def v2(peer: Host, primary: bool, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "groupName": "lobby",
        "primary": primary,
        "autoFailover": True,
        "autoFailback": False,
        "autoFailbackGraceSeconds": 30,
        "useHostNameSwitching": False,
        "failoverInterface": "",
        "peerIP": f"127.0.0.1:{peer.port}",
        "password": "s3cret",
    }
    body.update(changes)
    return body


def mapping_version(host: Host) -> str:
    answer = host.api.get("/system/mappingdataversion")
    assert answer.status_code == 200, answer.text
    return answer.text.strip()


def error(answer: Any, status: int, *words: str) -> str:
    assert answer.status_code == status, answer.text
    message: str = answer.json()["message"]
    for word in words:
        assert word.casefold() in message.casefold(), (word, message)
    return message


@pytest.mark.timeout(180)
def test_v2_forms_reads_and_leaves_the_group(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second", extra=("--demo",))
    assert mapping_version(first) == mapping_version(second) == "-1"
    joined = first.api.post("/failover-group-v2", json=v2(second, primary=True))
    assert joined.status_code == 200, joined.text
    assert joined.json()["password"] == ""
    joined = second.api.post("/failover-group-v2", json=v2(first, primary=False))
    assert joined.status_code == 200, joined.text
    # each member answers its own side of the group
    assert first.api.get("/failover-group-v2").json() == {**v2(second, True), "password": ""}
    assert second.api.get("/failover-group-v2").json() == {**v2(first, False), "password": ""}
    # and every member lists it
    members = wait_for(
        lambda: (
            [m for m in first.group()["members"] if m["groupName"] == "lobby"] or None
            if len([m for m in first.group()["members"] if m["groupName"] == "lobby"]) == 2
            else None
        )
    )
    assert [m["primary"] for m in members] == [True, False]
    error(first.api.post("/failover-group-v2", json=v2(second, True)), 409, "already")

    # the mapping data version is the group's: one value, changed by any member's change
    version = mapping_version(first)
    assert version != "-1" and mapping_version(second) == version
    source = first.api.get("/sources").json()["sources"][0]["sourceId"]
    display = first.api.get("/displays", params={"isStandaloneOnly": True}).json()["displays"][0]
    switched = second.api.put(
        f"/displays/{display['displayId']}/switch", params={"destinationSourceId": source}
    )
    assert switched.status_code == 200, switched.text
    changed = mapping_version(second)
    assert changed != version
    assert wait_for(lambda: mapping_version(first) == changed, timeout=2)

    # leaving: the member is in no group any more, the other one still is
    left = second.api.delete("/failover-group-v2")
    assert left.status_code == 200, left.text
    error(second.api.get("/failover-group-v2"), 404, "not in a failover group")
    assert mapping_version(second) == "-1"
    assert first.api.get("/failover-group-v2").status_code == 200
    assert mapping_version(first) == changed


@pytest.mark.timeout(180)
def test_v1_both_members_send_the_same_request(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second")
    systems = [
        {"hostname": h.name, "systemID": h.api.get("/system").json()["licenseSystemId"]}
        for h in (first, second)
    ]
    assert systems[0]["systemID"] != systems[1]["systemID"]
    body = {
        "groupname": "atrium",
        "systems": systems,
        "autofailback": True,
        "autofailbackGracePeriodInSeconds": 60,
        "hostnameSwitching": False,
    }
    for host in (first, second):
        answer = host.api.post("/failover-group", json=body)
        assert answer.status_code == 200, answer.text
    for n, host in enumerate((first, second)):
        got = host.api.get("/failover-group").json()
        assert [s["isLocalHost"] for s in got["systems"]] == [n == 0, n == 1]
        assert got["groupname"] == "atrium" and got["autofailback"] is True
    assert first.api.delete("/failover-group").status_code == 200
    error(first.api.get("/failover-group"), 404, "not in a failover group")
    assert second.api.get("/failover-group").status_code == 200


@pytest.mark.timeout(180)
def test_hosts_on_different_databases_cannot_form_a_group(cluster: Cluster) -> None:
    first, second = cluster.start("first", "second")
    elsewhere = cluster.host("elsewhere", database=cluster.server.create_database()).start()
    message = error(
        first.api.post("/failover-group-v2", json=v2(elsewhere, primary=True)),
        409,
        "do not share one database",
    )
    assert elsewhere.address.split("//")[1] in message
    error(
        elsewhere.api.post("/failover-group-v2", json=v2(first, primary=False)),
        409,
        "do not share one database",
    )
    # (its system id may be this one's: it is unique within a database, not across)
    foreign = "SYS-ELSEWHERE"
    mine = first.api.get("/system").json()["licenseSystemId"]
    error(
        first.api.post(
            "/failover-group",
            json={
                "groupname": "g",
                "systems": [
                    {"hostname": "first", "systemID": mine},
                    {"hostname": "elsewhere", "systemID": foreign},
                ],
            },
        ),
        409,
        "do not share one database",
    )
    # naming itself is a mistake of the request; nothing was joined anywhere
    error(first.api.post("/failover-group-v2", json=v2(first, primary=True)), 400, "itself")
    for host in (first, second, elsewhere):
        error(host.api.get("/failover-group-v2"), 404)
    # the network settings list the machine's real interfaces on every member
    expected = sorted(n for n in psutil.net_if_addrs() if n != "lo")
    for host in (first, second):
        got = host.api.get("/failover-group-network-settings").json()
        assert got["availableInterfaces"] == expected
