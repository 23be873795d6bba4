// The layout editor: its name, arrangements to start from, the preview to drag windows
// in, the table of windows (source, place and size in per cent), save and delete
// (tilewall's /controlroom/layouts extension).

import { post, put, del, seg } from "../../api.js";
import * as live from "../../live.js";
import { h, fill, act, field, errorBox, showError, confirmDialog } from "../../ui.js";
import { layoutCanvas } from "./canvas.js";

const PRESETS = {
  Full: [[0, 0, 1, 1]],
  "Side by side": [[0, 0, 0.5, 1], [0.5, 0, 0.5, 1]],
  "2 × 2": [[0, 0, 0.5, 0.5], [0.5, 0, 0.5, 0.5], [0, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]],
  "1 + 2": [[0, 0, 0.667, 1], [0.667, 0, 0.333, 0.5], [0.667, 0.5, 0.333, 0.5]],
};

const pct = (f) => Math.round(f * 1000) / 10;

/** A draft of `layout` to edit, or of a new one (side by side) when it is null. */
export function draftOf(layout) {
  return layout
    ? { id: layout.id, name: layout.name, windows: (layout.windows || []).map((w) => ({ ...w })) }
    : { id: null, name: "", windows: PRESETS["Side by side"].map(([x, y, width, height]) => ({ sourceId: "", x, y, width, height })) };
}

/**
 * Draw the editor of `draft` into `editor`, again after each change of its windows.
 * @param {HTMLElement} editor
 * @param {any} draft
 * @param {{saved: (id: string | undefined) => Promise<void>, deleted: () => Promise<void>}} after
 */
export function drawEditor(editor, draft, after) {
  const selection = { selected: null };
  const redraw = () => draw();
  function draw() {
    const error = errorBox();
    const name = h("input", { name: "layoutName", value: draft.name, autocomplete: "off" });
    name.addEventListener("input", () => (draft.name = name.value));
    const sources = live.live.sources;
    const srcName = (id) => (sources.find((s) => s.sourceId === id) || {}).sourceName || "(choose a source)";
    const preview = layoutCanvas(draft, srcName, selection, redraw);
    fill(editor, 
      h("h2", {}, draft.id ? `Layout “${draft.name}”` : "New layout"),
      field("Layout name", name),
      h("div", { class: "row wrap", role: "group", "aria-label": "Arrangements" }, h("span", { class: "muted" }, "Arrange:"), arrangements(draft, redraw)),
      preview.canvas,
      h("table", { "aria-label": "Windows" }, h("thead", {}, h("tr", {}, ["#", "Source", "Left %", "Top %", "Width %", "Height %", ""].map((c) => h("th", { scope: "col" }, c)))), windowRows(draft, sources, preview.draw, redraw)),
      error,
      h("div", { class: "row end" }, ...savingButtons(draft, error, after)),
    );
    preview.draw();
  }
  draw();
}

/** The arrangements to start from (the windows keep their sources), and "+ Window". */
function arrangements(draft, redraw) {
  const add = h("button", { type: "button" }, "+ Window");
  add.addEventListener("click", () => {
    draft.windows.push({ sourceId: "", x: 0.25, y: 0.25, width: 0.5, height: 0.5 });
    redraw();
  });
  const buttons = Object.entries(PRESETS).map(([label, boxes]) => {
    const b = h("button", { type: "button" }, label);
    b.addEventListener("click", () => {
      draft.windows = boxes.map(([x, y, width, height], i) => ({ sourceId: (draft.windows[i] || {}).sourceId || "", x, y, width, height }));
      redraw();
    });
    return b;
  });
  return [...buttons, add];
}

/** A row per window: its source, place and size (per cent), and its Remove button. */
function windowRows(draft, sources, drawCanvas, redraw) {
  const rows = h("tbody");
  draft.windows.forEach((w, i) => {
    const select = h("select", { "aria-label": `Source of window ${i + 1}` }, h("option", { value: "" }, "Choose a source…"), sources.filter((s) => s.sourceType !== "Command and Control").map((s) => h("option", { value: s.sourceId, selected: s.sourceId === w.sourceId }, s.sourceName)));
    select.addEventListener("change", () => {
      w.sourceId = select.value;
      drawCanvas();
    });
    const num = (key, label) => {
      const input = h("input", { type: "number", min: 0, max: 100, step: "any", class: "num", value: pct(w[key]), "aria-label": `${label} of window ${i + 1} (%)` });
      input.addEventListener("input", () => {
        const v = Number(input.value);
        if (input.value === "" || Number.isNaN(v)) return;
        w[key] = v / 100;
        drawCanvas();
      });
      return input;
    };
    const rm = h("button", { type: "button", class: "ghost", "aria-label": `Remove window ${i + 1}` }, "Remove");
    rm.addEventListener("click", () => {
      draft.windows.splice(i, 1);
      redraw();
    });
    rows.append(h("tr", {}, h("th", { scope: "row" }, String(i + 1)), h("td", {}, select), h("td", {}, num("x", "Left")), h("td", {}, num("y", "Top")), h("td", {}, num("width", "Width")), h("td", {}, num("height", "Height")), h("td", {}, rm)));
  });
  return rows;
}

/** Delete (a saved layout only) and Save (or Create). */
function savingButtons(draft, error, after) {
  const save = h("button", { type: "button", class: "primary" }, draft.id ? "Save layout" : "Create layout");
  save.addEventListener("click", () => {
    if (!draft.name.trim()) return showError(error, new Error("Give the layout a name."));
    if (draft.windows.some((w) => !w.sourceId)) return showError(error, new Error("Choose a source for every window."));
    const body = { name: draft.name.trim(), windows: draft.windows.map(({ sourceId, x, y, width, height }) => ({ sourceId, x, y, width, height })) };
    act(
      save,
      async () => {
        const saved = draft.id ? await put(`/controlroom/layouts/${seg(draft.id)}`, body) : await post("/controlroom/layouts", body);
        await after.saved(saved && saved.id);
        return saved;
      },
      { errorBox: error, success: `Saved layout ${body.name}` },
    );
  });
  const remove = h("button", { type: "button", class: "danger", hidden: !draft.id }, "Delete layout");
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: `Delete layout “${draft.name}”?`, confirm: "Delete", danger: true }))) return;
    act(remove, async () => { await del(`/controlroom/layouts/${seg(draft.id)}`); await after.deleted(); }, { errorBox: error, success: "Layout deleted" });
  });
  return [remove, save];
}
