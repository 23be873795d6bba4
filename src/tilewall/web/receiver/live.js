// A live source (docs/protocol.md, "Live sources"): the host relays the encoded frames of
// a camera or encoder over a WebSocket, each stamped with the host-clock instant to
// present it at; the page decodes them with WebCodecs and draws, on every animation
// frame, the newest decoded frame whose instant has come, so that every tile of a wall
// (each its own page, all on the host clock) shows the same frame in the same refresh.
//
// Wire: text {"type":"config","codec","codedWidth","codedHeight","fps"} on join and on a
// change; text {"type":"status","state","message"}; binary: 1 byte of flags (bit 0: key
// frame), 8 bytes big-endian float64 `at` (host ms), one H.264 access unit in Annex B.
//
// Never black: the canvas keeps the last frame drawn through a dropped connection, a
// stall or a source that is away, with a small "no signal" mark saying why; the page
// reconnects with backoff and clears the mark when frames flow again. A paused timeline
// freezes the picture (frames are decoded, not drawn, so play resumes at once); a stopped
// one has no source, and the screen removes this renderer. live-canvas.js decodes and
// draws; without WebCodecs (no secure context) live-mse.js plays the host's fragmented
// MP4 of the stream instead.

import { canvasPicture } from "./live-canvas.js";
import { mseSupported, playFragments } from "./live-mse.js";

const STALL_MS = 1000; // no frame for this long: the mark
const BACKOFF_MIN_MS = 250; // reconnecting after 0.25 s, 0.5 s, 1 s ... 4 s
const BACKOFF_MAX_MS = 4000;
const LINK_GRACE_MS = 300; // a connection opening (or reopening) this long is not yet trouble
const SLOW_NOTE = "higher latency: no secure context";

/**
 * @typedef {{type: "live", sourceId: string, name: string, url: string, muted?: boolean}} LiveSource
 * @typedef {{state: string, anchorMs: number, anchorPositionMs: number, repeat: boolean, startMs: number}} Timeline
 * @typedef {{hostMs: number, mediaMs: number, expectedMs: number, item: string, key: number, at?: number}} FrameEntry
 * @typedef {{timeline?: Timeline, clock?: () => number, record?: (entry: FrameEntry) => void}} LiveContext
 * @typedef {{type: "config", codec: string, codedWidth: number, codedHeight: number, fps?: number}} LiveConfig
 * @typedef {{type: "status", state: string, message?: string}} LiveStatus
 */

/** @param {{state: string}} s */
const lost = (s) => s.state === "failed" || s.state === "reconnecting";

/** Whether this page decodes live frames itself (WebCodecs needs a secure context). */
export function decodesLive() {
  return globalThis.isSecureContext === true && typeof globalThis.VideoDecoder === "function";
}

/**
 * The WebSocket address of a live source's URL (a path on the host, or an address).
 * @param {string} url
 * @param {string} [format]
 */
export function socketUrl(url, format) {
  const u = new URL(url, location.href);
  if (u.protocol === "http:") u.protocol = "ws:";
  else if (u.protocol === "https:") u.protocol = "wss:";
  if (format) u.searchParams.set("format", format);
  return u.href;
}

/** @param {string} tag @param {string} className */
function element(tag, className) {
  const el = document.createElement(tag);
  el.className = className;
  return el;
}

/**
 * The renderer of a live source: {el, setTimeline, tick, sample, ready, retry, freeze,
 * destroy} as every source's (sources.js).
 * @param {LiveSource} source
 * @param {LiveContext} ctx
 */
