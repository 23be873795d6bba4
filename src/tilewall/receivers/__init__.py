"""Speaking to receivers: the WebSocket hub, virtual receivers, media for receivers."""
