// What a live source's page reports of its timing (receiver/live-margins.js): the margins
// of the frames sent as they came, never those a join starts with.
import { test } from "node:test";
import assert from "node:assert/strict";

import { COUNT_AFTER_MS, MAX_MARGINS, liveMargins } from "../../src/tilewall/web/receiver/live-margins.js";

function clock() {
  let t = 0;
  return { now: () => t, pass: (/** @type {number} */ ms) => (t += ms) };
}

test("nothing is reported before the host said the frames are current", () => {
  const c = clock();
  const m = liveMargins(c.now);
  m.note(-800); // a frame kept since the last key frame: its instant passed
  m.note(30);
  assert.equal(m.take(), null);
});

test("after the join, counting starts at the first frame ready in time", () => {
  const c = clock();
  const m = liveMargins(c.now);
  m.current();
  m.note(-40); // the decoder still catching up with the join's frames
  m.note(-5);
  m.note(12.34);
  m.note(-3);
  assert.deepEqual(JSON.parse(/** @type {string} */ (m.take())), { type: "margins", ms: [12.3, -3] });
  assert.equal(m.take(), null); // taken
});

test("a page never in time reports too, once the join is well past", () => {
  const c = clock();
  const m = liveMargins(c.now);
  m.current();
  m.note(-30);
  c.pass(COUNT_AFTER_MS);
  m.note(-25);
  assert.deepEqual(JSON.parse(/** @type {string} */ (m.take())).ms, [-25]);
});

test("a dropped connection forgets what was noted and waits for the next join", () => {
  const c = clock();
  const m = liveMargins(c.now);
  m.current();
  m.note(20);
  m.rejoin();
  m.note(20);
  assert.equal(m.take(), null);
});

test("a report holds at most what the host takes", () => {
  const m = liveMargins(clock().now);
  m.current();
  for (let n = 0; n < MAX_MARGINS + 50; n++) m.note(15);
  assert.equal(JSON.parse(/** @type {string} */ (m.take())).ms.length, MAX_MARGINS);
});
