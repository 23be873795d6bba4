// Playing one video element to the host timeline, frame-accurately (docs/protocol.md,
// "Playing to the timeline").
//
// drive(video, now, target, wake, log) moves `video` towards what the timeline wants at
// host instant `now` and says whether it shows the right picture (to be shown).
//   target(h) -> {s, moving, startsAt}: the position (seconds) the element should be at
//     at host instant h, whether the timeline moves it then, and, while it does not yet,
//     the host instant it starts moving at (null: it holds);
//   wake(h): drive again at host instant h; log(record): a start, for sync measurements.
//
// Every start is a cue: the element is paused at the position it must have at the
// start instant (pre-roll: seeked there, a frame decoded) and play() is called at that
// instant, less the time play() takes to start here (learned from the starts). The host
// gives the instants: a timeline's start (`startMs`), the start of the next item's slot,
// the next pass of a looping list (another element, pre-rolled under the one shown).
// A video not pre-rolled by its instant, or more than SEEK_ABOVE_S off while it plays,
// joins at an instant of its own: now plus as long as a cue takes here (learned from
// its seeks). While it plays, playbackRate removes small errors (a start made late by a
// busy page, drift), on top of the rate bias a muted video plays with (below).

export const SEEK_ABOVE_S = 0.5; // larger errors join again, smaller ones nudge playbackRate
const HOLD_WITHIN_S = 0.008; // a paused video is this close to its position...
const CUE_WITHIN_S = 0.001; // ...and one cued for a start this close: it starts from there
const DEADBAND_S = 0.0025; // a larger error while playing starts a nudge...
const SETTLED_S = 0.001; // ...which goes on until the error is this small
const NUDGE_GAIN = 16; // playbackRate = 1 - gain * error, driven every NUDGE_TICK_MS...
const NUDGE_TICK_MS = 50; // ...while it nudges: an error shrinks to 0.2 of itself per tick
const MAX_NUDGE = 0.25; // playbackRate within 1 +/- this
const LATE_MS = SEEK_ABOVE_S * 1000; // a pre-rolled start called late (a busy page) still
// starts, as late as this: the nudge catches up (joining again would be later still)
const MEASURE_AFTER_MS = 30; // a start is measured (and learned from) this long after
const JOIN_MIN_MS = 120; // a join of its own is at least this far ahead...
const JOIN_MAX_MS = 1500; // ...and at most this far

// Chromium paces a video's frames by a cadence it finds between the frame rate and the
// screen's (25 fps on 60 Hz: 2,3,2,3,2 vsyncs) whenever the rate it measures (a moving
// average over about a second of frames) is within a quarter of a percent of 1. Under a
// cadence the frames keep to where the first one fell and ignore the clock by up to
// 20 ms, so tiles that started a few ms apart stay a vsync apart whatever their clocks
// do. Outside that band it shows, on each vsync, the frame the clock gives. So a muted
// video (every tile) never plays at rate 1: 1 + BIAS for BIAS_HOLD_MS, then 1 - BIAS as
// long, turning each time with TURN_MS at 1 -/+ TURN_RATE, which carries the average
// through the band faster than Chromium takes up a cadence (100 ms). The turns fall on
// host instants counted from the medium's start (below), the same for every receiver,
// and the position follows what the rate makes of it (offset(), within +/-
// BIAS_SPAN_MS / 2). A video with sound plays at
// rate 1 (no warble), paced by cadence. The average Chromium measures also carries a
// tile's own corrections (a nudge, the trim) for as long as they stay in its window:
// with this bias, one of up to 8 ms either way, made at any moment, never holds it
// within the band for 100 ms (1.004 for 1.4 s left room for 2 ms).
export const BIAS = 0.006;
export const BIAS_HOLD_MS = 1100;
export const TURN_RATE = 0.15;
export const TURN_MS = 120;
const BIAS_PERIOD_MS = 2 * (BIAS_HOLD_MS + TURN_MS);
export const BIAS_SPAN_MS = TURN_RATE * TURN_MS + BIAS * BIAS_HOLD_MS;
const TRIM_GAIN = 2; // within the deadband: rate + -gain * error...
const TRIM_MAX = 0.0015; // ...within this

