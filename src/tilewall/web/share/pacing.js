// Which captured frames the share page encodes, and which of them as key frames
// (sender.js). A frame is encoded at once or not at all: while the encoder still holds
// MAX_QUEUED frames or the connection still has about a tenth of a second of the bit
// rate to send, a new frame is dropped before the encoder sees it (the picture goes on
// from the next one: the encoded chain is unbroken, so no key frame is needed for it).
// Key frames: the first, one every KEY_EVERY_MS, and the next one after the host asks.

export const KEY_EVERY_MS = 3000;
/** Frames given the encoder and not yet taken up by it, at most. */
export const MAX_QUEUED = 2;
/** The connection's backlog a new frame waits for, at least (a key frame alone may be this big). */
export const MIN_BUFFERED = 64 * 1024;

/**
 * The bytes still to send over the connection above which a new frame is dropped: a tenth
 * of a second at the bit rate, at least MIN_BUFFERED.
 * @param {number} bitrate bits per second
 */
export function bufferedLimit(bitrate) {
  return Math.max(MIN_BUFFERED, Math.round(bitrate / 8 / 10));
}

/**
 * @typedef {{queued: number, buffered: number, bitrate: number}} Backlog the encoder's
 *   queue (encodeQueueSize), the connection's bytes to send (bufferedAmount), the bit rate
 * @typedef {{encoded: number, keys: number, dropped: number, maxQueued: number, maxBuffered: number, firstKey: boolean | null}} PaceCounts
 */

/** The decisions of one share's sender, and what became of its frames (`counts`). */
export function pacer() {
  let wantKey = true;
  let lastKeyAt = -Infinity;
  /** @type {PaceCounts} */
  const counts = { encoded: 0, keys: 0, dropped: 0, maxQueued: 0, maxBuffered: 0, firstKey: null };
  return {
    counts,
    /** The next frame encoded is a key frame (the host asked; a new encoder). */
    askKey() {
      wantKey = true;
    },
    /**
     * What to do with a frame captured at `now` (ms): null to drop it, else whether to
     * encode it as a key frame.
     * @param {number} now
     * @param {Backlog} backlog
     * @returns {{keyFrame: boolean} | null}
     */
    decide(now, backlog) {
      if (backlog.queued >= MAX_QUEUED || backlog.buffered > bufferedLimit(backlog.bitrate)) {
        counts.dropped += 1;
        return null;
      }
      const keyFrame = wantKey || now - lastKeyAt >= KEY_EVERY_MS;
      if (keyFrame) {
        wantKey = false;
        lastKeyAt = now;
        counts.keys += 1;
      }
      if (counts.firstKey === null) counts.firstKey = keyFrame;
      counts.encoded += 1;
      counts.maxQueued = Math.max(counts.maxQueued, backlog.queued);
      counts.maxBuffered = Math.max(counts.maxBuffered, backlog.buffered);
      return { keyFrame };
    },
  };
}
