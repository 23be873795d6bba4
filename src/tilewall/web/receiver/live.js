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
// one has no source, and the screen removes this renderer. Without WebCodecs (no secure
// context) live-mse.js plays the host's fragmented MP4 of the stream instead.

import { mseSupported, playFragments } from "./live-mse.js";

const STALL_MS = 1000; // no frame for this long: the mark
const BACKOFF_MIN_MS = 250; // reconnecting after 0.25 s, 0.5 s, 1 s ... 4 s
const BACKOFF_MAX_MS = 4000;
const MAX_WAITING = 90; // decoded frames waiting for their instant (3 s at 30 fps)
// A decoder whose output is this far behind what it was given (once it had caught up
// with the stream after joining: the frames since the last key frame it joins on come
// in a burst) is too slow for the stream: it is given no more frames until the next key
// frame, and then its backlog is dropped and it starts again there.
const BEHIND_MS = 500;
const STALE_MS = 3000; // a page reading frames this late skips to key frames until it keeps up
const HEADER_BYTES = 9;
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

/**
 * One frame of the wire as a chunk for a decoder; its timestamp (µs) is its instant.
 * @param {ArrayBuffer} data @param {boolean} key @param {number} at
 */
function chunkOf(data, key, at) {
  return new EncodedVideoChunk({ type: key ? "key" : "delta", timestamp: Math.round(at * 1000), data: new Uint8Array(data, HEADER_BYTES) });
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

/**
 * A canvas drawn with the frames a WebCodecs decoder makes of the chunks given it.
 * @param {HTMLElement} el
 * @param {LiveSource} source
 * @param {LiveContext} ctx
 * @param {() => number} clock
 */
function canvasPicture(el, source, ctx, clock) {
  const canvas = /** @type {HTMLCanvasElement} */ (element("canvas", "media live-picture"));
  el.appendChild(canvas);
  const draw2d = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { alpha: false }));
  /** @type {VideoDecoder | null} */
  let decoder = null;
  /** @type {VideoDecoderConfig | null} */
  let config = null;
  let needKey = true;
  let newestIn = -Infinity; // the instant of the newest chunk given the decoder
  let newestOut = -Infinity; // ... and of the newest frame out of it
  let caughtUp = false; // a frame of now came out since the last (re)join
  /** @type {EncodedVideoChunk[]} skipped by a slow page since the last frame decoded */
  let tail = [];
  /** @type {VideoFrame[]} decoded, by instant, waiting for it */
  let waiting = [];
  /** @type {number | null} the instant (host ms) of the frame on the canvas */
  let shownAt = null;
  // what became of the frames received (sample(): for people and tests to read)
  const counts = { received: 0, decoded: 0, drawn: 0, skipped: 0, resets: 0, errors: 0 };

  function makeDecoder() {
    decoder = new VideoDecoder({
      output(frame) {
        counts.decoded += 1;
        newestOut = Math.max(newestOut, frame.timestamp / 1000);
        if (newestOut >= clock() - BEHIND_MS) caughtUp = true;
        waiting.push(frame);
        if (waiting.length > 1 && waiting[waiting.length - 2].timestamp > frame.timestamp) waiting.sort((a, b) => a.timestamp - b.timestamp);
        while (waiting.length > MAX_WAITING) /** @type {VideoFrame} */ (waiting.shift()).close();
      },
      error() {
        counts.errors += 1;
        decoder = null; // a broken stream or an unsupported codec: a new decoder at the next key frame
        needKey = true;
      },
    });
    if (config) decoder.configure(config);
  }

  return {
    get shownAt() {
      return shownAt;
    },
    counts,
    /** Chunks in the decoder and frames waiting for their instant. */
    queued: () => ({ decoding: decoder ? decoder.decodeQueueSize : 0, waiting: waiting.length }),
    /** @param {LiveConfig} m */
    configure(m) {
      const next = { codec: String(m.codec), codedWidth: Number(m.codedWidth) || undefined, codedHeight: Number(m.codedHeight) || undefined, optimizeForLatency: true };
      if (config && JSON.stringify(config) === JSON.stringify(next) && decoder) return;
      config = next;
      needKey = true;
      try {
        if (decoder && decoder.state !== "closed") decoder.configure(config);
        else makeDecoder();
      } catch {
        decoder = null; // not a codec this browser decodes; the mark stays
      }
    },
    /**
     * Decode one frame of the wire; its instant (host ms), or null for no frame.
     * @param {ArrayBuffer} data
     */
    chunk(data) {
      if (data.byteLength <= HEADER_BYTES) return null;
      const view = new DataView(data);
      const key = (view.getUint8(0) & 1) === 1;
      const at = view.getFloat64(1);
      counts.received += 1;
      if (!config) return at;
      if (!decoder || decoder.state === "closed") {
        if (!key) return at;
        makeDecoder();
      }
      const d = /** @type {VideoDecoder} */ (decoder);
      // too slow: the decoder's output lags what it was given, or the page itself reads
      // its messages this late (a starved page: decoding them would only add to it)
      const behind = caughtUp && ((d.decodeQueueSize > 0 && newestIn - newestOut > BEHIND_MS) || at < clock() - STALE_MS);
      if (!key && (needKey || behind)) {
        // too slow (the chain of frames before it was decoded): kept, in case the stream
        // stops before its next key frame; joined between key frames: of no use
        if (!needKey || tail.length) tail.push(chunkOf(data, key, at));
        needKey = true;
        counts.skipped += 1;
        return at;
      }
      tail = [];
      if (key && behind && config) {
        d.reset(); // its backlog is dropped: it starts again at this key frame
        d.configure(config);
        counts.resets += 1;
        newestOut = at; // nothing is owed from before it
      }
      needKey = false;
      newestIn = at;
      try {
        d.decode(chunkOf(data, key, at));
      } catch {
        needKey = true;
      }
      return at;
    },
    /**
     * No frame came for a while: the frames skipped since the last one decoded (a slow
     * page, and a stream that stopped before its next key frame) are decoded now, so
     * that the picture held is the last frame, as on every other tile.
     */
    finish() {
      if (!tail.length || !decoder || decoder.state !== "configured") return;
      for (const c of tail) decoder.decode(c);
      tail = [];
      needKey = false;
    },
    /** The connection is gone: the next one starts with a key frame. */
    rejoin() {
      needKey = true;
      caughtUp = false;
      tail = [];
    },
    /**
     * Draw the newest frame whose instant has come (none while frozen) and close the
     * ones before it.
     * @param {boolean} frozen
     * @param {number} [frameTime] the animation frame's time, performance.now() scale
     */
    draw(frozen, frameTime) {
      const now = clock();
      let due = -1;
      while (due + 1 < waiting.length && waiting[due + 1].timestamp / 1000 <= now) due += 1;
      if (due < 0) return;
      const frame = waiting[due];
      if (!frozen) {
        if (canvas.width !== frame.displayWidth || canvas.height !== frame.displayHeight) {
          canvas.width = frame.displayWidth;
          canvas.height = frame.displayHeight;
        }
        draw2d.drawImage(frame, 0, 0);
        shownAt = frame.timestamp / 1000;
        counts.drawn += 1;
        canvas.dataset.at = String(shownAt);
        if (ctx.record && frameTime !== undefined) {
          const hostMs = now - (performance.now() - frameTime);
          ctx.record({ hostMs, mediaMs: shownAt, expectedMs: shownAt, item: source.name, key: 0, at: shownAt });
        }
      }
      for (const f of waiting.splice(0, due + 1)) f.close();
    },
    close() {
      for (const f of waiting) f.close();
      waiting = [];
      if (decoder && decoder.state !== "closed") decoder.close();
      decoder = null;
    },
  };
}
