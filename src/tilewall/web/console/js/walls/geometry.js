// A wall in millimetres: each monitor's size, centre and rotation; bezels are the gaps
// between monitors. Pure arithmetic, no page.

/** @typedef {{width: number, height: number, centerX: number, centerY: number, rotationDegrees: number}} Geometry */
/** @typedef {{displayId: number, g: Geometry, diagonal: number}} Monitor */
/** @typedef {{id: string | null, name: string, monitors: Monitor[]}} Draft */
/** @typedef {{left: number, top: number, width: number, height: number}} View */

export const PANEL = { width: 1210, height: 680, diagonal: 1397 }; // a 55" 16:9 panel, mm
export const SNAP = 10;

/** @param {number} v */
export const round = (v) => Math.round(v * 10) / 10;

/**
 * The box a monitor covers, rotated.
 * @param {Geometry} g
 */
export function extent(g) {
  const a = (g.rotationDegrees * Math.PI) / 180;
  const w = Math.abs(g.width * Math.cos(a)) + Math.abs(g.height * Math.sin(a));
  const hh = Math.abs(g.width * Math.sin(a)) + Math.abs(g.height * Math.cos(a));
  return { left: g.centerX - w / 2, top: g.centerY - hh / 2, right: g.centerX + w / 2, bottom: g.centerY + hh / 2 };
}

/**
 * What the editor changes of a wall (null: a new one).
 * @param {any} wall
 * @returns {Draft}
 */
export function draftOf(wall) {
  if (!wall) return { id: null, name: "", monitors: [] };
  return {
    id: wall.id,
    name: wall.name,
    monitors: (wall.monitors || []).map((m) => ({
      displayId: m.displayId,
      g: { ...m.monitorGeometry },
      diagonal: (m.monitorDiagonal && m.monitorDiagonal.lengthInMillimeter) || 0,
    })),
  };
}

/**
 * The part of the plane the canvas shows: every monitor, with a margin.
 * @param {Monitor[]} monitors
 * @returns {View}
 */
export function viewOf(monitors) {
  const boxes = monitors.map((m) => extent(m.g));
  if (!boxes.length) return { left: 0, top: 0, width: 2 * PANEL.width + 10, height: 2 * PANEL.height + 10 };
  const u = boxes.reduce((a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) }), { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });
  const pad = Math.max(u.right - u.left, u.bottom - u.top) * 0.08 + 50;
  return { left: u.left - pad, top: u.top - pad, width: u.right - u.left + 2 * pad, height: u.bottom - u.top + 2 * pad };
}

/**
 * A new monitor right of the others, a bezel's gap away.
 * @param {Monitor[]} monitors
 * @param {number} displayId
 * @returns {Monitor}
 */
export function nextMonitor(monitors, displayId) {
  const right = monitors.reduce((x, m) => Math.max(x, extent(m.g).right), 0);
  const gap = monitors.length ? 10 : 0;
  return { displayId, g: { width: PANEL.width, height: PANEL.height, centerX: right + gap + PANEL.width / 2, centerY: PANEL.height / 2, rotationDegrees: 0 }, diagonal: PANEL.diagonal };
}

/**
 * Monitors in a grid of `columns`, in the order given, `bezel` mm apart.
 * @param {Monitor[]} monitors
 * @param {{columns: number, width: number, height: number, bezel: number}} grid
 */
export function arrange(monitors, { columns, width, height, bezel }) {
  monitors.forEach((m, i) => {
    const col = i % columns;
    const row = Math.floor(i / columns);
    m.g = { width, height, centerX: width / 2 + col * (width + bezel), centerY: height / 2 + row * (height + bezel), rotationDegrees: 0 };
  });
}
