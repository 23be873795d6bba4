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
 * The slot at `positionMs`: {index, offsetMs, ended}; null for an empty list.
 * Without repeat, a position past the end holds the last item at its end.
 */
export function locate(items, positionMs, repeat) {
  if (!items.length) return null;
  const total = totalMs(items);
  const last = items.length - 1;
  if (total <= 0) return { index: 0, offsetMs: 0, ended: !repeat };
  let position = Math.max(positionMs, 0);
  if (position >= total) {
    if (!repeat) return { index: last, offsetMs: Math.max(items[last].durationMs, 0), ended: true };
    position %= total;
  }
  for (let index = 0; index < items.length; index++) {
    const duration = Math.max(items[index].durationMs, 0);
    if (position < duration) return { index, offsetMs: position, ended: false };
    position -= duration;
  }
  return { index: last, offsetMs: Math.max(items[last].durationMs, 0), ended: true };
}

/** Timeline position at host instant `hostMs`. */
export function positionAt(timeline, hostMs) {
  if (timeline.state !== "playing") return timeline.anchorPositionMs;
  return timeline.anchorPositionMs + (hostMs - timeline.anchorMs);
}
