// The picture of a live source with WebCodecs (live.js): the frames live-decoder.js makes
// wait for their host instant, and a canvas is drawn on every animation frame with the
// newest one whose instant has come. The canvas keeps the last frame drawn.
//
// Only the part of a frame on screen is drawn, and the canvas is only that part's size,
// placed where the part lies in the picture's box: a tile of a 3x3 wall shows a ninth of
// the picture, and turning the other eight ninths into canvas pixels at every frame, and
// handing the compositor a whole frame's canvas (in software, where there is no GPU),
// cost it more than decoding.

import { liveDecoder } from "./live-decoder.js";
import { liveMargins } from "./live-margins.js";

const MAX_WAITING = 90; // decoded frames waiting for their instant (3 s at 30 fps)
const WHOLE = 0.8; // a part on screen this big (of the frame's area): the whole frame is drawn

/**
 * @typedef {{x: number, y: number}} Point
 * @typedef {{x: number, y: number, width: number, height: number}} Rect
 */

/**
 * A `frame`-sized picture shown with object-fit: contain in a box of `box` CSS pixels:
 * scaled by `s`, centred, its top left corner at (`left`, `top`) in the box.
 * @param {{width: number, height: number}} box
 * @param {{width: number, height: number}} frame
 */
function contained(box, frame) {
  const s = Math.min(box.width / frame.width, box.height / frame.height);
  return { s, left: (box.width - frame.width * s) / 2, top: (box.height - frame.height * s) / 2 };
}

/**
 * The part of a `frame`-sized picture shown with object-fit: contain in a box of `box`
 * CSS pixels that is on a screen of `screen` pixels, its box's corners (top left, top
 * right, bottom left) at `corners` on screen (so turned, scaled and moved as it may be):
 * frame pixels, rounded out to even ones (4:2:0); null when most of the frame shows.
 * @param {[Point, Point, Point]} corners
 * @param {{width: number, height: number}} box
 * @param {{width: number, height: number}} screen
 * @param {{width: number, height: number}} frame
 * @returns {Rect | null}
 */