// The bias runs from the instant the medium starts moving (`from`, the same on every
// receiver): a start falls where it holds up. A tile that starts late (the usual way: a
// busy page) then catches up the way the bias goes. One that catches up against it
// right after a start, while Chromium averages afresh, brings that average into the
// band for as long as 170 ms per ms it catches up, and is taken into a cadence. The
// turn up is behind it then: the offset at a start is +5.7 ms, so a start at the first
// frame of a medium never falls before it.
const START_PHASE_MS = TURN_MS;

function phase(h, from) {
  const x = h - from + START_PHASE_MS;
  return ((x % BIAS_PERIOD_MS) + BIAS_PERIOD_MS) % BIAS_PERIOD_MS;
}

/**
 * The rate bias at host instant `h` (a turn up, up, a turn down, down) of a medium that
 * started moving at `from`.
 */
export function bias(h, from) {
  const u = phase(h, from);
  if (u < TURN_MS) return TURN_RATE;
  if (u < TURN_MS + BIAS_HOLD_MS) return BIAS;
  if (u < 2 * TURN_MS + BIAS_HOLD_MS) return -TURN_RATE;
  return -BIAS;
}

/** Where the bias has put a playing video at host instant `h`, in seconds (zero mean). */
export function offset(h, from) {
  const u = phase(h, from);
  const up = TURN_RATE * TURN_MS;
  let ms;
  if (u < TURN_MS) ms = TURN_RATE * u;
  else if (u < TURN_MS + BIAS_HOLD_MS) ms = up + BIAS * (u - TURN_MS);
  else if (u < 2 * TURN_MS + BIAS_HOLD_MS) ms = BIAS_SPAN_MS - TURN_RATE * (u - TURN_MS - BIAS_HOLD_MS);
  else ms = BIAS * BIAS_HOLD_MS - BIAS * (u - 2 * TURN_MS - BIAS_HOLD_MS);
  return (ms - BIAS_SPAN_MS / 2) / 1000;
}

/**
 * The bias of `video` at host instant `h` (none for a video with sound); a medium not
 * moving (`from` null) has the bias it will start with.
 */
function biasOf(video, h, from) {
  return video.muted ? bias(h, from ?? h) : 0;
}

/** Where the bias has put `video`, moving since `from`, at host instant `h` (seconds). */
function offsetOf(video, h, from) {
  return video.muted ? offset(h, from) : 0;
}

/**
 * Set up a new video element before it loads: a muted one starts biased, since the frames
 * it decodes while loading already count in the rate Chromium measures.
 */
export function prepare(video) {
  if (!video.muted) return;
  video.defaultPlaybackRate = 1 + BIAS;
  video.playbackRate = 1 + BIAS;
}

/** The next host instant after `h` the bias changes. */
function nextTurn(h, from) {
  const u = phase(h, from);
  const edges = [TURN_MS, TURN_MS + BIAS_HOLD_MS, 2 * TURN_MS + BIAS_HOLD_MS, BIAS_PERIOD_MS];
  return h - u + (edges.find((e) => e > u) ?? BIAS_PERIOD_MS); // u < BIAS_PERIOD_MS
}

// learned on this page: how long play() takes to start the media clock (the median of the
// last starts measured, the first ones beside a prior: the first play() after a load is
// slow and must not set it), how long seeks take
const LATENCY_PRIOR_MS = 2;
const LATENCY_KEPT = 7;
const latencies = [LATENCY_PRIOR_MS, LATENCY_PRIOR_MS, LATENCY_PRIOR_MS];
let startLatencyMs = LATENCY_PRIOR_MS;
let seekMs = 60;

function learnLatency(ms) {
  latencies.push(ms);
  if (latencies.length > LATENCY_KEPT) latencies.shift();
  const sorted = [...latencies].sort((a, b) => a - b);
  startLatencyMs = sorted[sorted.length >> 1];
}

// The screen's refresh: a playing video's frames are shown on its vsyncs, and a start
// anywhere within one vsync interval shows the same frames on the same vsyncs (Chromium
// paces frames by cadence from the first one). So a cue's start is moved to the middle
// of the vsync interval its instant falls in (the first middle not before it): receivers
// of one grid start within the same interval, far from its edges.
const vsync = { first: null, at: null, ms: 1000 / 60 }; // performance times of vsyncs, interval
(function measureRefresh() {
  if (typeof requestAnimationFrame !== "function") return;
  const times = [];
  const frame = (t) => {
    times.push(t);
    if (times.length < 24) {
      requestAnimationFrame(frame);
      return;
    }
    const gaps = times.slice(1).map((x, i) => x - times[i]).sort((a, b) => a - b);
    const median = gaps[gaps.length >> 1];
    if (median > 5 && median < 50) vsync.ms = median;
    if (vsync.at == null) vsync.at = times[times.length - 1];
  };
  requestAnimationFrame(frame);
})();

