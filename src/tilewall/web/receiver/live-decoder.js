// The decoder of a live source (live.js): a WebCodecs VideoDecoder fed the frames of the
// wire, kept up with the stream. A page joins between key frames and waits for the next
// one; a decoder (or a page) too slow for the stream skips to the next key frame and
// drops its backlog there, rather than drawing ever later frames.

// A decoder whose output is this far behind what it was given (once it had caught up
// with the stream after joining: the frames since the last key frame it joins on come
// in a burst) is too slow for the stream: it is given no more frames until the next key
// frame, and then its backlog is dropped and it starts again there.
export const BEHIND_MS = 500;
export const STALE_MS = 3000; // a page reading frames this late skips to key frames until it keeps up
const HEADER_BYTES = 9;

/**
 * @typedef {import("./live.js").LiveConfig} LiveConfig
 * @typedef {{received: number, decoded: number, drawn: number, skipped: number, resets: number, errors: number}} FrameCounts
 * @typedef {{key: boolean, at: number}} WireFrame
 * @typedef {{needKey: boolean, caughtUp: boolean, queued: number, newestIn: number, newestOut: number, tail: number}} DecoderLag
 */

/**
 * The header of a binary message of the wire (live.js): whether it holds a key frame, and
 * its instant (host ms); null for a message too short to hold a frame.
 * @param {ArrayBuffer} data
 * @returns {WireFrame | null}
 */
export function readFrame(data) {
  if (data.byteLength <= HEADER_BYTES) return null;
  const view = new DataView(data);
  return { key: (view.getUint8(0) & 1) === 1, at: view.getFloat64(1) };
}

/**
 * What becomes of a frame of the wire given a decoder in state `s` at host instant `now`:
 * "skip" (not decodable, or too slow to be worth it; `keep` it for finish() when frames
 * before it were decoded), "reset" (a key frame: drop the decoder's backlog, decode from
 * it) or "decode".
 * @param {WireFrame} frame
 * @param {DecoderLag} s
 * @param {number} now
 * @returns {{action: "skip", keep: boolean} | {action: "reset" | "decode"}}
 */
export function admit(frame, s, now) {
  // too slow: the decoder's output lags what it was given, or the page itself reads its
  // messages this late (a starved page: decoding them would only add to it)
  const behind = s.caughtUp && ((s.queued > 0 && s.newestIn - s.newestOut > BEHIND_MS) || frame.at < now - STALE_MS);
  // too slow (the chain of frames before it was decoded): kept, in case the stream stops
  // before its next key frame; joined between key frames: of no use
  if (!frame.key && (s.needKey || behind)) return { action: "skip", keep: !s.needKey || s.tail > 0 };
  return { action: frame.key && behind ? "reset" : "decode" };
}

/**
 * One frame of the wire as a chunk for a decoder; its timestamp (µs) is its instant.
 * @param {ArrayBuffer} data @param {WireFrame} frame
 */
function chunkOf(data, frame) {
  return new EncodedVideoChunk({ type: frame.key ? "key" : "delta", timestamp: Math.round(frame.at * 1000), data: new Uint8Array(data, HEADER_BYTES) });
}

/**
 * The VideoDecoder of a stream, made as needed: configured with the stream's config, and
 * made again at a key frame after it failed (a broken stream or an unsupported codec:
 * `failed` is told).
 * @param {(frame: VideoFrame) => void} output
 * @param {() => void} failed
 */
