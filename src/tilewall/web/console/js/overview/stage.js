// The overview's stage: each wall drawn to scale with its zones, the mirror groups, the
// displays on their own; a tile per display, a chip per zone and group.

import * as live from "../live.js";
import { h, clear } from "../ui.js";
import { boxOf, cropOf, placeOnWall, wallBox, zoneBoxes } from "./geometry.js";

const ZONE_COLORS = ["#4aa8ff", "#ffb347", "#7ee081", "#e58cff", "#ff7a7a", "#5ee0d6", "#f2e35b", "#b0a4ff"];
const MIRROR_COLOR = "#c9a0ff";

/**
 * How the stage makes what an operator acts on (page.js keeps them).
 * @typedef {object} Makers
 * @property {(displayId: number, targetKey: string, extra: {crop: any, group: string, color: string}) => {el: HTMLElement}} tile
 * @property {(key: string, label: string, color?: string) => HTMLElement} chip
 */

/**
 * Draw everything the host has into `stage`.
 * @param {HTMLElement} stage
 * @param {typeof live.live} state
 * @param {Makers} make
 */
export function drawStage(stage, state, make) {
  clear(stage);
  for (const wall of state.walls) stage.append(wallCard(wall, state.zones.filter((z) => z.videowallId === wall.id), make));
  if (state.mirrors.length) stage.append(mirrorsCard(state.mirrors, make));
  const alone = state.displays.filter((d) => !live.wallOf(d.displayId) && !live.mirrorOfDisplay(d.displayId));
  if (alone.length) {
    const row = h("div", { class: "display-row" }, alone.map((d) => screenTile(d.displayId, `display:${d.displayId}`, "on its own", "#888", make)));
    stage.append(h("section", { class: "card", "aria-label": "Displays on their own" }, h("h2", {}, "Displays"), row));
  }
  if (!state.walls.length && !state.mirrors.length && !alone.length) {
    stage.append(h("section", { class: "card" }, h("h2", {}, "No displays yet"), h("p", {}, "Open ", h("a", { href: "#/receivers" }, "Receivers"), " to lock the screens that point at this host.")));
  }
}

/**
 * A wall to scale: each monitor a tile showing its part of its zone's picture.
 * @param {import("../host-state.js").Wall} wall
 * @param {import("../host-state.js").Zone[]} zones the wall's
 * @param {Makers} make
 */
function wallCard(wall, zones, make) {
  const colorOf = new Map(zones.map((z, i) => [z.zoneId, ZONE_COLORS[i % ZONE_COLORS.length]]));
  const monitors = wall.monitors || [];
  const box = wallBox(wall);
  const W = box.right - box.left || 1;
  const H = box.bottom - box.top || 1;
  const canvas = h("div", { class: "wall-canvas", style: { aspectRatio: `${W} / ${H}`, width: `min(100%, calc(58vh * ${W / H}))` }, role: "group", "aria-label": `${wall.name}, drawn to scale` });
  const zoneBox = zoneBoxes(zones, monitors);
  for (const m of monitors) {
    const zone = live.zoneOfDisplay(m.displayId);
    const crop = cropOf(boxOf(m.monitorGeometry), zone ? zoneBox.get(zone.zoneId) : undefined);
    const tile = make.tile(m.displayId, live.targetOfDisplay(m.displayId), { crop, group: zone ? `zone ${zone.zoneName}` : "no zone", color: (zone && colorOf.get(zone.zoneId)) || "#666" });
    Object.assign(tile.el.style, placeOnWall(m.monitorGeometry, box));
    canvas.append(tile.el);
  }
  return h(
    "section",
    { class: "card wall", "aria-label": `Video wall ${wall.name}` },
    h(
      "div",
      { class: "row between wrap" },
      h("h2", {}, wall.name),
      h("div", { class: "row wrap", role: "group", "aria-label": `Zones of ${wall.name}` }, zones.map((z) => make.chip(`zone:${z.zoneId}`, z.zoneName, colorOf.get(z.zoneId)))),
    ),
    monitors.length ? canvas : h("p", { class: "muted" }, "This wall has no displays yet."),
  );
}

/**
 * @param {import("../host-state.js").Mirror[]} mirrors
 * @param {Makers} make
 */
function mirrorsCard(mirrors, make) {
  const groups = h("div", { class: "groups" });
  for (const m of mirrors) {
    const key = `mirror:${m.id}`;
    const row = h("div", { class: "display-row" }, m.displayIds.map((id) => screenTile(id, key, `mirror group ${m.name}`, MIRROR_COLOR, make)));
    groups.append(h("div", { class: "group" }, h("div", { class: "row" }, make.chip(key, m.name, MIRROR_COLOR)), row.childNodes.length ? row : h("p", { class: "muted" }, "No displays in this group")));
  }
  return h("section", { class: "card", "aria-label": "Mirror groups" }, h("h2", {}, "Mirror groups"), groups);
}

/**
 * A tile shaped as its display's screen.
 * @param {number} displayId
 * @param {string} key
 * @param {string} group
 * @param {string} color
 * @param {Makers} make
 */
function screenTile(displayId, key, group, color, make) {
  const tile = make.tile(displayId, key, { crop: null, group, color });
  const s = live.screenOf(displayId);
  tile.el.style.aspectRatio = `${s.width} / ${s.height}`;
  return tile.el;
}
