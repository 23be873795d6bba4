"""Hot standbys: a standby's reads follow each write of the active host (how soon is a
figure of ``python -m bench.follow``, goal within a second); writes sent to a standby
are forwarded to the active host (and the standby answers only once it has followed
them); the operations about a member itself are answered by the member addressed; the
members list the group."""

from functools import partial

import pytest

from tests.support.cluster import Cluster, wait_for, web_source


@pytest.mark.timeout(120)
def test_a_standby_follows_each_write(cluster: Cluster) -> None:
    active, standby = cluster.start("active", "standby")
    standby.api  # logged in first: a login on a standby is a (forwarded) write  # noqa: B018
    for n in range(10):
        name = f"followed-{n}"
        answer = active.api.post("/sources", json=web_source(name))
        assert answer.status_code == 200, answer.text
        wait_for(partial(standby.has_source, name), every=0.01)
    # deletions and changes of other kinds too
    wall = active.api.post("/videowalls", json={"name": "Followed wall"})
    assert wall.status_code == 200, wall.text
    wait_for(lambda: standby.api.get("/videowalls").json()["videowalls"])
    source_id = active.api.get("/sources").json()["sources"][0]["sourceId"]
    assert active.api.delete(f"/sources/{source_id}").status_code == 200
    wait_for(lambda: standby.api.get(f"/sources/{source_id}").status_code == 404)


@pytest.mark.timeout(120)
def test_writes_to_a_standby_are_forwarded_and_read_back_at_once(cluster: Cluster) -> None:
    active, standby = cluster.start("active", "standby")
    # a login on the standby is a write of the group: its session works on both
    assert standby.role() == "standby"
    for n in range(5):
        answer = standby.api.post("/sources", json=web_source(f"via standby {n}"))
        assert answer.status_code == 200, answer.text
        # read your writes: the standby answered once it had followed the write
        assert f"via standby {n}" in standby.source_names()
    assert active.source_names() == standby.source_names()
    active.api.cookies.clear()
    active.api.cookies.set("JSESSIONID", standby.token)
    assert active.api.get("/sources").status_code == 200

    # operations about the member itself are its own: a simulated host name here
    renamed = standby.api.put("/system/hostname", json={"hostName": "standby-box"})
    assert renamed.status_code == 200, renamed.text
    assert standby.api.get("/system/hostname").json()["hostName"] == "standby-box"
    assert active.api.get("/system/hostname").json()["hostName"] != "standby-box"
    assert (
        standby.api.get("/system").json()["licenseSystemId"]
        != (active.api.get("/system").json()["licenseSystemId"])
    )


@pytest.mark.timeout(120)
def test_every_member_lists_the_group(cluster: Cluster) -> None:
    hosts = cluster.start("one", "two", "three")
    wait_for(lambda: all(len(h.group()["members"]) == 3 for h in hosts), timeout=3)
    views = [h.group() for h in hosts]
    ids = [v["memberId"] for v in views]
    assert len(set(ids)) == 3
    for view in views:
        assert [m["memberId"] for m in view["members"]] == ids
        assert view["activeMemberId"] == ids[0]
        assert view["activeAddress"] == hosts[0].address
        assert [m["role"] for m in view["members"]] == ["active", "standby", "standby"]
        assert all(m["alive"] for m in view["members"])
        assert [m["address"] for m in view["members"]] == [h.address for h in hosts]
        assert sum(m["local"] for m in view["members"]) == 1
        assert view["database"] == views[0]["database"]
    assert [v["role"] for v in views] == ["active", "standby", "standby"]

    # a member that stops leaves the list; one that is killed is shown gone
    hosts[2].stop()
    wait_for(lambda: len(hosts[0].group()["members"]) == 2, timeout=5)
    hosts[1].kill()
    wait_for(lambda: [m["alive"] for m in hosts[0].group()["members"]] == [True, False], timeout=10)
