// The picture of a live source with WebCodecs (live.js): the frames live-decoder.js makes
// wait for their host instant, and a canvas is drawn on every animation frame with the
// newest one whose instant has come. The canvas keeps the last frame drawn.

import { liveDecoder } from "./live-decoder.js";

const MAX_WAITING = 90; // decoded frames waiting for their instant (3 s at 30 fps)

/**
 * @typedef {import("./live.js").LiveSource} LiveSource
 * @typedef {import("./live.js").LiveContext} LiveContext
 * @typedef {import("./live.js").LiveConfig} LiveConfig
 * @typedef {{timestamp: number, close(): void}} TimedFrame
 */

/**
 * Decoded frames waiting for their instant (a frame's timestamp, µs, is its host instant),
 * in order of instant, at most `max` (the oldest go first).
 * @template {TimedFrame} F
 * @param {number} [max]
 */
export function waitingFrames(max = MAX_WAITING) {
  /** @type {F[]} */
  let waiting = [];
  return {
    get size() {
      return waiting.length;
    },
    /** @param {F} frame */
    add(frame) {
      waiting.push(frame);
      if (waiting.length > 1 && waiting[waiting.length - 2].timestamp > frame.timestamp) waiting.sort((a, b) => a.timestamp - b.timestamp);
      while (waiting.length > max) /** @type {F} */ (waiting.shift()).close();
    },
    /**
     * The frames whose instant has come at host instant `now` (ms), taken out: the newest
     * last; none while the first one waiting is still to come.
     * @param {number} now
     */
    due(now) {
      let due = 0;
      while (due < waiting.length && waiting[due].timestamp / 1000 <= now) due += 1;
      return waiting.splice(0, due);
    },
    clear() {
      for (const f of waiting) f.close();
      waiting = [];
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
export function canvasPicture(el, source, ctx, clock) {
  const canvas = document.createElement("canvas");
  canvas.className = "media live-picture";
  el.appendChild(canvas);
  const draw2d = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d", { alpha: false }));
  /** @type {ReturnType<typeof waitingFrames<VideoFrame>>} decoded, by instant, waiting for it */
  const waiting = waitingFrames();
  /** @type {number | null} the instant (host ms) of the frame on the canvas */
  let shownAt = null;
  // what became of the frames received (sample(): for people and tests to read)
  const counts = { received: 0, decoded: 0, drawn: 0, skipped: 0, resets: 0, errors: 0 };
  const decoder = liveDecoder(clock, counts, (frame) => waiting.add(frame));

  /** @param {VideoFrame} frame @param {number} now @param {number} [frameTime] */
  function show(frame, now, frameTime) {
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

  return {
    get shownAt() {
      return shownAt;
    },
    counts,
    /** Chunks in the decoder and frames waiting for their instant. */
    queued: () => ({ decoding: decoder.queued(), waiting: waiting.size }),
    configure: decoder.configure,
    chunk: decoder.chunk,
    finish: decoder.finish,
    rejoin: decoder.rejoin,
    /**
     * Draw the newest frame whose instant has come (none while frozen) and close the
     * ones before it.
     * @param {boolean} frozen
     * @param {number} [frameTime] the animation frame's time, performance.now() scale
     */
    draw(frozen, frameTime) {
      const now = clock();
      const due = waiting.due(now);
      if (!due.length) return;
      if (!frozen) show(due[due.length - 1], now, frameTime);
      for (const f of due) f.close();
    },
    close() {
      waiting.clear();
      decoder.close();
    },
  };
}
