// The host's push of its changes: GET /api/console/events, server-sent events. The host
// sends a "revision" event when the stream opens and after each change (coalesced), and
// nothing while nothing changes; the console reads the interface again on each event.

import { BASE } from "./api.js";

const REOPEN_MS = 5000; // a stream the host refused (no session yet, a restart) is tried again

/**
 * Follow the host's changes: `changed()` on each event, the first as the stream opens
 * (for what changed while it was down); `up(isUp)` when the stream opens or is lost.
 * @param {() => void} changed
 * @param {(isUp: boolean) => void} up
 * @returns {() => void} stops following
 */
export function followHost(changed, up) {
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let reopen;
  let stopped = false;
  const open = () => {
    const opened = new EventSource(`${BASE}/console/events`);
    source = opened;
    opened.addEventListener("revision", () => changed());
    opened.onopen = () => up(true);
    opened.onerror = () => {
      up(false);
      // the browser opens a dropped stream again by itself, but not one refused outright
      if (opened.readyState === EventSource.CLOSED && !stopped) {
        opened.close();
        reopen = setTimeout(open, REOPEN_MS);
      }
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(reopen);
    if (source) source.close();
    source = null;
  };
}
