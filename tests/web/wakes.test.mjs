// receiver/wakes.js: ticks on host instants, never early, never lost, one per instant.
// The timers are a fake scheduler put in place of setTimeout, so each delay asked for
// can be read, and fired, exactly.
import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";

import { wakes } from "../../src/tilewall/web/receiver/wakes.js";

let timers;
const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };

beforeEach(() => {
  timers = new Map();
  let next = 1;
  globalThis.setTimeout = (fn, delay) => {
    const id = next++;
    timers.set(id, { fn, delay });
    return id;
  };
  globalThis.clearTimeout = (id) => timers.delete(id);
});

afterEach(() => Object.assign(globalThis, real));

function fireAll() {
  for (const [id, { fn }] of [...timers]) {
    timers.delete(id);
    fn();
  }
}

function setup(now = 1000) {
  const clock = { now };
  const ticks = [];
  const w = wakes(() => clock.now, () => ticks.push(clock.now));
  return { clock, ticks, w };
}

test("a fractional delay is rounded up: the tick is never before its instant", () => {
  const { w } = setup(1000);
  w.wake(1010.2);
  assert.deepEqual([...timers.values()].map((t) => t.delay), [11]);
});

test("an instant that just passed ticks at once; one long past is left to the regular tick", () => {
  const { w } = setup(1000);
  w.wake(997); // 3 ms ago: within the slack
  assert.deepEqual([...timers.values()].map((t) => t.delay), [0]);
  w.wake(995); // 5 ms ago: too late to matter
  w.wake(900);
  assert.equal(timers.size, 1);
});

test("instants more than a minute ahead wait for a later wake", () => {
  const { w } = setup(1000);
  w.wake(1000 + 60000);
  w.wake(1000 + 60001);
  assert.deepEqual([...timers.values()].map((t) => t.delay), [60000]);
});

test("one tick per instant, and the instant can be woken again once it ticked", () => {
  const { w, ticks } = setup(1000);
  w.wake(1500);
  w.wake(1500.3); // the same ms, rounded
  w.wake(1600);
  assert.equal(timers.size, 2);
  fireAll();
  assert.equal(ticks.length, 2);
  w.wake(1500);
  assert.equal(timers.size, 1);
});

test("clear drops every wake: none ticks", () => {
  const { w, ticks } = setup(1000);
  w.wake(1100);
  w.wake(1200);
  w.clear();
  assert.equal(timers.size, 0);
  fireAll();
  assert.deepEqual(ticks, []);
  w.wake(1100); // and a cleared instant can be woken anew
  assert.equal(timers.size, 1);
});
