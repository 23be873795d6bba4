// A live source without WebCodecs (a page outside a secure context, such as a TV's
// browser over plain HTTP): the host remuxes the stream into fragmented MP4
// (`/live/<sourceId>?format=fmp4`, binary messages of the same WebSocket) and a <video>
// plays it through Media Source Extensions, held near the live edge. The browser's own
// buffering puts it further behind than the decoded path, and tiles are not drawn on
// one instant: live.js says so in its mark.

const LIVE_EDGE_S = 0.3; // kept this far behind the newest media buffered
const BEHIND_MAX_S = 1.5; // further behind than this: jump to the edge
const KEEP_S = 10; // media older than this is removed from the buffer

/** Whether this page can play fragmented MP4 through Media Source Extensions. */
export function mseSupported() {
  return typeof globalThis.MediaSource === "function";
}

/**
 * A video playing the fragments appended to it; configure() with the stream's codec first.
 * @param {HTMLElement} el
 * @param {boolean} muted
 */
export function playFragments(el, muted) {
  const video = document.createElement("video");
  video.className = "media live-picture";
  video.muted = muted;
  video.playsInline = true;
  video.autoplay = true;
  el.appendChild(video);
  const media = new MediaSource();
  video.src = URL.createObjectURL(media);
  /** @type {SourceBuffer | null} */
  let buffer = null;
  /** @type {ArrayBuffer[]} */
  const queue = [];
  let codec = "";

  function open() {
    if (buffer || !codec || media.readyState !== "open") return;
    try {
      buffer = media.addSourceBuffer(`video/mp4; codecs="${codec}"`);
      buffer.mode = "sequence"; // each connection's fragments follow the ones before
      buffer.addEventListener("updateend", pump);
    } catch {
      buffer = null;
    }
    pump();
  }
  media.addEventListener("sourceopen", open);

  function pump() {
    if (!buffer || buffer.updating || !queue.length) return;
    try {
      buffer.appendBuffer(/** @type {ArrayBuffer} */ (queue.shift()));
    } catch {
      queue.length = 0; // the buffer is full or broken: the next connection starts again
    }
  }

  return {
    /** @param {{codec: string}} m */
    configure(m) {
      codec = String(m.codec);
      open();
    },
    /**
     * @param {ArrayBuffer} data
     * @returns {null} fragments carry no instant of their own here
     */
    append(data) {
      queue.push(data);
      pump();
      return null;
    },
    rejoin() {},
    /** Keep near the live edge; paused while frozen. @param {boolean} frozen */
    follow(frozen) {
      if (frozen) {
        if (!video.paused) video.pause();
        return;
      }
      const ranges = video.buffered;
      if (!ranges.length) return;
      const end = ranges.end(ranges.length - 1);
      if (end - video.currentTime > BEHIND_MAX_S) video.currentTime = Math.max(end - LIVE_EDGE_S, 0);
      if (video.paused) video.play().catch(() => {});
      if (buffer && !buffer.updating && ranges.start(0) < end - KEEP_S) buffer.remove(0, end - KEEP_S);
    },
    ready: () => video.readyState >= 2,
    close() {
      video.pause();
      URL.revokeObjectURL(video.src);
      video.removeAttribute("src");
      video.load();
    },
  };
}
