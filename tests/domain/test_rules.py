"""Domain rules on a storeless host: presets, zone membership, station types, playback."""

import pytest

from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.model import Geometry, Monitor, Param, Resolution
from tilewall.host.playback.control import Target
from tilewall.host.topology.walls import (
    STANDALONE,
    VIDEOWALL,
    VIDEOWALL_ZONE_INACTIVE,
    MonitorSpec,
    bounding_canvas,
)


async def displays(host, count):
    out = []
    for n in range(count):
        seat = f"s{len(host.state.stations) + 1}-{n}"
        await host.stations.hello(
            seat,
            f"10.3.0.{len(host.state.stations) + 1}",
            "m",
            "f",
            Resolution(1920, 1080),
            [Resolution(1920, 1080)],
        )
        station = await host.stations.lock(seat)
        out.append(station.display_id)
    return out


def spec(display_id, i):
    return MonitorSpec(display_id, Geometry(100, 50, i * 110 + 50, 25))


async def wall_of(host, count=4, name="W"):
    ids = await displays(host, count)
    wall = await host.topology.create_wall(name, [spec(d, i) for i, d in enumerate(ids)], None)
    return wall, ids


async def web(host, name="page"):
    return await host.sources.create(
        name, "Web Browser", [Param("URL", "URL", "https://example.org/")]
    )


# zone membership


async def test_display_in_at_most_one_zone(host):
    wall, ids = await wall_of(host)
    await host.topology.create_zone("A", wall.id, ids[:2], None)
    with pytest.raises(Conflict):
        await host.topology.create_zone("B", wall.id, ids[1:3], None)
    assert [z.name for z in host.state.zones.values()] == ["A"]


async def test_zone_displays_must_be_on_the_wall(host):
    wall, ids = await wall_of(host)
    _other, other_ids = await wall_of(host, 2, "Other")
    with pytest.raises(Invalid):
        await host.topology.create_zone("Z", wall.id, [other_ids[0]], None)
    zone = await host.topology.create_zone("Z", wall.id, ids[:1], None)
    with pytest.raises(Invalid):
        await host.topology.update_zone(zone, None, [ids[0], other_ids[1]], None)
    assert zone.display_ids == ids[:1]


async def test_display_in_at_most_one_wall_and_not_mirrored(host):
    _wall, ids = await wall_of(host)
    with pytest.raises(Conflict):
        await host.topology.create_wall("W2", [spec(ids[0], 0)], None)
    free = await displays(host, 2)
    await host.topology.create_mirror("M", free)
    with pytest.raises(Conflict):
        await host.topology.create_wall("W3", [spec(free[0], 0)], None)
    with pytest.raises(Conflict):
        await host.topology.create_mirror("M2", [ids[0]])


async def test_removing_a_monitor_removes_it_from_its_zone(host):
    wall, ids = await wall_of(host)
    zone = await host.topology.create_zone("Z", wall.id, ids[:2], ids[0])
    await host.topology.update_wall(
        wall.id, None, [spec(d, i) for i, d in enumerate(ids[1:])], None
    )
    assert zone.display_ids == [ids[1]]
    assert zone.control_display_id == ids[1]


async def test_unlocking_a_display_removes_it_everywhere(host):
    wall, ids = await wall_of(host)
    zone = await host.topology.create_zone("Z", wall.id, ids[:2], None)
    await host.stations.unlock(host.state.displays[ids[0]].seat_id)
    assert ids[0] not in zone.display_ids
    assert ids[0] not in [m.display_id for m in wall.monitors]
    assert ids[0] not in host.state.displays


# station types


async def test_station_types(host):
    wall, ids = await wall_of(host)
    await host.topology.create_zone("Z", wall.id, ids[:1], None)
    (alone,) = await displays(host, 1)
    assert host.stations.station_type(ids[0]) == VIDEOWALL
    assert host.stations.station_type(ids[1]) == VIDEOWALL_ZONE_INACTIVE
    assert host.stations.station_type(alone) == STANDALONE
    await host.topology.delete_wall(wall.id)
    assert host.stations.station_type(ids[0]) == STANDALONE
    assert host.state.zones == {}


def test_bounding_canvas_of_rotated_monitor():
    canvas = bounding_canvas([Monitor(1, Geometry(100, 50, 0, 0, 90))])
    assert canvas.width == pytest.approx(50)
    assert canvas.height == pytest.approx(100)


# presets


async def test_preset_save_and_recall(host, clock):
    (d1, d2) = await displays(host, 2)
    page = await web(host)
    other = await web(host, "other")
    t1 = host.playback.for_display(host.state.displays[d1])
    await host.playback.switch(t1, page)
    clock.advance(5000)
    preset = await host.presets.save("P")
    await host.playback.switch(t1, other)
    await host.playback.switch(host.playback.for_display(host.state.displays[d2]), other)
    clock.advance(1000)
    assert await host.presets.recall(preset) is True
    assert host.state.displays[d1].timeline.assigned_source_id == page.id
    assert host.state.displays[d2].timeline.state == "stopped"
    # recalled playing timelines start again at the recall instant
    assert host.state.displays[d1].timeline.anchor_ms == clock.now_ms()


async def test_preset_is_a_copy_not_a_view(host):
    (d1,) = await displays(host, 1)
    page = await web(host)
    preset = await host.presets.save("Empty")
    await host.playback.switch(host.playback.for_display(host.state.displays[d1]), page)
    assert preset.displays[str(d1)].assigned_source_id == ""


async def test_preset_names(host):
    with pytest.raises(Invalid):
        await host.presets.save("   ")
    with pytest.raises(Invalid):
        await host.presets.save("x" * 201)
    first = await host.presets.save(" Padded ")
    assert first.name == "Padded"
    assert (await host.presets.save("Padded")).id == first.id
    with pytest.raises(NotFound):
        host.presets.get("nope")


# playback through the clock


async def test_display_in_zone_acts_on_zone(host):
    wall, ids = await wall_of(host)
    zone = await host.topology.create_zone("Z", wall.id, ids[:2], None)
    target = host.playback.for_display(host.state.displays[ids[1]])
    assert target.kind == "zone" and target.obj is zone
    # a wall display in no zone shows nothing
    page = await web(host)
    await host.playback.switch(Target("display", host.state.displays[ids[3]]), page)
    assert host.playback.effective_timeline(host.state.displays[ids[3]]).assigned_source_id == ""


async def test_media_info_follows_manual_clock(host, clock):
    for name in ("a.png", "b.png"):
        (host.media.root / name).write_bytes(b"png")
    source = await host.sources.create(
        "slides",
        "Signage Player",
        [
            Param(
                "FILE_DIR_SELECT",
                "Media",
                '[{"type":"file","name":"a","value":"a.png"},{"type":"file","name":"b","value":"b.png"}]',
            ),
            Param("NUMBER", "Slide Interval", "3"),
        ],
    )
    (d,) = await displays(host, 1)
    target = host.playback.for_display(host.state.displays[d])
    await host.playback.switch(target, source)
    clock.advance(1000)
    assert host.playback.media_info(target).filename == "a.png"
    clock.advance(2500)
    info = host.playback.media_info(target)
    assert (info.filename, info.current_ms, info.total_ms) == ("b.png", 500, 3000)
    await host.playback.pause(target)
    clock.advance(60_000)
    assert host.playback.media_info(target).current_ms == 500
    await host.playback.resume(target)
    clock.advance(3000)
    assert host.playback.media_info(target).filename == "a.png"  # wrapped around
