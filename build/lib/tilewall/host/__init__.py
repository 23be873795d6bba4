"""The domain: stations, displays, walls, zones, mirror groups, sources, presets,
playback timelines and licence rules. No HTTP, no sockets, no SQL."""
