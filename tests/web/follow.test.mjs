// receiver/follow.js: the rate bias a muted video plays with, where it puts the video,
// and drive() moving a video element (a fake one here) to the host timeline.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BIAS, BIAS_HOLD_MS, BIAS_SPAN_MS, SEEK_ABOVE_S, TURN_MS, TURN_RATE, bias, drive, joinLeadMs, offset } from "../../src/tilewall/web/receiver/follow.js";

const PERIOD_MS = 2 * (BIAS_HOLD_MS + TURN_MS);

test("the bias starts up, held, and runs up, turn down, down, turn up over its period", () => {
  const from = 50_000;
  // a medium starts at the top of the first turn's end: biased up at once
  assert.equal(bias(from, from), BIAS);
  assert.equal(bias(from + BIAS_HOLD_MS - 1, from), BIAS);
  assert.equal(bias(from + BIAS_HOLD_MS, from), -TURN_RATE);
  assert.equal(bias(from + BIAS_HOLD_MS + TURN_MS, from), -BIAS);
  assert.equal(bias(from + 2 * BIAS_HOLD_MS + TURN_MS, from), TURN_RATE);
  assert.equal(bias(from + PERIOD_MS, from), BIAS);
  // before the medium's start the pattern runs backwards the same way
  assert.equal(bias(from - TURN_MS / 2, from), TURN_RATE);
});

test("the offset is what the bias adds up to: its slope is the bias, everywhere", () => {
  const from = 1234.5;
  for (let h = from - PERIOD_MS; h < from + 2 * PERIOD_MS; h += 7.3) {
    const b = bias(h, from);
    if (bias(h + 1, from) !== b) continue; // a turn within the step
    const slope = (offset(h + 1, from) - offset(h, from)) * 1000;
    assert.ok(Math.abs(slope - b) < 1e-9, `slope ${slope} against bias ${b} at ${h - from}`);
  }
});

test("the offset stays within half the span each way and comes back each period", () => {
  const from = 0;
  let low = Infinity;
  let high = -Infinity;
  for (let h = 0; h < PERIOD_MS; h += 0.5) {
    const o = offset(h, from) * 1000;
    low = Math.min(low, o);
    high = Math.max(high, o);
    assert.ok(Math.abs(offset(h + PERIOD_MS, from) - offset(h, from)) < 1e-12);
  }
  assert.ok(Math.abs(high - BIAS_SPAN_MS / 2) < 0.01, `high ${high}`);
  assert.ok(Math.abs(low + BIAS_SPAN_MS / 2) < 0.01, `low ${low}`);
  // no jump at the period's edge
  assert.ok(Math.abs(offset(PERIOD_MS - 1e-6, from) - offset(0, from)) < 1e-9);
});

/** A video element as drive() sees it: seeks land at once, play() starts at once. */
function fakeVideo({ currentTime = 0, paused = true, muted = true, duration = 600 } = {}) {
  return {
    currentTime,
    paused,
    muted,
    duration,
    ended: false,
    seeking: false,
    readyState: 4,
    playbackRate: 1,
    plays: 0,
    play() {
      this.paused = false;
      this.plays += 1;
      return Promise.resolve();
    },
    pause() {
      this.paused = true;
    },
    addEventListener() {},
  };
}

function recorder() {
  const wakes = [];
  const logs = [];
  return { wakes, logs, wake: (h) => wakes.push(h), log: (r) => logs.push(r) };
}

test("a paused timeline holds the video at its position", () => {
  const video = fakeVideo({ currentTime: 3, paused: false });
  const r = recorder();
  const shows = drive(video, 10_000, () => ({ s: 42, moving: false, startsAt: null, from: null }), r.wake, r.log);
  assert.equal(video.paused, true);
  assert.equal(video.currentTime, 42);
  assert.equal(shows, true);
});

