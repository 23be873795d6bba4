// One image or video of a renderer (deck.js), loading out of sight: each new one is
// stacked below the ones before (screen.css), an image hidden until decoded, a video
// watched for the frames it presents; a video about to be shown rises over everything.

import { noteVsync } from "./follow.js";

const HAVE_FUTURE_DATA = 3;
const FRAME_RECENT_MS = 250; // a playing video waiting to be shown has presented a frame this recently
export const PROBE_MS = 250; // while no host answers, look for one this often (deck.js)

let stacked = 0; // each new medium goes under the ones before (screen.css)
let raised = 0; // a video about to be shown goes over everything

function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

/** `node` goes under every medium stacked so far. @param {HTMLElement} node */
export function stackUnder(node) {
  node.style.zIndex = String(-++stacked);
}

/**
 * A video piece watched for the frames it hands to the compositor (hidden videos too):
 * `p.frameAt`, the last one's time (null: none yet; left undefined without
 * requestVideoFrameCallback), and p.onFrame(metadata) for each; `stalled` while the
 * browser gets no data and has none to play on.
 */
function watchVideo(p, node) {
  // stalled: the browser gets no data; a failure if it has none to play on and no
  // host answers (the deck probes), else a slow host to wait for
  node.addEventListener("stalled", () => (p.stalled = node.readyState < HAVE_FUTURE_DATA));
  node.addEventListener("progress", () => (p.stalled = false));
  node.addEventListener("canplay", () => (p.stalled = false));
  // frames handed to the compositor (hidden videos too): shown only once there are
  if (typeof node.requestVideoFrameCallback === "function") {
    p.frameAt = null;
    const frame = (now, metadata) => {
      p.frameAt = performance.now();
      if (metadata) noteVsync(metadata.expectedDisplayTime);
      if (p.onFrame) p.onFrame(metadata);
      if (!p.dropped) node.requestVideoFrameCallback(frame);
    };
    node.requestVideoFrameCallback(frame);
  }
}

/**
 * One image or video loading out of sight; `failed` on error, showable once decoded.
 * `setup(node)` sets the element up before it loads; `ctx.media` (optional) gives the
 * kept copy to load.
 */
export function piece(kind, url, ctx, setup) {
  const node = element(kind === "video" ? "video" : "img", "media");
  setup(node);
  stackUnder(node);
  const p = { kind, url, node, decoded: false, failed: false, failedAt: 0, tries: 0, retryAt: 0, probing: false, readySince: null, dropped: false, stalled: false };
  const fail = () => {
    if (p.failed || p.dropped) return;
    p.failed = true;
    p.failedAt = performance.now();
    p.retryAt = p.failedAt + PROBE_MS;
  };
  p.fail = fail;
  node.addEventListener("error", fail);
  if (kind === "video") watchVideo(p, node);
  Promise.resolve(ctx.media ? ctx.media.src(url) : url).then((src) => {
    if (p.dropped) return;
    node.src = src;
    if (kind !== "video") {
      node.decode().then(() => {
        if (p.failed || p.dropped) return;
        p.decoded = true;
        node.classList.add("ready"); // visible, under what is shown
      }, fail);
    }
  });
  return p;
}

/** `p` can be shown: decoded, or a video able to play that presents frames. */
export function showable(p) {
  if (p.failed) return false;
  if (p.kind !== "video") return p.decoded;
  const video = p.node;
  if (video.readyState < HAVE_FUTURE_DATA || video.error) return false;
  if (p.frameAt === undefined) return true; // no requestVideoFrameCallback: canplay it is
  if (p.frameAt === null) return false;
  return video.paused || performance.now() - p.frameAt < FRAME_RECENT_MS;
}

/** `p` is a video that has drawn once and may rise over what is shown. */
export function risable(p) {
  const video = p.node;
  return p.kind === "video" && !p.failed && !video.error && video.readyState >= HAVE_FUTURE_DATA && p.frameAt != null;
}

/**
 * A video about to be shown goes on top, see-through where it has not drawn yet (a
 * video under others draws no frames): `p.drawnOnTop` once it has drawn a frame up there.
 */
export function raise(p) {
  if (p.raisedAt != null) return;
  p.raisedAt = performance.now();
  p.node.classList.add("rising");
  p.node.style.zIndex = String(++raised);
  p.node.requestVideoFrameCallback(() => (p.drawnOnTop = true));
}

/** `p` goes: a video lets its decoder go. */
export function drop(p) {
  p.dropped = true;
  const node = p.node;
  if (node.tagName === "VIDEO") {
    node.pause();
    node.removeAttribute("src");
    node.load(); // lets the decoder go
  }
  node.remove();
}
