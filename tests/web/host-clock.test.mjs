// receiver/host-clock.js: the host's clock read from exchanges with it.
import { test } from "node:test";
import assert from "node:assert/strict";

import { hostClock } from "../../src/tilewall/web/receiver/host-clock.js";

test("a symmetric exchange gives the offset exactly and the round trip without the host's time", () => {
  const clock = hostClock();
  // the host runs 1000 ms ahead; 10 ms each way; the host takes 2 ms to answer
  clock.add(0, 1010, 1012, 22);
  assert.equal(clock.offset, 1000);
  assert.equal(clock.rtt, 20);
});

test("the exchange with the shortest round trip is believed", () => {
  const clock = hostClock();
  clock.add(0, 1010, 1010, 20); // rtt 20, offset 1000
  clock.add(100, 1190, 1190, 200); // rtt 100, a slow way out: offset 1040
  assert.equal(clock.offset, 1000);
  assert.equal(clock.rtt, 20);
  clock.add(300, 1302, 1302, 304); // rtt 4, offset 1000
  assert.equal(clock.rtt, 4);
});

test("only the last few exchanges count", () => {
  const clock = hostClock(2);
  clock.add(0, 1001, 1001, 2); // rtt 2, offset 1000
  clock.add(10, 1510, 1510, 30); // rtt 20, offset 1490
  clock.add(40, 1560, 1560, 80); // rtt 40, offset 1500: the best one has gone
  assert.equal(clock.offset, 1490);
  assert.equal(clock.rtt, 20);
});

test("the host's word without an exchange counts only before the first exchange", () => {
  const clock = hostClock();
  clock.roughly(5000, 1000);
  assert.equal(clock.offset, 4000);
  assert.equal(clock.rtt, null);
  clock.add(0, 1010, 1010, 20);
  clock.roughly(9000, 1000);
  assert.equal(clock.offset, 1000);
});
