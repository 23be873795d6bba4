// A live source (docs/live.md, "On the wire"): the host relays the encoded frames of
// a camera or encoder over a WebSocket, each stamped with the host-clock instant to
// present it at; the page decodes them with WebCodecs and draws, on every animation
// frame, the newest decoded frame whose instant has come, so that every tile of a wall
// (each its own page, all on the host clock) shows the same frame in the same refresh.
//
// Wire: text {"type":"config","codec","codedWidth","codedHeight","fps"} on join and on a
// change; text {"type":"status","state","message"}; text {"type":"current"} after the
// frames a join starts with; binary: 1 byte of flags (bit 0: key frame), 8 bytes
// big-endian float64 `at` (host ms), one H.264 access unit in Annex B. The page sends,
// once a second, text {"type":"margins","ms":[...]}: how long before its instant each
// frame was ready (live-margins.js); the host sets the stream's delay by them.
//
// Never black: the canvas keeps the last frame drawn through a dropped connection, a
// stall or a source that is away, with a small "no signal" mark saying why; the page
// reconnects with backoff and clears the mark when frames flow again. A paused timeline
// freezes the picture (frames are decoded, not drawn, so play resumes at once); a stopped
// one has no source, and the screen removes this renderer. live-link.js keeps the
// connection, live-signal.js says when there is no signal; live-canvas.js decodes and
// draws; without WebCodecs (no secure context) live-mse.js plays the host's fragmented
// MP4 of the stream instead.

import { canvasPicture } from "./live-canvas.js";
import { liveLink } from "./live-link.js";
import { mseSupported, playFragments } from "./live-mse.js";
import { fresh, lost, quiet, signalMark, trouble } from "./live-signal.js";

/**
 * @typedef {{type: "live", sourceId: string, name: string, url: string, muted?: boolean}} LiveSource
 * @typedef {{state: string, anchorMs: number, anchorPositionMs: number, repeat: boolean, startMs: number}} Timeline
 * @typedef {{hostMs: number, mediaMs: number, expectedMs: number, item: string, key: number, at?: number, drawnMs?: number}} FrameEntry
 *   (a live frame: `hostMs` the instant of the refresh it was drawn for, `drawnMs` when the page drew it)
 * @typedef {{timeline?: Timeline, clock?: () => number, record?: (entry: FrameEntry) => void, preview?: boolean}} LiveContext
 * @typedef {{type: "config", codec: string, codedWidth: number, codedHeight: number, fps?: number}} LiveConfig
 * @typedef {{type: "status", state: string, message?: string}} LiveStatus
 * @typedef {{type: "current"}} LiveCurrent
 */

const REPORT_EVERY_MS = 1000;
const NO_ANIMATION_MS = 250; // no animation frame this long: the page's timer draws

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
 * A text message of the wire, or null for one that is not JSON.
 * @param {string} text
 * @returns {LiveConfig | LiveStatus | LiveCurrent | null}
 */
function readMessage(text) {
  try {
    const m = JSON.parse(text);
    return m && typeof m === "object" ? m : null;
  } catch {
    return null;
  }
}

/** @param {string} tag @param {string} className */
function element(tag, className) {
  const el = document.createElement(tag);
  el.className = className;
  return el;
}

/**
 * The mark's text from what is wrong now (`found`): that, and after a loss the same until
 * a newer frame is drawn. With a long delay the host says the source is back a while
 * before its frames are drawn: the mark goes when the picture moves, not before.
 * @param {() => number | null} shownAt the instant of the frame on the canvas
 * @param {() => boolean} frozen paused (the picture is not meant to move)
 */
export function heldMark(shownAt, frozen) {
  /** @type {{at: number | null, why: string} | null} */
  let held = null;
  return (/** @type {string | null} */ found) => {
    if (found) {
      held = { at: shownAt(), why: found };
      return found;
    }
    if (held && !frozen() && shownAt() === held.at) return held.why;
    held = null;
    return null;
  };
}

/**
 * Send the host the picture's margins once a second while connected; the timer's id.
 * @param {ReturnType<typeof canvasPicture>} picture
 * @param {ReturnType<typeof liveLink>} link
 */
