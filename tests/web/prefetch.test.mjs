// The budget of the receiver's media copies (receiver/prefetch.js plan()) and the order
// in which a description's media are fetched (mediaUrls()).
import { before, test } from "node:test";
import assert from "node:assert/strict";

import { mediaKey, mediaUrls, plan } from "../../src/tilewall/web/receiver/prefetch.js";

before(() => {
  // the page's own address, which media URLs are resolved against
  globalThis.location = new URL("http://host.example:9000/receiver/?seat=1");
});

const MB = 1024 * 1024;
const entry = (url, mb, usedAt) => ({ url, bytes: mb * MB, usedAt });

test("within the budget nothing is evicted", () => {
  const entries = [entry("/media/a", 100, 1), entry("/media/b", 100, 2)];
  assert.deepEqual(plan(entries, [], 300 * MB, 100 * MB), { evict: [], fits: true });
  // exactly full still fits
  assert.deepEqual(plan(entries, [], 300 * MB, 100 * MB + 0), { evict: [], fits: true });
});

test("over the budget the least recently used go first, only as many as needed", () => {
  const entries = [entry("/media/new", 100, 30), entry("/media/old", 100, 10), entry("/media/mid", 100, 20)];
  assert.deepEqual(plan(entries, [], 300 * MB, 50 * MB), { evict: ["/media/old"], fits: true });
  assert.deepEqual(plan(entries, [], 300 * MB, 150 * MB), { evict: ["/media/old", "/media/mid"], fits: true });
});

test("ties in use go larger first, then by name", () => {
  const entries = [entry("/media/b", 10, 5), entry("/media/a", 10, 5), entry("/media/big", 40, 5)];
  assert.deepEqual(plan(entries, [], 60 * MB, 30 * MB).evict, ["/media/big"]);
  assert.deepEqual(plan(entries, [], 40 * MB, 30 * MB).evict, ["/media/big", "/media/a"]);
});

test("pinned files are never evicted", () => {
  const entries = [entry("/media/pinned-old", 100, 1), entry("/media/free", 100, 50)];
  const result = plan(entries, new Set(["/media/pinned-old"]), 250 * MB, 100 * MB);
  assert.deepEqual(result, { evict: ["/media/free"], fits: true });
});

test("a file that cannot fit beside the pinned ones evicts nothing", () => {
  const entries = [entry("/media/p1", 200, 1), entry("/media/free", 50, 2)];
  assert.deepEqual(plan(entries, ["/media/p1"], 250 * MB, 100 * MB), { evict: [], fits: false });
});

test("trimming (nothing incoming) goes as far as the unpinned files allow", () => {
  const entries = [entry("/media/p1", 200, 1), entry("/media/f1", 50, 2), entry("/media/f2", 50, 3)];
  assert.deepEqual(plan(entries, ["/media/p1"], 150 * MB), { evict: ["/media/f1", "/media/f2"], fits: false });
  assert.deepEqual(plan(entries, ["/media/p1"], 210 * MB), { evict: ["/media/f1", "/media/f2"], fits: true });
  assert.deepEqual(plan(entries, ["/media/p1"], 260 * MB), { evict: ["/media/f1"], fits: true });
  assert.deepEqual(plan(entries, ["/media/p1"], 300 * MB), { evict: [], fits: true });
});

test("only this origin's /media/ paths are kept, by path", () => {
  assert.equal(mediaKey("/media/clips/a.mp4?x=1"), "/media/clips/a.mp4");
  assert.equal(mediaKey("http://host.example:9000/media/a.png"), "/media/a.png");
  assert.equal(mediaKey("http://elsewhere.example/media/a.png"), null);
  assert.equal(mediaKey("/receiver/receiver.js"), null);
  assert.equal(mediaKey("http://["), null);
});

const signage = (items, timeline) => ({
  content: { source: { type: "signage", items }, timeline },
});
const item = (name, durationMs) => ({ url: `/media/${name}`, durationMs });

test("a playlist's media come in the order they play, from the item playing now", () => {
  const items = [item("a", 1000), item("b", 1000), item("c", 1000)];
  const timeline = { state: "playing", anchorMs: 0, anchorPositionMs: 0, repeat: true };
  assert.deepEqual(mediaUrls(signage(items, timeline), 500), ["/media/a", "/media/b", "/media/c"]);
  assert.deepEqual(mediaUrls(signage(items, timeline), 1500), ["/media/b", "/media/c", "/media/a"]);
  assert.deepEqual(mediaUrls(signage(items, timeline), 3 * 1000 + 2500), ["/media/c", "/media/a", "/media/b"]);
});

test("a file named twice is fetched once; other origins and the welcome screen need nothing", () => {
  const items = [item("a", 1000), item("b", 1000), item("a", 1000), { url: "http://elsewhere.example/media/x", durationMs: 1 }];
  const timeline = { state: "paused", anchorMs: 0, anchorPositionMs: 0, repeat: true };
  assert.deepEqual(mediaUrls(signage(items, timeline), 0), ["/media/a", "/media/b"]);
  assert.deepEqual(mediaUrls({ content: { welcome: true, source: null } }, 0), []);
  assert.deepEqual(mediaUrls(null, 0), []);
});

test("a layout's windows and a stream's file are visited", () => {
  const layout = {
    content: {
      timeline: { state: "playing", anchorMs: 0, anchorPositionMs: 0, repeat: true },
      source: {
        type: "layout",
        windows: [{ source: { type: "stream", url: "/media/s.mp4" } }, { source: { type: "web", url: "http://host.example:9000/media/not-media" } }, { source: null }],
      },
    },
  };
  assert.deepEqual(mediaUrls(layout, 0), ["/media/s.mp4"]);
});
