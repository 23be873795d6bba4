// Control-room layouts: load a layout on a zone (interface 1.9 /controlroom), and
// create, edit, delete layouts (tilewall's /controlroom/layouts extension):
// {name, windows: [{sourceId, x, y, width, height}]}, positions as fractions 0..1.

import { get, post, put, del, seg } from "../api.js";
import * as live from "../live.js";
import { h, clear, fill, act, field, errorBox, showError, confirmDialog, pageHeader, section } from "../ui.js";

const PRESETS = {
  Full: [[0, 0, 1, 1]],
  "Side by side": [[0, 0, 0.5, 1], [0.5, 0, 0.5, 1]],
  "2 × 2": [[0, 0, 0.5, 0.5], [0.5, 0, 0.5, 0.5], [0, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]],
  "1 + 2": [[0, 0, 0.667, 1], [0.667, 0, 0.333, 0.5], [0.667, 0.5, 0.333, 0.5]],
};

const pct = (f) => Math.round(f * 1000) / 10;

export function renderLayouts(root) {
  const pageError = errorBox();
  const instances = h("div");
  const list = h("ul", { class: "list", "aria-label": "Layouts" });
  const editor = h("div", {}, h("p", { class: "muted" }, "Choose a layout to edit, or create one."));
  let layouts = [];
  let draft = null;
  let selectedWin = null;

  async function loadInstances() {
    const box = clear(instances);
    try {
      const body = await get("/controlroom");
      const names = Array.isArray(body) ? body : body.controlroom || body.zones || body.instances || body.names || [];
      if (!names.length) {
        box.append(h("p", { class: "muted" }, "No zone plays a Command and Control source."));
        return;
      }
      for (const entry of names) {
        const zone = typeof entry === "string" ? entry : entry.name || entry.zoneName || entry.videowallZoneName;
        const error = errorBox();
        const [avail, current] = await Promise.all([
          get(`/controlroom/${seg(zone)}/layouts`).catch(() => ({ layouts: [] })),
          get(`/controlroom/${seg(zone)}/currentlayout`).catch(() => null),
        ]);
        const select = h("select", { name: "layout" }, (avail.layouts || []).map((l) => h("option", { value: l.name, selected: current && current.id === l.id }, l.name)));
        const loadButton = h("button", { type: "button", class: "primary" }, "Load");
        loadButton.addEventListener("click", () =>
          act(loadButton, async () => { await put(`/controlroom/${seg(zone)}/load/${seg(select.value)}`); await loadInstances(); live.refresh(); }, { errorBox: error, success: `Loaded ${select.value} on ${zone}` }),
        );
        box.append(
          h("div", { class: "row wrap" }, h("strong", {}, zone), h("span", { class: "muted" }, `now: ${current && current.name && current.name !== "None" ? current.name : "—"}`), field(`Layout for ${zone}`, select), loadButton),
          error,
        );
      }
    } catch (e) {
      if (e.status === 401) return;
      box.append(h("p", { class: "note" }, e.message));
    }
  }

  async function load(selectId) {
    try {
      const body = await get("/controlroom/layouts");
      layouts = body.layouts || [];
      showError(pageError, null);
    } catch (e) {
      if (e.status !== 401) showError(pageError, e, "Layouts cannot be managed yet");
      layouts = [];
    }
    clear(list);
    for (const l of layouts) {
      const b = h("button", { type: "button", class: draft && draft.id === l.id ? "primary" : "" }, l.name);
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
    draft = layout
      ? { id: layout.id, name: layout.name, windows: (layout.windows || []).map((w) => ({ ...w })) }
      : { id: null, name: "", windows: PRESETS["Side by side"].map(([x, y, width, height]) => ({ sourceId: "", x, y, width, height })) };
    selectedWin = null;
    drawEditor();
  }

  function drawEditor() {
    const error = errorBox();
    const name = h("input", { name: "layoutName", value: draft.name, autocomplete: "off" });
    name.addEventListener("input", () => (draft.name = name.value));
    const canvas = h("div", { class: "editor-canvas", style: { aspectRatio: "16 / 9" }, role: "application", "aria-label": "Layout preview; drag a window to move it" });
    const rows = h("tbody");
    const sources = live.live.sources;
    const srcName = (id) => (sources.find((s) => s.sourceId === id) || {}).sourceName || "(choose a source)";

    function drawCanvas() {
      clear(canvas);
      draft.windows.forEach((w, i) => {
        const el = h("div", { class: `win-box${i === selectedWin ? " selected" : ""}`, tabindex: "0", style: { left: `${w.x * 100}%`, top: `${w.y * 100}%`, width: `${w.width * 100}%`, height: `${w.height * 100}%` } }, `${i + 1}. ${srcName(w.sourceId)}`);
        el.addEventListener("pointerdown", (e) => {
          e.preventDefault();
          selectedWin = i;
          const rect = canvas.getBoundingClientRect();
          const start = { x: e.clientX, y: e.clientY, wx: w.x, wy: w.y };
          el.setPointerCapture(e.pointerId);
          el.classList.add("selected");
          const move = (ev) => {
            w.x = Math.min(1 - w.width, Math.max(0, Math.round((start.wx + (ev.clientX - start.x) / rect.width) * 100) / 100));
            w.y = Math.min(1 - w.height, Math.max(0, Math.round((start.wy + (ev.clientY - start.y) / rect.height) * 100) / 100));
            el.style.left = `${w.x * 100}%`;
            el.style.top = `${w.y * 100}%`;
          };
          const up = () => {
            el.removeEventListener("pointermove", move);
            el.removeEventListener("pointerup", up);
            drawEditor();
          };
          el.addEventListener("pointermove", move);
          el.addEventListener("pointerup", up);
        });
        canvas.append(el);
      });
    }

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
        drawEditor();
      });
      rows.append(h("tr", {}, h("th", { scope: "row" }, String(i + 1)), h("td", {}, select), h("td", {}, num("x", "Left")), h("td", {}, num("y", "Top")), h("td", {}, num("width", "Width")), h("td", {}, num("height", "Height")), h("td", {}, rm)));
    });

    const add = h("button", { type: "button" }, "+ Window");
    add.addEventListener("click", () => {
      draft.windows.push({ sourceId: "", x: 0.25, y: 0.25, width: 0.5, height: 0.5 });
      drawEditor();
    });
    const presetButtons = Object.entries(PRESETS).map(([label, boxes]) => {
      const b = h("button", { type: "button" }, label);
      b.addEventListener("click", () => {
        draft.windows = boxes.map(([x, y, width, height], i) => ({ sourceId: (draft.windows[i] || {}).sourceId || "", x, y, width, height }));
        drawEditor();
      });
      return b;
    });
    const save = h("button", { type: "button", class: "primary" }, draft.id ? "Save layout" : "Create layout");
    save.addEventListener("click", () => {
      if (!draft.name.trim()) return showError(error, new Error("Give the layout a name."));
      if (draft.windows.some((w) => !w.sourceId)) return showError(error, new Error("Choose a source for every window."));
      const body = { name: draft.name.trim(), windows: draft.windows.map(({ sourceId, x, y, width, height }) => ({ sourceId, x, y, width, height })) };
      act(
        save,
        async () => {
          const saved = draft.id ? await put(`/controlroom/layouts/${seg(draft.id)}`, body) : await post("/controlroom/layouts", body);
          await load(saved && saved.id);
          return saved;
        },
        { errorBox: error, success: `Saved layout ${body.name}` },
      );
    });
    const remove = h("button", { type: "button", class: "danger", hidden: !draft.id }, "Delete layout");
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `Delete layout “${draft.name}”?`, confirm: "Delete", danger: true }))) return;
      act(remove, async () => { await del(`/controlroom/layouts/${seg(draft.id)}`); draft = null; clear(editor); await load(); }, { errorBox: error, success: "Layout deleted" });
    });

    fill(editor, 
      h("h2", {}, draft.id ? `Layout “${draft.name}”` : "New layout"),
      field("Layout name", name),
      h("div", { class: "row wrap", role: "group", "aria-label": "Arrangements" }, h("span", { class: "muted" }, "Arrange:"), presetButtons, add),
      canvas,
      h("table", { "aria-label": "Windows" }, h("thead", {}, h("tr", {}, ["#", "Source", "Left %", "Top %", "Width %", "Height %", ""].map((c) => h("th", { scope: "col" }, c)))), rows),
      error,
      h("div", { class: "row end" }, remove, save),
    );
    drawCanvas();
  }

  const newBtn = h("button", { type: "button", class: "primary" }, "+ New layout");
  newBtn.addEventListener("click", () => edit(null));
  root.append(
    pageHeader("Control-room layouts", newBtn),
    section("Zones playing a control room", instances),
    pageError,
    h("div", { class: "split" }, section("Layouts", list), h("section", { class: "card", "aria-label": "Layout editor" }, editor)),
  );
  loadInstances();
  load();
}