/**
 * A vsync instant seen (performance time): a presented frame's expectedDisplayTime. The
 * interval is refined from the span since the first one of the same grid (a change of
 * grid, off by more than 2 ms, starts again from it).
 */
export function noteVsync(t) {
  if (!Number.isFinite(t)) return;
  if (vsync.first != null) {
    const span = t - vsync.first;
    const n = Math.round(span / vsync.ms);
    if (Math.abs(span - n * vsync.ms) > 2) vsync.first = t;
    else if (span > 500 && n > 0) vsync.ms = span / n;
  } else {
    vsync.first = t;
  }
  vsync.at = t;
}

/** The first middle of a vsync interval not before host instant `at`. */
function aligned(at, hostMinusLocal) {
  if (vsync.at == null) return at;
  const local = at - hostMinusLocal;
  const k = Math.ceil((local - vsync.at) / vsync.ms - 0.5);
  return vsync.at + (k + 0.5) * vsync.ms + hostMinusLocal;
}

/** How far ahead a join of a video's own is set: twice a seek, and two frames. */
export function joinLeadMs() {
  return Math.min(Math.max(2 * seekMs + 80, JOIN_MIN_MS), JOIN_MAX_MS);
}

function state(video) {
  if (!video._tw) video._tw = { cue: null, started: null, nudging: false };
  return video._tw;
}

/**
 * Pause at `s` (seconds), seeking there when farther than `within`, at the rate it
 * will play on at host instant `at` (frames decoded now are measured at it).
 */
function hold(video, s, at, from, within = HOLD_WITHIN_S) {
  if (!video.paused) video.pause();
  setRate(video, 1 + biasOf(video, at, from));
  if (video.readyState < 1 || video.seeking) return;
  const duration = video.duration;
  const to = Number.isFinite(duration) && duration > 0 ? Math.min(s, duration) : s;
  if (Math.abs(video.currentTime - to) <= within) return;
  const began = performance.now();
  video.addEventListener("seeked", () => (seekMs = (seekMs + Math.min(performance.now() - began, JOIN_MAX_MS)) / 2), { once: true });
  video.currentTime = to;
}

/** Paused at `s` with a decoded frame there. */
function ready(video, s, within = HOLD_WITHIN_S) {
  if (video.readyState < 2 || video.seeking) return false;
  const duration = video.duration;
  const to = Number.isFinite(duration) && duration > 0 ? Math.min(s, duration) : s;
  return Math.abs(video.currentTime - to) <= within;
}

/**
 * Within the deadband a biased video still leans towards zero error, gently: never so
 * much that its rate comes within Chromium's cadence band (|bias| - TRIM_MAX >= 0.0025).
 */
function trim(video, error) {
  if (!video.muted) return 0;
  return Math.min(TRIM_MAX, Math.max(-TRIM_MAX, -TRIM_GAIN * error));
}

function setRate(video, rate) {
  if (video.playbackRate !== rate) video.playbackRate = rate;
}

function play(video) {
  video
    .play()
    .catch(() => {
      // autoplay with sound refused: play muted rather than not at all
      video.muted = true;
      return video.play();
    })
    .catch(() => {});
}

/** A cue for host instant `at` (the timeline's or the slot's), started on `go` (aligned). */
function cueAt(video, at, target, kind, now) {
  const hostMinusLocal = now - performance.now();
  const go = aligned(at, hostMinusLocal);
  const { s, from } = target(go);
  return { at, go, from, s: s + offsetOf(video, go, from), kind, readyAt: null };
}

/**
 * Drive `video` to the timeline at host instant `now`; true when it shows the right
 * picture: playing within SEEK_ABOVE_S of its position, or held (cued) at it.
 */
