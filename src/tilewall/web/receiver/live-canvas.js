// The picture of a live source with WebCodecs (live.js): a VideoDecoder fed the frames
// of the wire, a canvas drawn on every animation frame with the newest decoded frame
// whose host instant has come. The canvas keeps the last frame drawn.

const MAX_WAITING = 90; // decoded frames waiting for their instant (3 s at 30 fps)
// A decoder whose output is this far behind what it was given (once it had caught up
// with the stream after joining: the frames since the last key frame it joins on come
// in a burst) is too slow for the stream: it is given no more frames until the next key
// frame, and then its backlog is dropped and it starts again there.
const BEHIND_MS = 500;
const STALE_MS = 3000; // a page reading frames this late skips to key frames until it keeps up
const HEADER_BYTES = 9;

/**
 * @typedef {import("./live.js").LiveSource} LiveSource
 * @typedef {import("./live.js").LiveContext} LiveContext
 * @typedef {import("./live.js").LiveConfig} LiveConfig
 */

/**
 * One frame of the wire as a chunk for a decoder; its timestamp (µs) is its instant.
 * @param {ArrayBuffer} data @param {boolean} key @param {number} at
 */
function chunkOf(data, key, at) {
  return new EncodedVideoChunk({ type: key ? "key" : "delta", timestamp: Math.round(at * 1000), data: new Uint8Array(data, HEADER_BYTES) });
}

/**
 * A canvas drawn with the frames a WebCodecs decoder makes of the chunks given it.
 * @param {HTMLElement} el
 * @param {LiveSource} source
 * @param {LiveContext} ctx
 * @param {() => number} clock
 */
export function canvasPicture(el, source, ctx, clock) {
  const canvas = document.createElement("canvas");
  canvas.className = "media live-picture";
  el.appendChild(canvas);
  const draw2d = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { alpha: false }));
  /** @type {VideoDecoder | null} */
  let decoder = null;
  /** @type {VideoDecoderConfig | null} */
  let config = null;
  let needKey = true;
  let newestIn = -Infinity; // the instant of the newest chunk given the decoder
  let newestOut = -Infinity; // ... and of the newest frame out of it
  let caughtUp = false; // a frame of now came out since the last (re)join, or a second key frame
  let keysSinceJoin = 0;
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
      // the frames a join starts with hold one key frame: a second one is of the stream
      if (key && ++keysSinceJoin >= 2) caughtUp = true;
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
      keysSinceJoin = 0;
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
