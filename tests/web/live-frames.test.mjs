// A live source's frames in the receiver page: the wire's frame header and what a decoder
// does with each frame (receiver/live-decoder.js), and the decoded frames waiting for
// their host instant (receiver/live-canvas.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { BEHIND_MS, STALE_MS, admit, readFrame } from "../../src/tilewall/web/receiver/live-decoder.js";
import { placeOfPart, visiblePart, waitingFrames } from "../../src/tilewall/web/receiver/live-canvas.js";

/** A binary message of the wire: flags, the instant as a big-endian float64, the frame. */
function message(key, at, payload = 4) {
  const data = new ArrayBuffer(9 + payload);
  const view = new DataView(data);
  view.setUint8(0, key ? 1 : 0);
  view.setFloat64(1, at);
  return data;
}

test("a frame's header says key frame and instant", () => {
  assert.deepEqual(readFrame(message(true, 1234.5)), { key: true, at: 1234.5 });
  assert.deepEqual(readFrame(message(false, 1e12 + 0.25)), { key: false, at: 1e12 + 0.25 });
});

test("a message without a frame after its header is no frame", () => {
  assert.equal(readFrame(message(true, 5, 0)), null);
  assert.equal(readFrame(new ArrayBuffer(3)), null);
});

const NOW = 100_000;
const keepingUp = { needKey: false, caughtUp: true, queued: 0, newestIn: NOW, newestOut: NOW, tail: 0 };

test("a decoder keeping up decodes every frame", () => {
  assert.deepEqual(admit({ key: false, at: NOW }, keepingUp, NOW), { action: "decode" });
  assert.deepEqual(admit({ key: true, at: NOW }, keepingUp, NOW), { action: "decode" });
});

test("joined between key frames: deltas are skipped, not kept, until a key frame", () => {
  const joined = { ...keepingUp, needKey: true, caughtUp: false };
  assert.deepEqual(admit({ key: false, at: NOW }, joined, NOW), { action: "skip", keep: false });
  assert.deepEqual(admit({ key: true, at: NOW }, joined, NOW), { action: "decode" });
});

test("a decoder whose output lags skips deltas (kept for finish) and resets at the next key frame", () => {
  const slow = { ...keepingUp, queued: 3, newestOut: NOW - BEHIND_MS - 1 };
  assert.deepEqual(admit({ key: false, at: NOW }, slow, NOW), { action: "skip", keep: true });
  // once skipping, the chain goes on being kept while a tail is held
  assert.deepEqual(admit({ key: false, at: NOW }, { ...slow, needKey: true, tail: 2 }, NOW), { action: "skip", keep: true });
  assert.deepEqual(admit({ key: true, at: NOW }, slow, NOW), { action: "reset" });
  // exactly BEHIND_MS behind is still keeping up; an empty queue owes nothing
  assert.deepEqual(admit({ key: false, at: NOW }, { ...slow, newestOut: NOW - BEHIND_MS }, NOW), { action: "decode" });
  assert.deepEqual(admit({ key: false, at: NOW }, { ...slow, queued: 0 }, NOW), { action: "decode" });
});

test("a page reading frames too late skips to key frames; before it caught up after a join it does not", () => {
  const late = NOW - STALE_MS - 1;
  assert.deepEqual(admit({ key: false, at: late }, keepingUp, NOW), { action: "skip", keep: true });
  assert.deepEqual(admit({ key: true, at: late }, keepingUp, NOW), { action: "reset" });
  assert.deepEqual(admit({ key: false, at: late }, { ...keepingUp, caughtUp: false }, NOW), { action: "decode" });
});

/** A decoded frame stand-in: its timestamp in µs, and whether it was closed. */
const frame = (ms) => ({ timestamp: ms * 1000, closed: false, close() { this.closed = true; } });

test("frames wait for their instant and come out in order of it", () => {
  const waiting = waitingFrames();
  const [a, b, c] = [frame(30), frame(10), frame(20)];
  for (const f of [a, b, c]) waiting.add(f);
  assert.deepEqual(waiting.due(5), []);
  assert.deepEqual(waiting.due(20), [b, c]);
  assert.equal(waiting.size, 1);
  assert.deepEqual(waiting.due(1000), [a]);
  assert.equal(waiting.size, 0);
  assert.ok(![a, b, c].some((f) => f.closed), "the caller closes what it takes");
});

test("past the limit the oldest waiting frames are closed", () => {
  const waiting = waitingFrames(2);
  const frames = [frame(1), frame(2), frame(3)];
  for (const f of frames) waiting.add(f);
  assert.equal(waiting.size, 2);
  assert.deepEqual(frames.map((f) => f.closed), [true, false, false]);
  waiting.clear();
  assert.equal(waiting.size, 0);
  assert.ok(frames.every((f) => f.closed));
});

const SCREEN = { width: 320, height: 180 };
const HD = { width: 1280, height: 720 };
/** The corners (top left, top right, bottom left) of a box placed by `at(x, y)`. */
const cornersOf = (box, at) => [at(0, 0), at(box.width, 0), at(0, box.height)];

test("a picture shown whole on the screen is drawn whole", () => {
  const at = (x, y) => ({ x, y });
  assert.equal(visiblePart(cornersOf(SCREEN, at), SCREEN, SCREEN, HD), null);
});

test("the middle tile of a 3x3 wall draws its ninth of the picture, in even pixels", () => {
  const box = { width: 960, height: 540 }; // the zone, three screens a side
  const at = (x, y) => ({ x: x - 320, y: y - 180 });
  assert.deepEqual(visiblePart(cornersOf(box, at), box, SCREEN, HD), { x: 426, y: 240, width: 428, height: 240 });
});

test("a turned tile draws the part turned onto its screen", () => {
  // a 2x2 wall turned half a turn: the screen shows the box's top left quarter, upside down
  const box = { width: 640, height: 360 };
  const at = (x, y) => ({ x: 320 - x, y: 180 - y });
  assert.deepEqual(visiblePart(cornersOf(box, at), box, SCREEN, HD), { x: 0, y: 0, width: 640, height: 360 });
});

test("a letterboxed picture: the part of the frame in the part of the box on screen", () => {
  // a 4:3 box, the 16:9 frame across its width with bars above and below; its left half on screen
  const box = { width: 640, height: 480 };
  const at = (x, y) => ({ x, y: y * (180 / 480) });
  assert.deepEqual(visiblePart(cornersOf(box, at), box, { width: 320, height: 180 }, HD), { x: 0, y: 0, width: 640, height: 720 });
});

test("the canvas of a part lies over that part of the picture's box", () => {
  // the middle tile's ninth of a 1280x720 frame, in a 960x540 box: two thirds of its size
  assert.deepEqual(placeOfPart({ x: 426, y: 240, width: 428, height: 240 }, { width: 960, height: 540 }, HD), { x: 319.5, y: 180, width: 321, height: 180 });
  // a letterboxed picture: its part below the bar above it
  assert.deepEqual(placeOfPart({ x: 0, y: 0, width: 640, height: 720 }, { width: 640, height: 480 }, HD), { x: 0, y: 60, width: 320, height: 360 });
});

test("a picture off the screen draws nothing", () => {
  const at = (x, y) => ({ x: x + 1000, y });
  const part = visiblePart(cornersOf(SCREEN, at), SCREEN, SCREEN, HD);
  assert.ok(part && part.width * part.height === 0, JSON.stringify(part));
});
