"""Failover groups, versions 1 and 2, and the failover network settings, over HTTP."""

from typing import Any

import psutil

from tests.support.app import host_of, only_on, reopened_settings, run
from tests.support.http import error, ok
from tests.support.singletons import RefusingMixin, SingletonMixin

OTHER = {"hostname": "standby", "systemID": "SYS-OTHER"}


def local_id(api: Any) -> str:
    system_id: str = run(api, host_of(api).failover.system_id)
    return system_id


def group_v1(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "groupname": "lobby",
        "systems": [OTHER],
        "autofailback": True,
        "autofailbackGracePeriodInSeconds": 120,
        "hostnameSwitching": False,
    }
    body.update(changes)
    return body


def group_v2(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "groupName": "lobby",
        "primary": True,
        "autoFailover": True,
        "autoFailback": False,
        "autoFailbackGraceSeconds": 60,
        "useHostNameSwitching": True,
        "failoverInterface": "eth1",
        "peerIP": "192.0.2.20",
        "password": "s3cret",
    }
    body.update(changes)
    return body


def mapping_version(api: Any) -> str:
    r = api.get("/system/mappingdataversion")
    assert r.status_code == 200, r.text
    return str(r.text).strip()


# version 1


def test_not_in_a_group(api):
    error(api.get("/failover-group"), 404, "not in a failover group")
    error(api.delete("/failover-group"), 404, "not in a failover group")
    error(api.get("/failover-group-v2"), 404, "not in a failover group")
    error(api.delete("/failover-group-v2"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"


def test_system_id_is_stable(api):
    first = local_id(api)
    assert first
    assert local_id(api) == first


@only_on(
    "sqlite",
    "on PostgreSQL a lone host is a member of its database's group: "
    "test_a_lone_member_groups_with_no_host_outside_its_database is its counterpart",
)
def test_a_host_on_its_own_database_cannot_join_a_group(api, data_dir):
    """A failover group's members share one PostgreSQL database (tests/system/hostgroup has the
    groups themselves); a host on SQLite answers 409 saying so, and stays alone."""
    me = {"hostname": "primary", "systemID": local_id(api)}
    for path, body in (
        ("/failover-group", group_v1(systems=[me, OTHER])),
        ("/failover-group", group_v1(systems=[me])),
        ("/failover-group-v2", group_v2()),
    ):
        error(api.post(path, json=body), 409, "database", "--database")
    error(api.get("/failover-group"), 404, "not in a failover group")
    error(api.get("/failover-group-v2"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"
    assert "failover_v1" not in reopened_settings(data_dir)
    assert "failover_v2" not in reopened_settings(data_dir)


@only_on("postgres", "a host on SQLite joins no group (the test above)")
def test_a_lone_member_groups_with_no_host_outside_its_database(api, data_dir):
    """On PostgreSQL a lone host is the one member of its database's group: naming a peer
    or a system that is not a member of that database answers 409 saying the hosts do
    not share one database, and nothing is joined (tests/system/hostgroup forms real groups)."""
    me = {"hostname": "primary", "systemID": local_id(api)}
    for path, body, words in (
        ("/failover-group", group_v1(systems=[me, OTHER]), ("SYS-OTHER", "not a member")),
        ("/failover-group", group_v1(), ("SYS-OTHER", "not a member")),
        ("/failover-group-v2", group_v2(), ("192.0.2.20", "do not share one database")),
    ):
        error(api.post(path, json=body), 409, *words, "--database")
    error(api.get("/failover-group"), 404, "not in a failover group")
    error(api.get("/failover-group-v2"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"
    assert "failover_v1" not in reopened_settings(data_dir)
    assert "failover_v2" not in reopened_settings(data_dir)


@only_on("postgres", "a host on SQLite joins no group, not even one of itself")
def test_a_lone_member_forms_a_version_1_group_of_itself(api, data_dir):
    """Version 1 names the group's systems; a member of a database may name itself alone
    (its partner joins later): the group is kept, this host is the local system, the
    mapping data version is the group's; leaving it ends it."""
    me = {"hostname": "primary", "systemID": local_id(api)}
    body = group_v1(systems=[me])
    assert ok(api.post("/failover-group", json=body)) == {
        **body,
        "systems": [{**me, "isLocalHost": True}],
    }
    assert ok(api.get("/failover-group"))["systems"] == [{**me, "isLocalHost": True}]
    error(api.get("/failover-group-v2"), 404, "version 1 group")
    assert mapping_version(api) != "-1"
    assert reopened_settings(data_dir)["failover_v1"]["name"] == "lobby"
    assert ok(api.delete("/failover-group"))["message"]
    error(api.get("/failover-group"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"
    assert reopened_settings(data_dir).get("failover_v1") is None


V1_INVALID: tuple[tuple[dict[str, Any], list[str]], ...] = (
    ({"groupname": ""}, ["groupname"]),
    ({"groupname": "   "}, ["groupname"]),
    ({"systems": []}, ["systems"]),
    (
        {
            "systems": [
                OTHER,
                {"hostname": "b", "systemID": "B"},
                {"hostname": "c", "systemID": "C"},
            ]
        },
        ["at most 2"],
    ),
    ({"systems": [{"hostname": "", "systemID": "X"}]}, ["systems[0].hostname"]),
    ({"systems": [OTHER, {"hostname": "b", "systemID": " "}]}, ["systems[1].systemID"]),
    ({"systems": [OTHER, {"hostname": "b", "systemID": "SYS-OTHER"}]}, ["twice"]),
    ({"systems": [{"hostname": "a"}]}, ["systemID"]),
    ({"systems": "a,b"}, ["systems"]),
    ({"autofailbackGracePeriodInSeconds": -1}, ["autofailbackGracePeriodInSeconds"]),
    ({"autofailbackGracePeriodInSeconds": 86401}, ["autofailbackGracePeriodInSeconds"]),
    ({"autofailback": "maybe"}, ["autofailback"]),
    ({"hostnameSwitching": [1]}, ["hostnameSwitching"]),
)


class TestFailoverGroupV1(RefusingMixin):
    path = "/failover-group"
    write_method = "POST"
    absent = (404, ("not in a failover group",))

    # joining needs a group of hosts on one PostgreSQL database: a host on SQLite
    # answers 409 (test_a_host_on_its_own_database_cannot_join_a_group), one on
    # PostgreSQL joins with members of its database only (the two tests after it);
    # writing and reading a group, and leaving it, are tested on real groups in
    # tests/system/hostgroup and tests/client/test_failover_group.py

    def invalid_bodies(self, api):
        missing = group_v1()
        del missing["groupname"]
        cases = [(group_v1(**changes), 400, tuple(words)) for changes, words in V1_INVALID]
        return [*cases, (missing, 400, ("groupname",))]


V2_INVALID = (
    ({"groupName": ""}, ["groupName"]),
    ({"peerIP": "not-an-ip"}, ["peerIP"]),
    ({"peerIP": ""}, ["peerIP"]),
    ({"peerIP": "300.1.1.1"}, ["peerIP"]),
    ({"password": ""}, ["password"]),
    ({"autoFailbackGraceSeconds": -5}, ["autoFailbackGraceSeconds"]),
    ({"autoFailbackGraceSeconds": 100000}, ["autoFailbackGraceSeconds"]),
    ({"failoverInterface": "eth 1"}, ["failoverInterface"]),
    ({"failoverInterface": 7}, ["failoverInterface"]),
    ({"primary": "perhaps"}, ["primary"]),
)


class TestFailoverGroupV2(RefusingMixin):
    """The password is kept, never answered."""

    path = "/failover-group-v2"
    write_method = "POST"
    absent = (404, ("not in a failover group",))

    # joining needs a group of hosts on one PostgreSQL database: a host on SQLite
    # answers 409 (test_a_host_on_its_own_database_cannot_join_a_group), one on
    # PostgreSQL needs its peer to be a member of its database (the test after it);
    # writing and reading a group, and leaving it, are tested on real groups in
    # tests/system/hostgroup and tests/client/test_failover_group.py

    def invalid_bodies(self, api):
        missing = group_v2()
        del missing["password"]
        cases = [(group_v2(**changes), 400, tuple(words)) for changes, words in V2_INVALID]
        return [*cases, (missing, 400, ("password",))]


# network settings


def test_network_settings_defaults_leave_out_loopback(api):
    got = ok(api.get("/failover-group-network-settings"))
    expected = sorted(n for n in psutil.net_if_addrs() if n != "lo")
    assert got == {
        "failoverInterface": "",
        "availableInterfaces": expected,
        "autoDiscoverPeer": True,
        "peerIP": "",
    }
    assert "lo" not in got["availableInterfaces"]


def test_network_settings_set_and_keep(api, data_dir):
    body = {"failoverInterface": "eth1", "autoDiscoverPeer": False, "peerIP": "192.0.2.7"}
    got = ok(api.post("/failover-group-network-settings", json=body))
    assert {k: got[k] for k in body} == body
    assert "availableInterfaces" in got
    # fields left out keep their values
    ok(api.post("/failover-group-network-settings", json={"peerIP": ""}))
    got = ok(api.get("/failover-group-network-settings"))
    assert (got["failoverInterface"], got["autoDiscoverPeer"], got["peerIP"]) == ("eth1", False, "")
    assert reopened_settings(data_dir)["failover_network"]["interface"] == "eth1"
    # changing the network settings does not join a group
    assert mapping_version(api) == "-1"


NETWORK_INVALID = (
    ({"peerIP": "host.example"}, "peerIP"),
    ({"peerIP": "1.2.3"}, "peerIP"),
    ({"failoverInterface": "a/b"}, "failoverInterface"),
    ({"autoDiscoverPeer": "sometimes"}, "autoDiscoverPeer"),
)


class TestFailoverNetworkSettings(SingletonMixin):
    path = "/failover-group-network-settings"
    write_method = "POST"

    def initial(self, api):
        return {"failoverInterface": "", "autoDiscoverPeer": True, "peerIP": ""}

    def valid_body(self, api):
        return {"failoverInterface": "eth1", "autoDiscoverPeer": False, "peerIP": "192.0.2.7"}

    def shown(self, answer):
        return {k: v for k, v in answer.items() if k != "availableInterfaces"}

    def invalid_bodies(self, api):
        return [(body, 400, (field,)) for body, field in NETWORK_INVALID]


def test_needs_a_session(sessionless):
    for method, path in [
        ("GET", "/failover-group"),
        ("POST", "/failover-group"),
        ("GET", "/failover-group-v2"),
        ("GET", "/failover-group-network-settings"),
    ]:
        assert sessionless.request(method, path).status_code == 401
