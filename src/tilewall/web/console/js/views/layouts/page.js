// Control-room layouts: load a layout on a zone (interface 1.9 /controlroom), and
// create, edit, delete layouts (tilewall's /controlroom/layouts extension):
// {name, windows: [{sourceId, x, y, width, height}]}, positions as fractions 0..1.

import { get } from "../../api.js";
import { h, clear, errorBox, showError, pageHeader, section } from "../../ui.js";
import { draftOf, drawEditor } from "./editor.js";
import { loadInstances } from "./instances.js";

export function renderLayouts(root) {
  const pageError = errorBox();
  const instances = h("div");
  const list = h("ul", { class: "list", "aria-label": "Layouts" });
  const editor = h("div", {}, h("p", { class: "muted" }, "Choose a layout to edit, or create one."));
  /** @type {string | null | undefined} the id of the layout in the editor (null: a new one) */
  let editing;

  async function load(selectId) {
    let layouts = [];
    try {
      const body = await get("/controlroom/layouts");
      layouts = body.layouts || [];
      showError(pageError, null);
    } catch (e) {
      if (e.status !== 401) showError(pageError, e, "Layouts cannot be managed yet");
    }
    clear(list);
    for (const l of layouts) {
      const b = h("button", { type: "button", class: editing === l.id ? "primary" : "" }, l.name);
      b.addEventListener("click", () => edit(l));
      list.append(h("li", {}, b, h("span", { class: "muted small" }, `${(l.windows || []).length} windows`)));
    }
    if (!layouts.length) list.append(h("li", { class: "muted" }, "No layouts."));
    if (selectId !== undefined) {
      const found = layouts.find((l) => l.id === selectId);
      if (found) edit(found);
    }
  }

  function edit(layout) {
    const draft = draftOf(layout);
    editing = draft.id;
    drawEditor(editor, draft, {
      saved: (id) => load(id),
      deleted: async () => {
        editing = undefined;
        clear(editor);
        await load();
      },
    });
  }

  const newBtn = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "+ New layout");
  newBtn.addEventListener("click", () => edit(null));
  root.append(
    pageHeader("Control-room layouts", newBtn),
    section("Zones playing a control room", instances),
    pageError,
    h("div", { class: "split" }, section("Layouts", list), h("section", { class: "card", "aria-label": "Layout editor" }, editor)),
  );
  loadInstances(instances);
  load();
}
