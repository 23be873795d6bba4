// The console's wall editor arithmetic (console/js/walls/geometry.js): rotated extents,
// the canvas's view, where a new monitor goes, a grid.
import { test } from "node:test";
import assert from "node:assert/strict";

import { PANEL, arrange, draftOf, extent, nextMonitor, viewOf } from "../../src/tilewall/web/console/js/walls/geometry.js";

const g = (centerX, centerY, width, height, rotationDegrees = 0) => ({ centerX, centerY, width, height, rotationDegrees });
const close = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

test("a monitor turned a quarter covers its height across", () => {
  const box = extent(g(1000, 500, 1200, 600, 90));
  close(box.left, 700);
  close(box.right, 1300);
  close(box.top, -100);
  close(box.bottom, 1100);
});

test("a new monitor goes right of the rightmost, a bezel's gap away", () => {
  const first = nextMonitor([], 7);
  close(extent(first.g).left, 0);
  const second = nextMonitor([first], 8);
  close(extent(second.g).left, PANEL.width + 10);
  assert.equal(second.displayId, 8);
});

test("a grid places monitors row by row, in order, bezels between", () => {
  const monitors = [1, 2, 3].map((id) => nextMonitor([], id));
  arrange(monitors, { columns: 2, width: 100, height: 50, bezel: 5 });
  assert.deepEqual(
    monitors.map((m) => [m.g.centerX, m.g.centerY]),
    [[50, 25], [155, 25], [50, 80]],
  );
});

test("the view holds every monitor with a margin; an empty wall shows room for four panels", () => {
  const v = viewOf([{ displayId: 1, g: g(500, 250, 1000, 500), diagonal: 0 }]);
  assert.ok(v.left < 0 && v.top < 0 && v.left + v.width > 1000 && v.top + v.height > 500);
  const empty = viewOf([]);
  assert.equal(empty.width, 2 * PANEL.width + 10);
});

test("a draft copies the wall's geometry: editing it leaves the wall as read", () => {
  const wall = { id: "w", name: "Lobby", monitors: [{ displayId: 3, monitorGeometry: g(1, 2, 3, 4), monitorDiagonal: { lengthInMillimeter: 99 } }] };
  const draft = draftOf(wall);
  draft.monitors[0].g.centerX = 500;
  assert.equal(wall.monitors[0].monitorGeometry.centerX, 1);
  assert.equal(draft.monitors[0].diagonal, 99);
  assert.deepEqual(draftOf(null), { id: null, name: "", monitors: [] });
});
