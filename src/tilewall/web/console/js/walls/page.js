// Set-up of walls, zones and mirror groups (tilewall's extension endpoints): the page,
// its list of walls and what its parts share. The wall editor places displays on a
// canvas in millimetres (editor.js); zones.js and mirrors.js edit the groupings.

import { get, seg } from "../api.js";
import * as live from "../live.js";
import { h, clear, errorBox, showError, pageHeader, section } from "../ui.js";
import { draftOf } from "./geometry.js";
import { drawEditor } from "./editor.js";
import { drawZones } from "./zones.js";
import { drawMirrors } from "./mirrors.js";

/**
 * What the parts of the page share: the host's walls, zones, mirror groups and displays
 * as last read, the wall being edited, and the way to read them again.
 * @typedef {object} WallsPage
 * @property {any[]} walls
 * @property {any[]} zones
 * @property {any[]} mirrors
 * @property {any[]} displays
 * @property {import("./geometry.js").Draft} draft
 * @property {number | null} selected the monitor selected, an index into draft.monitors
 * @property {(selectId?: string | null) => Promise<void>} load read again; edit wall
 *   `selectId` (null: a new one) when given
 */

/**
 * @param {HTMLElement} root
 * @param {URLSearchParams} params `wall`: the id of the wall to open
 */
export function renderWalls(root, params) {
  const wallList = h("ul", { class: "list", "aria-label": "Video walls" });
  const editor = h("div");
  const zonesBox = h("div");
  const mirrorsBox = h("div");
  const pageError = errorBox();
  let touched = false; // the operator chose a wall or started a new one

  /** @type {WallsPage} */
  const page = { walls: [], zones: [], mirrors: [], displays: [], draft: draftOf(null), selected: null, load };

  /** @param {string | null} [selectId] */
  async function load(selectId) {
    try {
      const [w, z, m, d] = await Promise.all([get("/videowalls"), get("/zones"), get("/mirrorgroups"), get("/displays")]);
      page.walls = w.videowalls || [];
      page.zones = z.zones || [];
      page.displays = d.displays || [];
      page.mirrors = await Promise.all((m.mirrorgroups || []).map((g) => get(`/mirrorgroups/${seg(g.id)}`).catch(() => ({ ...g, displayIds: [] }))));
      showError(pageError, null);
    } catch (e) {
      if (e.status !== 401) showError(pageError, e);
      return;
    }
    drawWallList();
    if (selectId !== undefined) edit(page.walls.find((x) => x.id === selectId) || null);
    drawZones(zonesBox, page);
    drawMirrors(mirrorsBox, page);
    live.refresh();
  }

  /** @param {any} wall the wall to edit; null: a new one */
  function edit(wall) {
    page.draft = draftOf(wall);
    page.selected = null;
    drawWallList();
    drawEditor(editor, page);
    drawZones(zonesBox, page);
  }

  function drawWallList() {
    clear(wallList);
    for (const w of page.walls) {
      const current = page.draft.id === w.id;
      const b = h("button", { type: "button", class: current ? "primary" : "", "aria-current": current ? "true" : undefined }, w.name);
      b.addEventListener("click", () => {
        touched = true;
        edit(w);
      });
      wallList.append(h("li", {}, b, h("span", { class: "muted small" }, `${w.monitors.length} display${w.monitors.length === 1 ? "" : "s"}`)));
    }
    if (!page.walls.length) wallList.append(h("li", { class: "muted" }, "No walls yet."));
  }

  const newBtn = h("button", { type: "button", class: "primary" }, "+ New wall");
  newBtn.addEventListener("click", () => {
    touched = true;
    edit(null);
  });

  root.append(
    pageHeader("Walls, zones and mirror groups", newBtn),
    pageError,
    h(
      "div",
      { class: "split" },
      section("Video walls", wallList),
      h("div", {}, h("section", { class: "card", "aria-label": "Wall editor" }, editor), section("Zones of this wall", zonesBox)),
    ),
    section("Mirror groups", h("p", { class: "muted" }, "Displays on no wall that show the same picture."), mirrorsBox),
  );
  // open the wall named in the route, or the first; unless the operator has already
  // started on something else while the lists were loading
  const first = params.get("wall");
  load().then(() => {
    if (!touched) edit(page.walls.find((x) => x.id === first) || page.walls[0] || null);
  });
}
