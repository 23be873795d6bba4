// The connection of a live source (live.js) to the host's relay: a WebSocket opened again
// with backoff whenever it drops, until the source is closed.

const BACKOFF_MIN_MS = 250; // reconnecting after 0.25 s, 0.5 s, 1 s ... 4 s
const BACKOFF_MAX_MS = 4000;

/**
 * @typedef {object} LinkHandlers
 * @property {(data: ArrayBuffer) => void} frame a binary message (a frame, or a piece of MP4)
 * @property {(text: string) => void} text a text message (config, status)
 * @property {() => void} down the connection dropped (or never opened)
 */

/**
 * A connection to `url` kept open: opened now, and again with backoff after it drops
 * (back to the shortest wait once frames flow).
 * @param {string} url a ws: or wss: address
 * @param {LinkHandlers} on
 */
export function liveLink(url, on) {
  /** @type {WebSocket | null} */
  let socket = null;
  let backoff = BACKOFF_MIN_MS;
  let retryTimer = 0;
  let closed = false;
  let up = false;
  let downSince = performance.now();

  /** @param {WebSocket} ws */
  function forget(ws) {
    ws.onclose = ws.onerror = ws.onmessage = null;
  }

  function connect() {
    retryTimer = 0;
    if (closed) return;
    const ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    socket = ws;
    ws.onopen = () => (up = true);
    ws.onmessage = (event) => {
      if (typeof event.data === "string") return on.text(event.data);
      backoff = BACKOFF_MIN_MS;
      on.frame(event.data);
    };
    ws.onclose = ws.onerror = () => {
      if (socket !== ws) return;
      forget(ws);
      socket = null;
      if (up) downSince = performance.now();
      up = false;
      on.down();
      reconnect();
    };
  }

  function reconnect() {
    if (closed || retryTimer) return;
    retryTimer = window.setTimeout(connect, backoff * (0.8 + Math.random() * 0.4));
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  }

  connect();
  return {
    /** Whether the connection is open. */
    get up() {
      return up;
    },
    /** When it last dropped (performance.now() scale; the start while it never opened). */
    get downSince() {
      return downSince;
    },
    /**
     * Send `text` to the host now, if the connection is open (else it is dropped).
     * @param {string} text
     */
    send(text) {
      if (socket && up) socket.send(text);
    },
    /** A host answers again: a connection waiting for its backoff opens now. */
    retry() {
      if (!socket && retryTimer) {
        clearTimeout(retryTimer);
        backoff = BACKOFF_MIN_MS;
        connect();
      }
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      if (socket) {
        forget(socket);
        socket.close();
      }
    },
  };
}
