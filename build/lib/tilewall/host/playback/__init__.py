"""What displays, zones and mirror groups play: timelines, playlists, presets, overlays, render descriptions."""
