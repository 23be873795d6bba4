// The wall editor: name, canvas, the table of monitors, adding displays, arranging them
// in a grid; saving and deleting the wall.

import { post, put, del, seg } from "../api.js";
import * as live from "../live.js";
import { h, fill, act, field, errorBox, showError, confirmDialog } from "../ui.js";
import { PANEL, arrange, nextMonitor } from "./geometry.js";
import { wallCanvas } from "./canvas.js";
import { monitorTable } from "./monitors.js";

/** @typedef {import("./page.js").WallsPage} WallsPage */

/**
 * Draw the editor of `page.draft` into `editor` (again after each change of its monitors).
 * @param {HTMLElement} editor
 * @param {WallsPage} page
 */
export function drawEditor(editor, page) {
  const draft = page.draft;
  const redraw = () => drawEditor(editor, page);
  const error = errorBox();
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "wallName", value: draft.name, required: true, autocomplete: "off" }));
  name.addEventListener("input", () => (draft.name = name.value));
  const canvas = wallCanvas(page, { moved: (i) => table.sync(i), selected: () => table.highlight() });
  const table = monitorTable(page, { changed: () => canvas.draw(), focused: () => canvas.draw(), removed: redraw });
  const { save, remove } = wallActions(page, name, error);

  fill(
    editor,
    h("h2", {}, draft.id ? `Wall “${draft.name}”` : "New wall"),
    h("div", { class: "row wrap" }, field("Wall name", name)),
    canvas.el,
    h("p", { class: "muted small" }, "Sizes and positions in millimetres, positions are the centre of each monitor. Leave gaps between monitors for their bezels."),
    draft.monitors.length
      ? h(
          "div",
          { class: "table-wrap" },
          h("table", { "aria-label": "Monitors of the wall" }, h("thead", {}, h("tr", {}, ["Display", "Width", "Height", "Centre X", "Centre Y", "Rotation °", "Diagonal", ""].map((c) => h("th", { scope: "col" }, c)))), table.tbody),
        )
      : h("p", { class: "muted" }, "Add displays to the wall."),
    addDisplay(page, redraw),
    gridHelper(page, redraw),
    error,
    h("div", { class: "row end" }, remove, save),
  );
  canvas.draw();
}

/**
 * Displays that may join the wall being edited: on no other wall, in no mirror group.
 * @param {WallsPage} page
 */
function freeDisplays(page) {
  const onOther = new Set(page.walls.filter((w) => w.id !== page.draft.id).flatMap((w) => w.monitors.map((m) => m.displayId)));
  const inMirror = new Set(page.mirrors.flatMap((g) => g.displayIds || []));
  const here = new Set(page.draft.monitors.map((m) => m.displayId));
  return page.displays.map((d) => d.displayId).filter((id) => !onOther.has(id) && !inMirror.has(id) && !here.has(id));
}

/**
 * @param {WallsPage} page
 * @param {() => void} redraw
 */
function addDisplay(page, redraw) {
  const select = /** @type {HTMLSelectElement} */ (h("select", { name: "addDisplay" }));
  const add = /** @type {HTMLButtonElement} */ (h("button", { type: "button" }, "Add display"));
  const free = freeDisplays(page);
  select.append(...(free.length ? free.map((id) => h("option", { value: String(id) }, live.displayName(id))) : [h("option", { value: "" }, "No free displays")]));
  add.disabled = !free.length;
  add.addEventListener("click", () => {
    const id = Number(select.value);
    if (!id && id !== 0) return;
    page.draft.monitors.push(nextMonitor(page.draft.monitors, id));
    page.selected = page.draft.monitors.length - 1;
    redraw();
  });
  return h("div", { class: "row wrap" }, field("Display", select), add);
}

/**
 * @param {WallsPage} page
 * @param {() => void} redraw
 */
function gridHelper(page, redraw) {
  const cols = h("input", { type: "number", min: 1, max: 20, value: 2, class: "num", name: "cols" });
  const rows = h("input", { type: "number", min: 1, max: 20, value: 2, class: "num", name: "rows" });
  const pw = h("input", { type: "number", min: 1, value: PANEL.width, class: "num", name: "panelWidth" });
  const ph = h("input", { type: "number", min: 1, value: PANEL.height, class: "num", name: "panelHeight" });
  const bezel = h("input", { type: "number", min: 0, value: 10, class: "num", name: "bezel" });
  const arrangeButton = h("button", { type: "button" }, "Arrange in a grid");
  arrangeButton.addEventListener("click", () => {
    arrange(page.draft.monitors, {
      columns: Math.max(1, Number(cols.value) || 1),
      width: Number(pw.value) || PANEL.width,
      height: Number(ph.value) || PANEL.height,
      bezel: Math.max(0, Number(bezel.value) || 0),
    });
    redraw();
  });
  return h(
    "fieldset",
    {},
    h("legend", {}, "Arrange the displays in a grid, in the order listed"),
    h("div", { class: "row wrap" }, field("Columns", cols), field("Rows", rows), field("Panel width (mm)", pw), field("Panel height (mm)", ph), field("Bezel gap (mm)", bezel), arrangeButton),
  );
}

/**
 * @param {WallsPage} page
 * @param {HTMLInputElement} name
 * @param {HTMLElement} error
 */
function wallActions(page, name, error) {
  const draft = page.draft;
  const save = h("button", { type: "button", class: "primary" }, draft.id ? "Save wall" : "Create wall");
  save.addEventListener("click", () => {
    if (!draft.name.trim()) {
      showError(error, new Error("Give the wall a name."));
      name.focus();
      return;
    }
    const body = {
      name: draft.name.trim(),
      monitors: draft.monitors.map((m) => ({ displayId: m.displayId, monitorGeometry: { ...m.g }, monitorDiagonal: { lengthInMillimeter: m.diagonal || 0 } })),
    };
    act(
      save,
      async () => {
        const saved = draft.id ? await put(`/videowalls/${seg(draft.id)}`, body) : await post("/videowalls", body);
        await page.load(saved.id);
        return saved;
      },
      { errorBox: error, success: (w) => `Saved wall ${w.name}` },
    );
  });
  const remove = h("button", { type: "button", class: "danger", hidden: !draft.id }, "Delete wall");
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: `Delete wall “${draft.name}”?`, message: "Its zones are deleted too; its displays become displays on their own.", confirm: "Delete", danger: true }))) return;
    act(remove, async () => { await del(`/videowalls/${seg(draft.id)}`); await page.load(null); }, { errorBox: error, success: "Wall deleted" });
  });
  return { save, remove };
}