export function drive(video, now, target, wake, log) {
  const st = state(video);
  const t = target(now);
  const end = Number.isFinite(video.duration) && video.duration > 0 ? video.duration : Infinity;
  if ((!t.moving && t.startsAt == null) || t.s >= end) {
    st.cue = null; // paused, or ended: hold at the position
    st.started = null;
    hold(video, t.s, now, t.from);
    return ready(video, t.s);
  }
  if (!t.moving) {
    // the timeline (or this item's slot) starts at a known instant: pre-roll for it
    if (!st.cue || st.cue.at !== t.startsAt) st.cue = cueAt(video, t.startsAt, target, "start", now);
  } else if (!st.cue && (video.paused || video.ended)) {
    st.cue = cueAt(video, now + joinLeadMs(), target, "join", now); // moving without us: join
  }
  if (st.cue) return cued(video, st, now, target, wake, log);
  measureStart(video, st, now, target, log);
  if (st.started) return true; // just started: left alone until measured
  const error = video.currentTime - t.s - offsetOf(video, now, t.from); // > 0: ahead of the host
  if (video.seeking || video.readyState < 2) return false;
  if (Math.abs(error) > SEEK_ABOVE_S) {
    st.cue = cueAt(video, now + joinLeadMs(), target, "join", now);
    return cued(video, st, now, target, wake, log);
  }
  // Hysteresis: a nudge stops near zero rather than at the deadband's edge, so tiles
  // that catch up from either side end up together.
  st.nudging = Math.abs(error) > (st.nudging ? SETTLED_S : DEADBAND_S);
  const nudge = st.nudging
    ? Math.min(MAX_NUDGE, Math.max(-MAX_NUDGE, -NUDGE_GAIN * error))
    : trim(video, error);
  setRate(video, 1 + biasOf(video, now, t.from) + nudge);
  if (st.nudging) wake(now + NUDGE_TICK_MS);
  else if (video.muted) wake(nextTurn(now, t.from));
  return Math.abs(error) < SEEK_ABOVE_S;
}

/** A cue: held at its position until its instant (less the start latency), then play. */
function cued(video, st, now, target, wake, log) {
  const cue = st.cue;
  const callAt = cue.go - startLatencyMs;
  const isReady = ready(video, cue.s, CUE_WITHIN_S);
  if (isReady && cue.readyAt == null) cue.readyAt = now;
  if (now < callAt) {
    hold(video, cue.s, cue.go, cue.from, CUE_WITHIN_S);
    wake(callAt);
    return ready(video, cue.s, CUE_WITHIN_S);
  }
  if (cue.s >= video.duration) {
    hold(video, cue.s, cue.go, cue.from, CUE_WITHIN_S); // a cue at the end of the medium: it ends there
    return isReady;
  }
  if (isReady && now <= callAt + LATE_MS) {
    st.cue = null;
    st.nudging = false;
    setRate(video, 1 + biasOf(video, cue.go, cue.from));
    play(video);
    st.started = { cue, calledAt: now, lateMs: now - callAt };
    wake(now + MEASURE_AFTER_MS);
    return true;
  }
  // missed it (not pre-rolled in time, or called too late): an instant of its own
  if (log) log({ kind: cue.kind, atMs: cue.at, readyMs: cue.readyAt, missed: true, calledMs: now });
  st.cue = cueAt(video, now + joinLeadMs(), target, "join", now);
  hold(video, st.cue.s, st.cue.go, st.cue.from, CUE_WITHIN_S);
  wake(st.cue.go - startLatencyMs);
  return false;
}

/** A start just made: once it has run a while, when did its clock really start? */
function measureStart(video, st, now, target, log) {
  const started = st.started;
  if (!started) return;
  if (video.paused || video.seeking) {
    if (now - started.calledAt > 1000) st.started = null; // it never started: drive again
    return;
  }
  if (now - started.calledAt < MEASURE_AFTER_MS) return;
  st.started = null;
  const { cue, calledAt, lateMs } = started;
  // the host instant it left cue.s: what it has played since, less what the bias added
  const moved = video.currentTime - cue.s - (offsetOf(video, now, cue.from) - offsetOf(video, cue.go, cue.from));
  const clockStart = now - moved * 1000;
  const latency = clockStart - calledAt;
  if (lateMs < 10 && latency > -50 && latency < 250) learnLatency(Math.min(Math.max(latency, 0), 150));
  if (log) log({ kind: cue.kind, atMs: cue.at, goMs: cue.go, readyMs: cue.readyAt, calledMs: calledAt, lateMs, startedMs: clockStart, errorMs: cue.go - clockStart });
}

/** What this page learned (for sync measurements). */
export function learned() {
  return { startLatencyMs, seekMs, joinLeadMs: joinLeadMs(), vsyncMs: vsync.ms };
}
