"""What displays, zones and mirror groups play: timelines, playlists and their slots,
presets, control rooms (layouts shown by zones), overlays."""