export function live(source, ctx) {
  const el = element("div", "source live");
  const mark = element("div", "nosignal");
  mark.hidden = true;
  const clock = ctx.clock || (() => performance.timeOrigin + performance.now());
  const webCodecs = decodesLive();
  const picture = webCodecs ? canvasPicture(el, source, ctx, clock) : null;
  const fallback = !webCodecs && mseSupported() ? playFragments(el, source.muted !== false) : null;
  el.appendChild(mark);

  let timeline = ctx.timeline || null;
  /** @type {WebSocket | null} */
  let socket = null;
  let backoff = BACKOFF_MIN_MS;
  let retryTimer = 0;
  let closed = false;
  let status = { state: "connecting", message: "" };
  let linkUp = false;
  let downSince = performance.now();
  let receivedAt = performance.now(); // the last frame received (or the start)

  const frozen = () => !!timeline && timeline.state === "paused";

  function connect() {
    retryTimer = 0;
    if (closed) return;
    const ws = new WebSocket(socketUrl(source.url, webCodecs ? undefined : "fmp4"));
    ws.binaryType = "arraybuffer";
    socket = ws;
    ws.onopen = () => (linkUp = true);
    ws.onmessage = (event) => {
      if (typeof event.data === "string") return onText(event.data);
      receivedAt = performance.now();
      backoff = BACKOFF_MIN_MS;
      // frames of now (not the ones kept from before an outage) say the source is back
      const at = picture ? picture.chunk(event.data) : fallback ? fallback.append(event.data) : null;
      if (lost(status) && (at === null || at > clock() - STALL_MS)) status = { state: "live", message: "" };
    };
    ws.onclose = ws.onerror = () => {
      if (socket !== ws) return;
      ws.onclose = ws.onerror = ws.onmessage = null;
      socket = null;
      if (linkUp) downSince = performance.now();
      linkUp = false;
      if (picture) picture.rejoin();
      if (fallback) fallback.rejoin();
      reconnect();
    };
  }

  function reconnect() {
    if (closed || retryTimer) return;
    retryTimer = window.setTimeout(connect, backoff * (0.8 + Math.random() * 0.4));
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  }

  /** @param {string} text */
  function onText(text) {
    /** @type {LiveConfig | LiveStatus | null} */
    let m = null;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    if (!m || typeof m !== "object") return;
    if (m.type === "config" && picture) picture.configure(m);
    else if (m.type === "config" && fallback) fallback.configure(m);
    else if (m.type === "status") status = { state: String(m.state), message: m.message ? String(m.message) : "" };
  }

  /** Why the picture is not moving, or null while it is (the mark's text). */
  function trouble() {
    if (!webCodecs && !fallback) return "no signal: this browser cannot play live video";
    if (lost(status)) return `no signal: ${status.message || status.state}`;
    if (!linkUp && performance.now() - downSince > LINK_GRACE_MS) return "no signal: host unreachable";
    if (performance.now() - receivedAt > STALL_MS) return `no signal${status.message ? ": " + status.message : ""}`;
    return null;
  }

  function showMark() {
    const why = trouble();
    const note = webCodecs ? null : SLOW_NOTE;
    const text = why && note ? `${why} (${note})` : why || note;
    mark.hidden = !text;
    mark.classList.toggle("slow", !why);
    if (text && mark.textContent !== text) {
      mark.textContent = text;
      mark.title = text;
    }
    el.dataset.signal = why ? "lost" : "live";
  }

  function tick() {
    if (picture && performance.now() - receivedAt > STALL_MS / 2) picture.finish();
    if (picture) picture.draw(frozen());
    if (fallback) fallback.follow(frozen());
    showMark();
  }

  let frameRequest = 0;
  /** @param {number} [at] the animation frame's time (performance.now() scale) */
  function animate(at) {
    if (closed) return;
    if (picture && at !== undefined) picture.draw(frozen(), at);
    frameRequest = requestAnimationFrame(animate);
  }

  connect();
  frameRequest = requestAnimationFrame(animate);
  showMark();

  return {
    el,
    /** @param {Timeline} t */
    setTimeline(t) {
      timeline = t;
    },
    tick,
    sample: () => ({
      showing: "live",
      item: source.name,
      positionMs: null,
      expectedMs: null,
      playing: !frozen() && !trouble(),
      frameAt: picture ? picture.shownAt : null,
      frames: picture ? { ...picture.counts, queued: picture.queued() } : null,
      signal: trouble() || "live",
    }),
    ready: () => (picture ? picture.shownAt !== null : !!fallback && fallback.ready()),
    retry() {
      if (!socket && retryTimer) {
        clearTimeout(retryTimer);
        backoff = BACKOFF_MIN_MS;
        connect();
      }
    },
    freeze() {
      timeline = timeline ? { ...timeline, state: "paused" } : null;
    },
    destroy() {
      closed = true;
      cancelAnimationFrame(frameRequest);
      clearTimeout(retryTimer);
      if (socket) {
        socket.onclose = socket.onerror = socket.onmessage = null;
        socket.close();
      }
      if (picture) picture.close();
      if (fallback) fallback.close();
      el.remove();
    },
  };
}
