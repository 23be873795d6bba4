"""The receiver hub: WebSocket connections to the receivers that render the displays."""
