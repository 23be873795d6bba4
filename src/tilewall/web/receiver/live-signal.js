// Whether a live source's picture moves, and the small "no signal" mark saying why not
// (live.js): the picture stays, the mark tells a person looking at the wall what is wrong.

const STALL_MS = 1000; // no frame for this long: the mark
const LINK_GRACE_MS = 300; // a connection opening (or reopening) this long is not yet trouble
const SLOW_NOTE = "higher latency: no secure context";

/**
 * @typedef {{state: string, message: string}} SourceStatus the relay's word on the source
 * @typedef {object} SignalState
 * @property {boolean} playable this page can show live video at all
 * @property {SourceStatus} status
 * @property {boolean} linkUp the connection to the relay is open
 * @property {number} downForMs since it dropped (or since the start, before it opened)
 * @property {number} silentForMs since the last frame received (or the start)
 */

/** The relay says the source itself is away. @param {{state: string}} s */
export const lost = (s) => s.state === "failed" || s.state === "reconnecting";

/**
 * Why the picture is not moving, or null while it is (the mark's text).
 * @param {SignalState} s
 */
export function trouble(s) {
  if (!s.playable) return "no signal: this browser cannot play live video";
  if (lost(s.status)) return `no signal: ${s.status.message || s.status.state}`;
  if (!s.linkUp && s.downForMs > LINK_GRACE_MS) return "no signal: host unreachable";
  if (s.silentForMs > STALL_MS) return `no signal${s.status.message ? ": " + s.status.message : ""}`;
  return null;
}

/**
 * The mark's text: why there is no signal, with a note when the page plays live video
 * the slower way (no WebCodecs); null for no mark.
 * @param {string | null} why
 * @param {boolean} decodes this page decodes live frames itself
 */
export function markText(why, decodes) {
  const note = decodes ? null : SLOW_NOTE;
  return why && note ? `${why} (${note})` : why || note;
}

/**
 * Frames received at host instant `at` (null: no instant known) say a lost source is back
 * unless they were kept from before an outage (older than the stall).
 * @param {number | null} at
 * @param {number} now host time (ms)
 */
export const fresh = (at, now) => at === null || at > now - STALL_MS;

/** The source has been silent long enough to decode what a slow page skipped. @param {number} silentForMs */
export const quiet = (silentForMs) => silentForMs > STALL_MS / 2;

/**
 * The "no signal" mark of a live source's element `el`: shown with why there is no signal
 * (and the slow-path note), hidden while the picture moves; `el.dataset.signal` says which.
 * @param {HTMLElement} el
 * @param {boolean} decodes this page decodes live frames itself
 */
export function signalMark(el, decodes) {
  const mark = document.createElement("div");
  mark.className = "nosignal";
  mark.hidden = true;
  el.appendChild(mark);
  return {
    /** @param {string | null} why */
    show(why) {
      const text = markText(why, decodes);
      mark.hidden = !text;
      mark.classList.toggle("slow", !why);
      if (text && mark.textContent !== text) {
        mark.textContent = text;
        mark.title = text;
      }
      el.dataset.signal = why ? "lost" : "live";
    },
  };
}
