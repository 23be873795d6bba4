// The zones of the wall being edited: each one's name and displays, and a new one.

import { post, put, del, seg } from "../api.js";
import { h, clear, act, field, errorBox, showError, confirmDialog } from "../ui.js";
import { memberBoxes } from "./members.js";

/** @typedef {import("./page.js").WallsPage} WallsPage */

/**
 * @param {HTMLElement} box
 * @param {WallsPage} page
 */
export function drawZones(box, page) {
  clear(box);
  const wall = page.walls.find((w) => w.id === page.draft.id);
  if (!wall) {
    box.append(h("p", { class: "muted" }, "Save the wall, then define its zones."));
    return;
  }
  const onWall = wall.monitors.map((m) => m.displayId);
  const wallZones = page.zones.filter((z) => z.videowallId === wall.id);
  for (const z of wallZones) box.append(zoneCard(z, onWall, page));
  const taken = new Set(wallZones.flatMap((z) => (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId)));
  box.append(newZoneCard(wall.id, onWall.filter((id) => !taken.has(id)), page));
}

/**
 * @param {any} z
 * @param {number[]} onWall
 * @param {WallsPage} page
 */
function zoneCard(z, onWall, page) {
  const error = errorBox();
  const name = h("input", { value: z.zoneName, name: "zoneName" });
  const members = memberBoxes(onWall, (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId), "Displays in the zone");
  const save = h("button", { type: "button", class: "primary" }, "Save zone");
  const remove = h("button", { type: "button", class: "danger" }, "Delete zone");
  save.addEventListener("click", () =>
    act(save, async () => { await put(`/zones/${seg(z.zoneId)}`, { zoneName: name.value.trim(), displayIds: members.values() }); await page.load(); }, { errorBox: error, success: `Saved zone ${name.value.trim()}` }),
  );
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: `Delete zone “${z.zoneName}”?`, confirm: "Delete", danger: true }))) return;
    act(remove, async () => { await del(`/zones/${seg(z.zoneId)}`); await page.load(); }, { errorBox: error, success: "Zone deleted" });
  });
  return h("div", { class: "card", dataset: { zoneId: z.zoneId } }, field("Zone name", name), members.el, error, h("div", { class: "row end" }, remove, save));
}

/**
 * @param {string} wallId
 * @param {number[]} free the wall's displays in no zone
 * @param {WallsPage} page
 */
function newZoneCard(wallId, free, page) {
  const error = errorBox();
  const name = h("input", { name: "newZoneName", placeholder: "e.g. Left half", autocomplete: "off" });
  const members = memberBoxes(free, [], "Displays (not in another zone)");
  const create = h("button", { type: "button", class: "primary" }, "Create zone");
  create.addEventListener("click", () => {
    if (!name.value.trim()) return showError(error, new Error("Give the zone a name."));
    act(create, async () => { await post("/zones", { zoneName: name.value.trim(), videowallId: wallId, displayIds: members.values() }); await page.load(); }, { errorBox: error, success: `Created zone ${name.value.trim()}` });
  });
  return h("div", { class: "card new-zone" }, h("h3", {}, "New zone"), field("Zone name", name), members.el, error, h("div", { class: "row end" }, create));
}
