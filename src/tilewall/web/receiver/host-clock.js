// The host's clock as a receiver page reads it (docs/protocol.md, "time"): each exchange
// gives the offset of the host's clock from the page's and the round trip; the offset of
// the exchange with the shortest round trip among the last few is the one believed.

const CLOCK_SAMPLES = 16;

/** @typedef {{rtt: number, offset: number}} ClockSample */

/**
 * The host's clock: `offset` (host ms minus page ms) and `rtt` (ms; null before an
 * exchange) from the best of the last `keep` exchanges.
 * @param {number} [keep]
 */
export function hostClock(keep = CLOCK_SAMPLES) {
  return {
    /** @type {ClockSample[]} newest last */
    samples: [],
    offset: 0,
    /** @type {number | null} */
    rtt: null,
    /**
     * One exchange: the page asked at t0 and heard back at t3 (its clock), the host took
     * the question at t1 and answered at t2 (the host's).
     * @param {number} t0 @param {number} t1 @param {number} t2 @param {number} t3
     */
    add(t0, t1, t2, t3) {
      const rtt = Math.max(t3 - t0 - (t2 - t1), 0);
      const offset = (t1 - t0 + (t2 - t3)) / 2;
      this.samples.push({ rtt, offset });
      if (this.samples.length > keep) this.samples.shift();
      const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
      this.offset = best.offset;
      this.rtt = best.rtt;
    },
    /**
     * The host said its time (`hostMs`) without an exchange: believed only while there is
     * no exchange to go by.
     * @param {number} hostMs @param {number} localMs the page's clock when it was heard
     */
    roughly(hostMs, localMs) {
      if (!this.samples.length) this.offset = hostMs - localMs;
    },
  };
}
