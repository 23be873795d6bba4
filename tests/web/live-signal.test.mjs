// receiver/live-signal.js: when a live source's "no signal" mark shows, and what it says.
import { test } from "node:test";
import assert from "node:assert/strict";

import { fresh, markText, quiet, trouble } from "../../src/tilewall/web/receiver/live-signal.js";

const flowing = { playable: true, status: { state: "live", message: "" }, linkUp: true, downForMs: 0, silentForMs: 10 };

test("frames flowing over an open link: no mark", () => {
  assert.equal(trouble(flowing), null);
});

test("a browser that cannot play live video says so, whatever else holds", () => {
  assert.equal(trouble({ ...flowing, playable: false }), "no signal: this browser cannot play live video");
});

test("the relay's word on a lost source comes first, its message or else its state", () => {
  assert.equal(trouble({ ...flowing, status: { state: "reconnecting", message: "camera away" } }), "no signal: camera away");
  assert.equal(trouble({ ...flowing, status: { state: "failed", message: "" }, linkUp: false, downForMs: 5000 }), "no signal: failed");
});

test("a dropped link is trouble only after a short grace", () => {
  assert.equal(trouble({ ...flowing, linkUp: false, downForMs: 100 }), null);
  assert.equal(trouble({ ...flowing, linkUp: false, downForMs: 1000 }), "no signal: host unreachable");
});

test("no frame for a second: no signal, with the relay's message if it has one", () => {
  assert.equal(trouble({ ...flowing, silentForMs: 999 }), null);
  assert.equal(trouble({ ...flowing, silentForMs: 1001 }), "no signal");
  assert.equal(trouble({ ...flowing, silentForMs: 1001, status: { state: "live", message: "no input" } }), "no signal: no input");
});

test("the mark notes the slower path of a page without WebCodecs", () => {
  assert.equal(markText(null, true), null);
  assert.equal(markText("no signal", true), "no signal");
  assert.equal(markText(null, false), "higher latency: no secure context");
  assert.equal(markText("no signal", false), "no signal (higher latency: no secure context)");
});

test("frames kept from before an outage do not say the source is back", () => {
  assert.ok(fresh(null, 10_000));
  assert.ok(fresh(9_500, 10_000));
  assert.ok(!fresh(8_000, 10_000));
});

test("half a stall of silence lets the skipped frames be decoded", () => {
  assert.ok(!quiet(400));
  assert.ok(quiet(600));
});

test("after a loss the mark stays until a newer frame is drawn, not until the host says so", async () => {
  const { heldMark } = await import("../../src/tilewall/web/receiver/live.js");
  let shown = 100;
  let paused = false;
  const mark = heldMark(() => shown, () => paused);
  assert.equal(mark(null), null); // playing
  assert.equal(mark("no signal: connection refused"), "no signal: connection refused");
  assert.equal(mark(null), "no signal: connection refused"); // back, the old frame still shown
  shown = 133;
  assert.equal(mark(null), null); // the picture moved on
  assert.equal(mark("no signal"), "no signal");
  paused = true;
  assert.equal(mark(null), null); // paused: not meant to move
});
