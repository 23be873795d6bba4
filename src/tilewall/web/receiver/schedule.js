// A playlist as a deterministic schedule over a timeline position.
// The same computation as the host's tilewall/host/schedule.py: every tile of a wall
// and every member of a mirror group shows the same item at the same position.

/** Sum of the (non-negative) durations of `items` ({durationMs}). */
export function totalMs(items) {
  let total = 0;
  for (const item of items) total += Math.max(item.durationMs, 0);
  return total;
}

/**
 * The slot at `positionMs`: {index, offsetMs, ended, key}; null for an empty list.
 * Without repeat, a position past the end holds the last item at its end. `key` numbers
 * the slots from the start of the timeline (pass × items + index): the next pass of a
 * looping list is another slot, played by another media element, started on its instant.
 */
export function locate(items, positionMs, repeat) {
  if (!items.length) return null;
  const total = totalMs(items);
  const last = items.length - 1;
  if (total <= 0) return { index: 0, offsetMs: 0, ended: !repeat, key: 0 };
  let position = Math.max(positionMs, 0);
  let pass = 0;
  if (position >= total) {
    if (!repeat) return { index: last, offsetMs: Math.max(items[last].durationMs, 0), ended: true, key: last };
    pass = Math.floor(position / total);
    position -= pass * total;
  }
  for (let index = 0; index < items.length; index++) {
    const duration = Math.max(items[index].durationMs, 0);
    if (position < duration) return { index, offsetMs: position, ended: false, key: pass * items.length + index };
    position -= duration;
  }
  return { index: last, offsetMs: Math.max(items[last].durationMs, 0), ended: true, key: pass * items.length + last };
}

/** Timeline position at which slot `key` (see locate) starts. */
export function slotStartMs(items, key) {
  const n = items.length;
  const pass = Math.floor(key / n);
  let start = pass * totalMs(items);
  for (let i = 0; i < key - pass * n; i++) start += Math.max(items[i].durationMs, 0);
  return start;
}

/**
 * The host instant a playing timeline starts moving on screen: `startMs` (the host
 * schedules starts a short lead after the anchor, so that every receiver pre-rolls and
 * starts on that one instant); the anchor for a description without it.
 */
export function startOf(timeline) {
  return Number.isFinite(timeline.startMs) ? Math.max(timeline.startMs, timeline.anchorMs) : timeline.anchorMs;
}

/** Timeline position at host instant `hostMs`; before its start it holds where it starts. */
export function positionAt(timeline, hostMs) {
  if (timeline.state !== "playing") return timeline.anchorPositionMs;
  return timeline.anchorPositionMs + (Math.max(hostMs, startOf(timeline)) - timeline.anchorMs);
}

/** The host instant a playing timeline is at `positionMs` (not before its start). */
export function instantOf(timeline, positionMs) {
  return Math.max(timeline.anchorMs + (positionMs - timeline.anchorPositionMs), startOf(timeline));
}