function codec(output, failed) {
  /** @type {VideoDecoder | null} */
  let decoder = null;
  /** @type {VideoDecoderConfig | null} */
  let config = null;

  function make() {
    const made = new VideoDecoder({
      output,
      error() {
        decoder = null;
        failed();
      },
    });
    decoder = made;
    if (config) made.configure(config);
    return made;
  }

  return {
    get config() {
      return config;
    },
    queued: () => (decoder ? decoder.decodeQueueSize : 0),
    /**
     * Configure for the stream's config; whether it changed (decoding starts again at a key frame).
     * @param {LiveConfig} m
     */
    configure(m) {
      const next = { codec: String(m.codec), codedWidth: Number(m.codedWidth) || undefined, codedHeight: Number(m.codedHeight) || undefined, optimizeForLatency: true };
      if (config && JSON.stringify(config) === JSON.stringify(next) && decoder) return false;
      config = next;
      try {
        if (decoder && decoder.state !== "closed") decoder.configure(config);
        else make();
      } catch {
        decoder = null; // not a codec this browser decodes; the mark stays
      }
      return true;
    },
    /**
     * The decoder for a frame (`key`: a key frame): none before the stream's config, nor
     * between a failure and the next key frame.
     * @param {boolean} key
     */
    take(key) {
      if (!config) return null;
      if (decoder && decoder.state !== "closed") return decoder;
      return key ? make() : null;
    },
    /** The decoder, if it is configured. */
    configured: () => (decoder && decoder.state === "configured" ? decoder : null),
    close() {
      if (decoder && decoder.state !== "closed") decoder.close();
      decoder = null;
    },
  };
}

/**
 * A decoder fed the frames of the wire, kept up with the stream; each frame it makes goes
 * to `output`.
 * @param {() => number} clock host time (ms) now
 * @param {FrameCounts} counts what became of the frames received (counted here)
 * @param {(frame: VideoFrame) => void} output
 */
export function liveDecoder(clock, counts, output) {
  const lag = { needKey: true, caughtUp: false, newestIn: -Infinity, newestOut: -Infinity };
  let keysSinceJoin = 0;
  /** @type {EncodedVideoChunk[]} skipped by a slow page since the last frame decoded */
  let tail = [];
  const decoders = codec(
    (frame) => {
      counts.decoded += 1;
      lag.newestOut = Math.max(lag.newestOut, frame.timestamp / 1000);
      if (lag.newestOut >= clock() - BEHIND_MS) lag.caughtUp = true; // a frame of now came out
      output(frame);
    },
    () => {
      counts.errors += 1;
      lag.needKey = true; // a new decoder at the next key frame
    },
  );

  /** @param {VideoDecoder} d @param {ArrayBuffer} data @param {WireFrame} frame */
  function decode(d, data, frame) {
    const verdict = admit(frame, { ...lag, queued: d.decodeQueueSize, tail: tail.length }, clock());
    if (verdict.action === "skip") {
      if (verdict.keep) tail.push(chunkOf(data, frame));
      lag.needKey = true;
      counts.skipped += 1;
      return;
    }
    tail = [];
    const config = decoders.config;
    if (verdict.action === "reset" && config) {
      d.reset(); // its backlog is dropped: it starts again at this key frame
      d.configure(config);
      counts.resets += 1;
      lag.newestOut = frame.at; // nothing is owed from before it
    }
    lag.needKey = false;
    lag.newestIn = frame.at;
    try {
      d.decode(chunkOf(data, frame));
    } catch {
      lag.needKey = true;
    }
  }

  return {
    /** Chunks given the decoder and not yet decoded. */
    queued: decoders.queued,
    /** @param {LiveConfig} m */
    configure(m) {
      if (decoders.configure(m)) lag.needKey = true;
    },
    /**
     * Decode one frame of the wire; its instant (host ms), or null for no frame.
     * @param {ArrayBuffer} data
     */
    chunk(data) {
      const frame = readFrame(data);
      if (!frame) return null;
      counts.received += 1;
      const d = decoders.take(frame.key);
      if (!d) return frame.at;
      // the frames a join starts with hold one key frame: a second one is of the stream
      if (frame.key && ++keysSinceJoin >= 2) lag.caughtUp = true;
      decode(d, data, frame);
      return frame.at;
    },
    /**
     * No frame came for a while: the frames skipped since the last one decoded (a slow
     * page, and a stream that stopped before its next key frame) are decoded now, so
     * that the picture held is the last frame, as on every other tile.
     */
    finish() {
      const d = decoders.configured();
      if (!tail.length || !d) return;
      for (const c of tail) d.decode(c);
      tail = [];
      lag.needKey = false;
    },
    /** The connection is gone: the next one starts with a key frame. */
    rejoin() {
      lag.needKey = true;
      lag.caughtUp = false;
      keysSinceJoin = 0;
      tail = [];
    },
    close: decoders.close,
  };
}
