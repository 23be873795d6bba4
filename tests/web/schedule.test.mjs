// The playlist arithmetic of the receiver (receiver/schedule.js): the same slots as the
// host's, so that every tile of a wall shows the same item at the same position.
import { test } from "node:test";
import assert from "node:assert/strict";

import { instantOf, locate, positionAt, slotStartMs, startOf, totalMs } from "../../src/tilewall/web/receiver/schedule.js";

const items = [{ durationMs: 1000 }, { durationMs: 2000 }, { durationMs: 500 }]; // 3.5 s a pass

test("negative durations count as nothing", () => {
  assert.equal(totalMs([{ durationMs: 1000 }, { durationMs: -300 }, { durationMs: 0 }]), 1000);
  assert.equal(totalMs([]), 0);
});

test("locate finds the slot and the offset into it", () => {
  assert.deepEqual(locate(items, 0, true), { index: 0, offsetMs: 0, ended: false, key: 0 });
  assert.deepEqual(locate(items, 999, true), { index: 0, offsetMs: 999, ended: false, key: 0 });
  // a slot starts exactly where the one before ends
  assert.deepEqual(locate(items, 1000, true), { index: 1, offsetMs: 0, ended: false, key: 1 });
  assert.deepEqual(locate(items, 3499, true), { index: 2, offsetMs: 499, ended: false, key: 2 });
});

test("a looping list numbers each pass's slots anew", () => {
  assert.deepEqual(locate(items, 3500, true), { index: 0, offsetMs: 0, ended: false, key: 3 });
  assert.deepEqual(locate(items, 2 * 3500 + 1500, true), { index: 1, offsetMs: 500, ended: false, key: 7 });
});

test("without repeat the end holds the last item at its end", () => {
  const end = { index: 2, offsetMs: 500, ended: true, key: 2 };
  assert.deepEqual(locate(items, 3500, false), end);
  assert.deepEqual(locate(items, 10 * 3500, false), end);
});

test("a position before the start is the start", () => {
  assert.deepEqual(locate(items, -250, true), { index: 0, offsetMs: 0, ended: false, key: 0 });
});

test("an empty list has no slot; a list of nothing long holds its first item", () => {
  assert.equal(locate([], 100, true), null);
  assert.deepEqual(locate([{ durationMs: 0 }], 100, true), { index: 0, offsetMs: 0, ended: false, key: 0 });
  assert.deepEqual(locate([{ durationMs: 0 }], 100, false), { index: 0, offsetMs: 0, ended: true, key: 0 });
});

test("items of no length are skipped, never shown", () => {
  const list = [{ durationMs: 1000 }, { durationMs: 0 }, { durationMs: 1000 }];
  assert.equal(locate(list, 1000, true).index, 2);
});

test("slotStartMs is where locate's key begins", () => {
  for (const position of [0, 700, 1000, 2999, 3000, 3500, 9000, 123456]) {
    const slot = locate(items, position, true);
    assert.equal(slotStartMs(items, slot.key), position - slot.offsetMs, `at ${position}`);
  }
});

const playing = { state: "playing", anchorMs: 10_000, anchorPositionMs: 5_000 };

test("a playing timeline moves with the host clock from its anchor", () => {
  assert.equal(positionAt(playing, 10_000), 5_000);
  assert.equal(positionAt(playing, 12_500), 7_500);
  assert.equal(instantOf(playing, 7_500), 12_500);
});

test("before its start a timeline holds where it starts", () => {
  const cued = { ...playing, startMs: 10_400 };
  assert.equal(startOf(cued), 10_400);
  assert.equal(positionAt(cued, 10_100), 5_400);
  assert.equal(positionAt(cued, 10_400), 5_400);
  assert.equal(positionAt(cued, 10_500), 5_500);
  // an instant asked for a position before the start is the start itself
  assert.equal(instantOf(cued, 5_000), 10_400);
});

test("a start before the anchor is the anchor; no start is the anchor", () => {
  assert.equal(startOf({ ...playing, startMs: 9_000 }), 10_000);
  assert.equal(startOf({ ...playing, startMs: null }), 10_000);
  assert.equal(startOf(playing), 10_000);
});

test("a paused timeline stays at its anchor position", () => {
  const paused = { ...playing, state: "paused" };
  assert.equal(positionAt(paused, 99_999), 5_000);
  assert.equal(positionAt(paused, 0), 5_000);
});
