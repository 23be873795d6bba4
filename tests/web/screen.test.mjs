// The receiver's picture (receiver/screen.js, scene.js): where a tile's box goes on the
// stage, what tells one scene from another, and the log of frames and starts for sync().
import { test } from "node:test";
import assert from "node:assert/strict";

import { sceneKey, tileBox } from "../../src/tilewall/web/receiver/scene.js";
import { syncLog } from "../../src/tilewall/web/receiver/screen.js";

const crop = (x, y, width, height, rotationDegrees = 0) => ({ x, y, width, height, rotationDegrees });

test("the left half of a zone on a stage fills it: the box is twice the stage wide", () => {
  const box = tileBox({ w: 1920, h: 1080 }, { crop: crop(0, 0, 1920, 1080), zoneBox: { width: 3840, height: 1080 } });
  assert.equal(box.width, "3840px");
  assert.equal(box.height, "1080px");
  // the crop's centre (960, 540) is brought to the stage's centre
  assert.equal(box.transform, "translate(960px, 540px) rotate(0deg) translate(-960px, -540px)");
});

test("the right half of the zone is moved left by its offset; a smaller stage scales it", () => {
  const box = tileBox({ w: 960, h: 540 }, { crop: crop(1920, 0, 1920, 1080), zoneBox: { width: 3840, height: 1080 } });
  assert.equal(box.width, "1920px");
  assert.equal(box.height, "540px");
  assert.equal(box.transform, "translate(480px, 270px) rotate(0deg) translate(-1440px, -270px)");
});

test("a monitor turned a quarter turns the zone back the other way", () => {
  const box = tileBox({ w: 1080, h: 1920 }, { crop: crop(0, 0, 1080, 1920, 90), zoneBox: { width: 1080, height: 1920 } });
  assert.equal(box.transform, "translate(540px, 960px) rotate(-90deg) translate(-540px, -960px)");
});

test("a scene is told by what it shows, not by the timeline", () => {
  const s = (timeline, source = { type: "web", url: "https://example.org/" }) => ({
    role: "single",
    displayId: 1,
    hostName: "host",
    content: { welcome: false, source, timeline },
  });
  assert.equal(sceneKey(s({ state: "playing" })), sceneKey(s({ state: "paused" })));
  assert.notEqual(sceneKey(s(null)), sceneKey(s(null, { type: "web", url: "https://example.org/b" })));
  assert.notEqual(sceneKey({ ...s(null), role: "tile" }), sceneKey(s(null)));
});

test("the log keeps frames and starts apart, the latest of each, and reads them after an instant", () => {
  const log = syncLog();
  for (let i = 1; i <= 1300; i++) log.record({ hostMs: i, mediaMs: i, expectedMs: i, item: "a", key: 0 });
  for (let i = 1; i <= 250; i++) log.record({ atMs: i, readyMs: i, startedMs: i });
  const all = log.since(0);
  assert.equal(all.frames.length, 1200);
  assert.equal(all.frames[0].hostMs, 101);
  assert.equal(all.starts.length, 200);
  assert.equal(all.starts[0].atMs, 51);
  const later = log.since(1295);
  assert.deepEqual(later.frames.map((f) => f.hostMs), [1296, 1297, 1298, 1299, 1300]);
  assert.deepEqual(later.starts, []);
});
