// share/pacing.js: which captured frames the share page encodes, and which as key frames.
import { test } from "node:test";
import assert from "node:assert/strict";

import { KEY_EVERY_MS, MAX_QUEUED, bufferedLimit, pacer } from "../../src/tilewall/web/share/pacing.js";

const IDLE = { queued: 0, buffered: 0, bitrate: 2e6 };

test("the first frame encoded is a key frame, the next ones are not", () => {
  const pace = pacer();
  assert.deepEqual(pace.decide(0, IDLE), { keyFrame: true });
  assert.deepEqual(pace.decide(33, IDLE), { keyFrame: false });
  assert.deepEqual(pace.decide(66, IDLE), { keyFrame: false });
  assert.equal(pace.counts.firstKey, true);
});

test("a frame is dropped, not queued, while the encoder holds MAX_QUEUED frames", () => {
  const pace = pacer();
  pace.decide(0, IDLE);
  for (let queued = 0; queued < MAX_QUEUED; queued += 1) assert.notEqual(pace.decide(33, { ...IDLE, queued }), null);
  assert.equal(pace.decide(66, { ...IDLE, queued: MAX_QUEUED }), null);
  assert.equal(pace.decide(99, { ...IDLE, queued: MAX_QUEUED + 3 }), null);
  assert.equal(pace.counts.dropped, 2);
  assert.equal(pace.counts.maxQueued, MAX_QUEUED - 1); // never more than MAX_QUEUED waiting
});

test("a frame is dropped while the connection has a tenth of a second of the bit rate to send", () => {
  const pace = pacer();
  pace.decide(0, IDLE);
  assert.equal(bufferedLimit(8e6), 100_000);
  assert.equal(pace.decide(33, { ...IDLE, bitrate: 8e6, buffered: 100_001 }), null);
  assert.notEqual(pace.decide(66, { ...IDLE, bitrate: 8e6, buffered: 99_000 }), null);
  // a slow picture still lets a key frame's worth through
  assert.notEqual(pace.decide(99, { ...IDLE, bitrate: 5e5, buffered: 60_000 }), null);
});

test("dropped frames do not make the next one a key frame (the encoder never saw them)", () => {
  const pace = pacer();
  pace.decide(0, IDLE);
  for (let n = 1; n < 20; n += 1) pace.decide(n * 33, { ...IDLE, queued: MAX_QUEUED });
  assert.deepEqual(pace.decide(700, IDLE), { keyFrame: false });
  assert.equal(pace.counts.keys, 1);
});

test("a key frame every KEY_EVERY_MS, and the next frame after the host asks", () => {
  const pace = pacer();
  pace.decide(0, IDLE);
  assert.deepEqual(pace.decide(KEY_EVERY_MS - 1, IDLE), { keyFrame: false });
  assert.deepEqual(pace.decide(KEY_EVERY_MS, IDLE), { keyFrame: true });
  pace.askKey();
  assert.equal(pace.decide(KEY_EVERY_MS + 33, { ...IDLE, queued: MAX_QUEUED }), null);
  assert.deepEqual(pace.decide(KEY_EVERY_MS + 66, IDLE), { keyFrame: true }); // still owed after a drop
  assert.deepEqual(pace.decide(KEY_EVERY_MS + 99, IDLE), { keyFrame: false });
});