test("a start at a known instant is cued: held where it will start, played on the instant", () => {
  const video = fakeVideo();
  const r = recorder();
  const startsAt = 20_000;
  const target = (h) => (h < startsAt ? { s: 5, moving: false, startsAt, from: startsAt } : { s: 5 + (h - startsAt) / 1000, moving: true, startsAt: null, from: startsAt });
  assert.equal(drive(video, 19_000, target, r.wake, r.log), true);
  assert.equal(video.paused, true);
  // held at the start position plus what the bias will have added at the start
  assert.ok(Math.abs(video.currentTime - (5 + offset(startsAt, startsAt))) < 1e-9);
  assert.equal(video.plays, 0);
  const callAt = r.wakes.at(-1);
  assert.ok(callAt < startsAt && callAt > startsAt - 50, `called at ${callAt}`);
  // on its instant (less the start latency) it plays, at the biased rate
  assert.equal(drive(video, callAt, target, r.wake, r.log), true);
  assert.equal(video.plays, 1);
  assert.equal(video.playbackRate, 1 + bias(startsAt, startsAt));
});

test("a cue called too late is not played but given an instant of its own", () => {
  const video = fakeVideo();
  const r = recorder();
  const startsAt = 20_000;
  const target = (h) => (h < startsAt ? { s: 5, moving: false, startsAt, from: startsAt } : { s: 5 + (h - startsAt) / 1000, moving: true, startsAt: null, from: startsAt });
  drive(video, 19_000, target, r.wake, r.log);
  const late = startsAt + SEEK_ABOVE_S * 1000 + 10;
  assert.equal(drive(video, late, target, r.wake, r.log), false);
  assert.equal(video.plays, 0);
  assert.equal(r.logs.length, 1);
  assert.equal(r.logs[0].missed, true);
  const joinAt = r.wakes.at(-1);
  assert.ok(joinAt > late && joinAt <= late + joinLeadMs(), `join woken at ${joinAt - late} ms`);
});

const moving = (from) => (h) => ({ s: (h - from) / 1000, moving: true, startsAt: null, from });

test("a playing video ahead by more than the deadband is slowed, and driven again soon", () => {
  const from = 0;
  const now = 60_000;
  const video = fakeVideo({ paused: false });
  video.currentTime = (now - from) / 1000 + offset(now, from) + 0.010; // 10 ms ahead
  const r = recorder();
  assert.equal(drive(video, now, moving(from), r.wake, r.log), true);
  assert.ok(Math.abs(video.playbackRate - (1 + bias(now, from) - 16 * 0.010)) < 1e-9, `rate ${video.playbackRate}`);
  assert.deepEqual(r.wakes, [now + 50]);
});

test("a small error is trimmed gently and the next wake is the bias's next turn", () => {
  const from = 0;
  const now = 60_000;
  const video = fakeVideo({ paused: false });
  video.currentTime = (now - from) / 1000 + offset(now, from) - 0.0005; // 0.5 ms behind
  const r = recorder();
  drive(video, now, moving(from), r.wake, r.log);
  const rate = video.playbackRate - 1 - bias(now, from);
  assert.ok(rate > 0 && rate <= 0.0015 + 1e-12, `trim ${rate}`);
  const turn = r.wakes[0];
  assert.ok(turn > now && turn - now <= BIAS_HOLD_MS);
  assert.notEqual(bias(turn - 0.01, from), bias(turn + 0.01, from));
});

test("a video with sound plays at rate 1, without bias or trim", () => {
  const now = 60_000;
  const video = fakeVideo({ paused: false, muted: false });
  video.currentTime = now / 1000 - 0.0005;
  const r = recorder();
  drive(video, now, moving(0), r.wake, r.log);
  assert.equal(video.playbackRate, 1);
  assert.deepEqual(r.wakes, []);
});

test("a video far off while it plays joins again: held, and started at an instant ahead", () => {
  const now = 60_000;
  const video = fakeVideo({ paused: false });
  video.currentTime = now / 1000 + 2; // two seconds ahead
  const r = recorder();
  assert.equal(drive(video, now, moving(0), r.wake, r.log), true);
  assert.equal(video.paused, true);
  const go = now + joinLeadMs();
  assert.ok(Math.abs(video.currentTime - (go / 1000 + offset(go, 0))) < 1e-9);
  assert.ok(r.wakes.at(-1) < go && r.wakes.at(-1) > now);
});

test("a position past the end of the medium holds at the end", () => {
  const video = fakeVideo({ paused: false, duration: 10 });
  const r = recorder();
  drive(video, 60_000, moving(0), r.wake, r.log);
  assert.equal(video.paused, true);
  assert.equal(video.currentTime, 10);
});