export function visiblePart(corners, box, screen, frame) {
  const [o, right, down] = corners;
  const u = { x: right.x - o.x, y: right.y - o.y };
  const v = { x: down.x - o.x, y: down.y - o.y };
  const det = u.x * v.y - u.y * v.x;
  if (!det || !box.width || !box.height) return null;
  // each corner of the screen in fractions of the box (a along its width, b its height)
  const screenCorners = [[0, 0], [screen.width, 0], [0, screen.height], [screen.width, screen.height]];
  const fractions = screenCorners.map(([x, y]) => {
    const dx = x - o.x;
    const dy = y - o.y;
    return { a: (dx * v.y - dy * v.x) / det, b: (u.x * dy - u.y * dx) / det };
  });
  const clamp = (/** @type {number} */ n) => Math.min(1, Math.max(0, n));
  const a0 = clamp(Math.min(...fractions.map((f) => f.a)));
  const a1 = clamp(Math.max(...fractions.map((f) => f.a)));
  const b0 = clamp(Math.min(...fractions.map((f) => f.b)));
  const b1 = clamp(Math.max(...fractions.map((f) => f.b)));
  const { s, left, top } = contained(box, frame);
  const even = (/** @type {number} */ n, /** @type {number} */ max, /** @type {boolean} */ up) =>
    Math.min(max, Math.max(0, up ? 2 * Math.ceil(n / 2) : 2 * Math.floor(n / 2)));
  const x0 = even((a0 * box.width - left) / s, frame.width, false);
  const x1 = even((a1 * box.width - left) / s, frame.width, true);
  const y0 = even((b0 * box.height - top) / s, frame.height, false);
  const y1 = even((b1 * box.height - top) / s, frame.height, true);
  const part = { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
  return part.width * part.height > WHOLE * frame.width * frame.height ? null : part;
}

/**
 * Where `part` (frame pixels) of a `frame`-sized picture shown with object-fit: contain
 * in a box of `box` CSS pixels lies in that box: CSS pixels.
 * @param {Rect} part
 * @param {{width: number, height: number}} box
 * @param {{width: number, height: number}} frame
 * @returns {Rect}
 */
export function placeOfPart(part, box, frame) {
  const { s, left, top } = contained(box, frame);
  return { x: left + part.x * s, y: top + part.y * s, width: part.width * s, height: part.height * s };
}

/**
 * Three points that say where `el`'s box is on screen: its top left, top right and bottom
 * left corners, whatever transforms its ancestors apply (a tile's crop and rotation, the
 * screen's scale).
 * @param {HTMLElement} el
 */
function cornersOf(el) {
  const marks = ["0 auto auto 0", "0 auto auto 100%", "100% auto auto 0"].map((inset) => {
    const mark = document.createElement("span");
    Object.assign(mark.style, { position: "absolute", inset, width: "0", height: "0" });
    el.appendChild(mark);
    return mark;
  });
  /** @returns {[Point, Point, Point]} */
  return () => {
    const [o, right, down] = marks.map((m) => m.getBoundingClientRect());
    return [{ x: o.left, y: o.top }, { x: right.left, y: right.top }, { x: down.left, y: down.top }];
  };
}

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
  // how long before its instant each frame was ready (reported to the host, which sets the delay by them)
  const margins = liveMargins();
  const decoder = liveDecoder(clock, counts, (frame) => {
    margins.note(frame.timestamp / 1000 - clock());
    waiting.add(frame);
  });

  const where = cornersOf(el);

  /** @type {string} the canvas's size and place, as last set */
  let shape = "";

  /**
   * The canvas `width` x `height` pixels, placed at `place` in the box (null: filling it).
   * @param {number} width @param {number} height @param {Rect | null} place
   */
  function shapeCanvas(width, height, place) {
    const next = place ? `${width}x${height}@${place.x},${place.y},${place.width},${place.height}` : `${width}x${height}`;
    if (next === shape) return;
    shape = next;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    const px = (/** @type {number} */ n) => `${n}px`;
    Object.assign(canvas.style, place ? { inset: "auto", left: px(place.x), top: px(place.y), width: px(place.width), height: px(place.height), objectFit: "fill" } : { inset: "", left: "", top: "", width: "", height: "", objectFit: "" });
  }

  /** Draw `frame`, or the part of it on screen, on the canvas. @param {VideoFrame} frame */
  function paint(frame) {
    const seen = frame.visibleRect;
    const size = { width: frame.displayWidth, height: frame.displayHeight };
    const box = { width: el.clientWidth, height: el.clientHeight };
    // (a frame whose pixels are not square is drawn whole)
    const part = seen && seen.width === size.width && seen.height === size.height ? visiblePart(where(), box, { width: innerWidth, height: innerHeight }, size) : null;
    if (!seen || !part) {
      shapeCanvas(size.width, size.height, null);
      draw2d.drawImage(frame, 0, 0);
      return;
    }
    if (!part.width || !part.height) return; // nothing of it on screen
    shapeCanvas(part.width, part.height, placeOfPart(part, box, size));
    // the same picture, its visible rectangle narrowed: nothing is copied
    const cut = new VideoFrame(frame, { visibleRect: { x: seen.x + part.x, y: seen.y + part.y, width: part.width, height: part.height } });
    draw2d.drawImage(cut, 0, 0, part.width, part.height);
    cut.close();
  }

  /**
   * @param {VideoFrame} frame
   * @param {number} now the host instant it is drawn for
   * @param {number} [frameTime] the animation frame's time, if it is drawn in one
   */
  function show(frame, now, frameTime) {
    paint(frame);
    shownAt = frame.timestamp / 1000;
    counts.drawn += 1;
    canvas.dataset.at = String(shownAt);
    if (ctx.record && frameTime !== undefined) ctx.record({ hostMs: now, mediaMs: shownAt, expectedMs: shownAt, item: source.name, key: 0, at: shownAt, drawnMs: clock() });
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
    rejoin() {
      decoder.rejoin();
      margins.rejoin();
    },
    /** The host said the frames from here on are sent as they come. */
    current: margins.current,
    /** The margins since the last report, as a report for the host (null: none). */
    report: margins.take,
    /**
     * Draw the newest frame whose instant has come (none while frozen) and close the
     * ones before it. In an animation frame, "now" is that frame's time, not the moment
     * its callback runs: a page whose callback is late (a busy or starved page) draws the
     * frame of the same refresh as the others, not a newer one.
     * @param {boolean} frozen
     * @param {number} [frameTime] the animation frame's time, performance.now() scale
     */
    draw(frozen, frameTime) {
      const now = frameTime === undefined ? clock() : clock() - (performance.now() - frameTime);
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