function reportMargins(picture, link) {
  return window.setInterval(() => {
    const report = picture.report();
    if (report && link.up) link.send(report);
  }, REPORT_EVERY_MS);
}

/**
 * `draw` called in every animation frame with its time (performance.now() scale) until
 * stopped; `idleFor()`: ms since the last one (long in a page kept in the background).
 * @param {(at: number) => void} draw
 */
function animationFrames(draw) {
  let request = 0;
  let stopped = false;
  let last = -Infinity;
  /** @param {number} at */
  function animate(at) {
    if (stopped) return;
    last = performance.now();
    draw(at);
    request = requestAnimationFrame(animate);
  }
  request = requestAnimationFrame(animate);
  return {
    idleFor: () => performance.now() - last,
    stop() {
      stopped = true;
      cancelAnimationFrame(request);
    },
  };
}

/**
 * The renderer of a live source: {el, setTimeline, tick, sample, ready, retry, freeze,
 * destroy} as every source's (sources.js).
 * @param {LiveSource} source
 * @param {LiveContext} ctx
 */
export function live(source, ctx) {
  const el = element("div", "source live");
  const clock = ctx.clock || (() => performance.timeOrigin + performance.now());
  const webCodecs = decodesLive();
  const picture = webCodecs ? canvasPicture(el, source, ctx, clock) : null;
  const fallback = !webCodecs && mseSupported() ? playFragments(el, source.muted !== false) : null;
  const player = picture || fallback;
  const mark = signalMark(el, webCodecs);

  let timeline = ctx.timeline || null;
  let status = { state: "connecting", message: "" };
  let receivedAt = performance.now(); // the last frame received (or the start)

  const frozen = () => !!timeline && timeline.state === "paused";

  const link = liveLink(socketUrl(source.url, webCodecs ? undefined : "fmp4"), {
    frame(data) {
      receivedAt = performance.now();
      const at = picture ? picture.chunk(data) : fallback ? fallback.append(data) : null;
      // frames of now (not the ones kept from before an outage) say the source is back
      if (lost(status) && fresh(at, clock())) status = { state: "live", message: "" };
    },
    text(text) {
      const m = readMessage(text);
      if (!m) return;
      if (m.type === "config" && player) player.configure(m);
      else if (m.type === "status") status = { state: String(m.state), message: m.message ? String(m.message) : "" };
      else if (m.type === "current" && picture) picture.current();
    },
    down: () => player && player.rejoin(),
  });

  const holding = picture ? heldMark(() => picture.shownAt, frozen) : (/** @type {string | null} */ w) => w;

  /** Why the picture is not moving, or null while it is (the mark's text). */
  function why() {
    const now = performance.now();
    return holding(trouble({ playable: webCodecs || !!fallback, status, linkUp: link.up, downForMs: now - link.downSince, silentForMs: now - receivedAt }));
  }

  function tick() {
    if (picture && quiet(performance.now() - receivedAt)) picture.finish();
    // animation frames draw the picture; this only where they do not come (a page in the
    // background), for the canvas still to follow the stream
    if (picture && animation && animation.idleFor() > NO_ANIMATION_MS) picture.draw(frozen());
    if (fallback) fallback.follow(frozen());
    mark.show(why());
  }

  // a preview (the console's) is no tile of a wall: the stream's delay is not for it
  const reporting = picture && !ctx.preview ? reportMargins(picture, link) : 0;

  const animation = picture ? animationFrames((at) => picture.draw(frozen(), at)) : null;
  mark.show(why());

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
      playing: !frozen() && !why(),
      frameAt: picture ? picture.shownAt : null,
      frames: picture ? { ...picture.counts, queued: picture.queued() } : null,
      signal: why() || "live",
    }),
    ready: () => (picture ? picture.shownAt !== null : !!fallback && fallback.ready()),
    retry: () => link.retry(),
    freeze() {
      timeline = timeline ? { ...timeline, state: "paused" } : null;
    },
    destroy() {
      if (animation) animation.stop();
      clearInterval(reporting);
      link.close();
      if (picture) picture.close();
      if (fallback) fallback.close();
      el.remove();
    },
  };
}
