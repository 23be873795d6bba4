// Where the overview draws a wall's monitors, and what part of a zone's picture each
// shows. Pure arithmetic, no page.

import { extent } from "../walls/geometry.js";

/** @typedef {import("../walls/geometry.js").Geometry} Geometry */
/** @typedef {{left: number, top: number, right: number, bottom: number}} Box */

/**
 * The unrotated box of a monitor.
 * @param {Geometry} g
 * @returns {Box}
 */
export function boxOf(g) {
  return { left: g.centerX - g.width / 2, top: g.centerY - g.height / 2, right: g.centerX + g.width / 2, bottom: g.centerY + g.height / 2 };
}

/**
 * The box around `boxes`.
 * @param {Box[]} boxes
 * @returns {Box}
 */
export function union(boxes) {
  return boxes.reduce(
    (u, b) => ({ left: Math.min(u.left, b.left), top: Math.min(u.top, b.top), right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom) }),
    { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity },
  );
}

/**
 * The box a wall's picture covers: its canvas and every monitor, rotated.
 * @param {any} wall
 */
export function wallBox(wall) {
  return union([extent(wall.canvasGeometry), ...(wall.monitors || []).map((m) => extent(m.monitorGeometry))]);
}

/**
 * Per zone of `zones`, the box of its monitors on the wall: a zone's picture spans it.
 * @param {any[]} zones
 * @param {any[]} monitors
 * @returns {Map<string, Box>}
 */
export function zoneBoxes(zones, monitors) {
  const boxes = new Map();
  for (const z of zones) {
    const ids = new Set((z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId));
    const members = monitors.filter((m) => ids.has(m.displayId));
    if (members.length) boxes.set(z.zoneId, union(members.map((m) => boxOf(m.monitorGeometry))));
  }
  return boxes;
}

/**
 * The part of its zone's picture a monitor shows (fractions); all of it without a zone.
 * @param {Box} monitor
 * @param {Box | undefined} zone
 */
export function cropOf(monitor, zone) {
  if (!zone) return { x: 0, y: 0, w: 1, h: 1 };
  const zw = zone.right - zone.left;
  const zh = zone.bottom - zone.top;
  return { x: (monitor.left - zone.left) / zw, y: (monitor.top - zone.top) / zh, w: (monitor.right - monitor.left) / zw, h: (monitor.bottom - monitor.top) / zh };
}

/**
 * A tile's place on its wall's picture, as CSS percentages.
 * @param {Geometry} g
 * @param {Box} wall
 */
export function placeOnWall(g, wall) {
  const r = boxOf(g);
  const W = wall.right - wall.left || 1;
  const H = wall.bottom - wall.top || 1;
  return {
    left: `${((r.left - wall.left) / W) * 100}%`,
    top: `${((r.top - wall.top) / H) * 100}%`,
    width: `${((r.right - r.left) / W) * 100}%`,
    height: `${((r.bottom - r.top) / H) * 100}%`,
    transform: g.rotationDegrees ? `rotate(${g.rotationDegrees}deg)` : "",
  };
}
