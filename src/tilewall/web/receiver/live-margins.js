// What a live source's page tells the host of its timing (live.js): for each frame it
// decoded, its margin, how long before the frame's instant it was ready to draw
// (negative: too late, drawn out of step with the other tiles). The host sets the
// stream's delay by what its pages report (tilewall.live.latency).
//
// Only frames sent as they came count: not the ones a join starts with (kept since the
// last key frame, their instants passed), nor those decoded while the decoder still
// catches up with them. Counting starts at the first frame ready in time after the host
// said the frames are current, or `COUNT_AFTER_MS` after it said so (a page that is
// never in time must say so too).

export const COUNT_AFTER_MS = 2000;
export const MAX_MARGINS = 240; // as the host takes in one report

/**
 * The margins of one page's frames, taken out once a second for the host.
 * @param {() => number} now performance.now() scale
 */
export function liveMargins(now = () => performance.now()) {
  /** @type {number[]} */
  let margins = [];
  /** @type {number | null} when the host said the frames are current (null: not yet) */
  let currentSince = null;
  let counting = false;

  return {
    /** The host said the frames after this are sent as they come. */
    current() {
      currentSince = now();
      counting = false;
    },
    /** The connection dropped: the next one starts with a join. */
    rejoin() {
      currentSince = null;
      counting = false;
      margins = [];
    },
    /**
     * A frame was decoded, `margin` ms before its instant.
     * @param {number} margin
     */
    note(margin) {
      if (currentSince === null) return;
      if (!counting) counting = margin >= 0 || now() - currentSince >= COUNT_AFTER_MS;
      if (counting && margins.length < MAX_MARGINS) margins.push(Math.round(margin * 10) / 10);
    },
    /** The margins noted since the last call: a report for the host, or null for none. */
    take() {
      if (!margins.length) return null;
      const report = JSON.stringify({ type: "margins", ms: margins });
      margins = [];
      return report;
    },
  };
}
