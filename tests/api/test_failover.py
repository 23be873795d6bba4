"""Failover groups, versions 1 and 2, and the failover network settings, over HTTP."""

from typing import Any

import psutil

from tests.support.app import host_of, reopened_settings, run
from tests.support.http import error, ok
from tests.support.singletons import DeletableMixin, SingletonMixin

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


def test_join_read_leave_v1(api):
    me = {"hostname": "primary", "systemID": local_id(api)}
    body = ok(api.post("/failover-group", json=group_v1(systems=[me, OTHER])))
    assert body["groupname"] == "lobby"
    got = ok(api.get("/failover-group"))
    assert got == {
        "groupname": "lobby",
        "systems": [
            {"hostname": "primary", "systemID": me["systemID"], "isLocalHost": True},
            {"hostname": "standby", "systemID": "SYS-OTHER", "isLocalHost": False},
        ],
        "autofailback": True,
        "autofailbackGracePeriodInSeconds": 120,
        "hostnameSwitching": False,
    }
    assert mapping_version(api) != "-1"
    assert ok(api.delete("/failover-group"))["message"]
    error(api.get("/failover-group"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"


def test_system_id_is_stable(api):
    first = local_id(api)
    assert first
    assert local_id(api) == first


def test_v1_without_this_host_marks_no_system_local(api):
    ok(api.post("/failover-group", json=group_v1()))
    systems = ok(api.get("/failover-group"))["systems"]
    assert [s["isLocalHost"] for s in systems] == [False]


def test_v1_same_request_again_is_accepted_and_replaces(api):
    ok(api.post("/failover-group", json=group_v1()))
    ok(api.post("/failover-group", json=group_v1()))
    ok(api.post("/failover-group", json=group_v1(groupname="atrium")))
    assert ok(api.get("/failover-group"))["groupname"] == "atrium"


def test_v1_defaults_and_is_local_host_in_request_ignored(api):
    body = {"groupname": "g", "systems": [{**OTHER, "isLocalHost": True}]}
    ok(api.post("/failover-group", json=body))
    got = ok(api.get("/failover-group"))
    assert got["systems"][0]["isLocalHost"] is False
    assert got["autofailback"] is False
    assert got["autofailbackGracePeriodInSeconds"] == 0
    assert got["hostnameSwitching"] is False


V1_INVALID = (
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


class TestFailoverGroupV1(DeletableMixin):
    path = "/failover-group"
    write_method = "POST"
    absent = (404, ("not in a failover group",))

    def valid_body(self, api):
        return group_v1()

    def expected(self, body):
        return {**body, "systems": [{**OTHER, "isLocalHost": False}]}

    def invalid_bodies(self, api):
        missing = group_v1()
        del missing["groupname"]
        cases = [(group_v1(**changes), 400, tuple(words)) for changes, words in V1_INVALID]
        return [*cases, (missing, 400, ("groupname",))]


def test_v1_grace_bounds_accepted(api):
    ok(api.post("/failover-group", json=group_v1(autofailbackGracePeriodInSeconds=0)))
    ok(api.post("/failover-group", json=group_v1(autofailbackGracePeriodInSeconds=86400)))
    assert ok(api.get("/failover-group"))["autofailbackGracePeriodInSeconds"] == 86400


def test_v1_is_durable(api, data_dir):
    ok(api.post("/failover-group", json=group_v1()))
    settings = reopened_settings(data_dir)
    assert settings["failover_v1"]["name"] == "lobby"
    ok(api.delete("/failover-group"))
    assert "failover_v1" not in reopened_settings(data_dir)


# version 2


def test_join_read_leave_v2_password_never_returned(api, host):
    body = ok(api.post("/failover-group-v2", json=group_v2()))
    assert body["password"] == ""
    got = ok(api.get("/failover-group-v2"))
    assert got == {**group_v2(), "password": ""}
    assert host.state.settings["failover_v2"]["password"] == "s3cret"
    assert mapping_version(api) != "-1"
    ok(api.delete("/failover-group-v2"))
    error(api.get("/failover-group-v2"), 404, "not in a failover group")
    assert mapping_version(api) == "-1"


def test_v2_refused_while_in_a_group(api):
    ok(api.post("/failover-group-v2", json=group_v2()))
    error(api.post("/failover-group-v2", json=group_v2(groupName="other")), 409, "already")
    assert ok(api.get("/failover-group-v2"))["groupName"] == "lobby"
    error(api.post("/failover-group", json=group_v1()), 409, "version 2")
    ok(api.delete("/failover-group-v2"))
    ok(api.post("/failover-group", json=group_v1()))
    error(api.post("/failover-group-v2", json=group_v2()), 409, "version 1")


def test_each_version_reads_and_leaves_only_its_own_group(api):
    ok(api.post("/failover-group-v2", json=group_v2()))
    error(api.get("/failover-group"), 404, "version 2", "/failover-group-v2")
    error(api.delete("/failover-group"), 404, "/failover-group-v2")
    ok(api.get("/failover-group-v2"))
    ok(api.delete("/failover-group-v2"))
    ok(api.post("/failover-group", json=group_v1()))
    error(api.get("/failover-group-v2"), 404, "version 1")
    error(api.delete("/failover-group-v2"), 404)
    ok(api.get("/failover-group"))


def test_v2_defaults_and_ipv6(api):
    body = {"groupName": "g", "peerIP": "2001:db8::1", "password": "p"}
    got = ok(api.post("/failover-group-v2", json=body))
    assert got == {
        "groupName": "g",
        "primary": False,
        "autoFailover": True,
        "autoFailback": False,
        "autoFailbackGraceSeconds": 0,
        "useHostNameSwitching": False,
        "failoverInterface": "",
        "peerIP": "2001:db8::1",
        "password": "",
    }


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


class TestFailoverGroupV2(DeletableMixin):
    """The password is kept, never answered."""

    path = "/failover-group-v2"
    write_method = "POST"
    absent = (404, ("not in a failover group",))

    def valid_body(self, api):
        return group_v2()

    def expected(self, body):
        return {**body, "password": ""}

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
