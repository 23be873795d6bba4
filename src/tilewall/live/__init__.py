"""Live inputs (cameras, encoders, network streams): each opened once by the host through
PyAV, its H.264 frames (others transcoded once) relayed to every receiver showing it,
stamped with the host instant to present them at. docs/live.md tells how and why."""
