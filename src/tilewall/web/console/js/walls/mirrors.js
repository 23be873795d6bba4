// Mirror groups: displays on no wall that show the same picture.

import { post, put, del, seg } from "../api.js";
import { h, clear, act, field, errorBox, showError, confirmDialog } from "../ui.js";
import { memberBoxes } from "./members.js";

/** @typedef {import("./page.js").WallsPage} WallsPage */

/**
 * @param {HTMLElement} box
 * @param {WallsPage} page
 */
export function drawMirrors(box, page) {
  clear(box);
  const onWalls = new Set(page.walls.flatMap((w) => w.monitors.map((m) => m.displayId)));
  const allFree = page.displays.map((d) => d.displayId).filter((id) => !onWalls.has(id));
  for (const g of page.mirrors) {
    const others = new Set(page.mirrors.filter((x) => x.id !== g.id).flatMap((x) => x.displayIds || []));
    box.append(mirrorCard(g, allFree.filter((id) => !others.has(id)), page));
  }
  const inGroups = new Set(page.mirrors.flatMap((x) => x.displayIds || []));
  box.append(newMirrorCard(allFree.filter((id) => !inGroups.has(id)), page));
}

/**
 * @param {any} g
 * @param {number[]} offered displays on no wall and in no other group
 * @param {WallsPage} page
 */
function mirrorCard(g, offered, page) {
  const error = errorBox();
  const name = h("input", { value: g.name, name: "mirrorName" });
  const members = memberBoxes(offered, g.displayIds || [], "Displays showing the same picture");
  const save = h("button", { type: "button", class: "primary" }, "Save group");
  const remove = h("button", { type: "button", class: "danger" }, "Delete group");
  save.addEventListener("click", () =>
    act(save, async () => { await put(`/mirrorgroups/${seg(g.id)}`, { name: name.value.trim(), displayIds: members.values() }); await page.load(); }, { errorBox: error, success: `Saved ${name.value.trim()}` }),
  );
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: `Delete mirror group “${g.name}”?`, confirm: "Delete", danger: true }))) return;
    act(remove, async () => { await del(`/mirrorgroups/${seg(g.id)}`); await page.load(); }, { errorBox: error, success: "Mirror group deleted" });
  });
  return h("div", { class: "card" }, field("Group name", name), members.el, error, h("div", { class: "row end" }, remove, save));
}

/**
 * @param {number[]} free displays on no wall, in no group
 * @param {WallsPage} page
 */
function newMirrorCard(free, page) {
  const error = errorBox();
  const name = h("input", { name: "newMirrorName", placeholder: "e.g. Reception", autocomplete: "off" });
  const members = memberBoxes(free, [], "Displays (on no wall, in no group)");
  const create = h("button", { type: "button", class: "primary" }, "Create mirror group");
  create.addEventListener("click", () => {
    if (!name.value.trim()) return showError(error, new Error("Give the group a name."));
    act(create, async () => { await post("/mirrorgroups", { name: name.value.trim(), displayIds: members.values() }); await page.load(); }, { errorBox: error, success: `Created ${name.value.trim()}` });
  });
  return h("div", { class: "card" }, h("h3", {}, "New mirror group"), field("Group name", name), members.el, error, h("div", { class: "row end" }, create));
}
