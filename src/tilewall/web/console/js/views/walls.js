// Set-up of walls, zones and mirror groups (tilewall's extension endpoints).
// The wall editor places displays on a canvas in millimetres: size, centre, rotation;
// bezels are the gaps between monitors. Drag to move, arrow keys to nudge, or type.

import { get, post, put, del, seg } from "../api.js";
import * as live from "../live.js";
import { h, clear, fill, act, field, errorBox, showError, confirmDialog, pageHeader, section, checkbox } from "../ui.js";

const PANEL = { width: 1210, height: 680, diagonal: 1397 }; // a 55" 16:9 panel, mm
const SNAP = 10;

const round = (v) => Math.round(v * 10) / 10;

function extent(g) {
  const a = (g.rotationDegrees * Math.PI) / 180;
  const w = Math.abs(g.width * Math.cos(a)) + Math.abs(g.height * Math.sin(a));
  const hh = Math.abs(g.width * Math.sin(a)) + Math.abs(g.height * Math.cos(a));
  return { left: g.centerX - w / 2, top: g.centerY - hh / 2, right: g.centerX + w / 2, bottom: g.centerY + hh / 2 };
}

function draftOf(wall) {
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

export function renderWalls(root, params) {
  let walls = [];
  let zones = [];
  let mirrors = [];
  let displays = [];
  let draft = draftOf(null);
  let selectedMon = null; // index into draft.monitors
  let view = null; // fixed during a drag
  let touched = false; // the operator chose a wall or started a new one

  const wallList = h("ul", { class: "list", "aria-label": "Video walls" });
  const editor = h("div");
  const zonesBox = h("div");
  const mirrorsBox = h("div");
  const pageError = errorBox();

  async function load(selectId) {
    try {
      const [w, z, m, d] = await Promise.all([get("/videowalls"), get("/zones"), get("/mirrorgroups"), get("/displays")]);
      walls = w.videowalls || [];
      zones = z.zones || [];
      displays = d.displays || [];
      mirrors = await Promise.all((m.mirrorgroups || []).map((g) => get(`/mirrorgroups/${seg(g.id)}`).catch(() => ({ ...g, displayIds: [] }))));
      showError(pageError, null);
    } catch (e) {
      if (e.status !== 401) showError(pageError, e);
      return;
    }
    drawWallList();
    if (selectId !== undefined) {
      draft = draftOf(walls.find((x) => x.id === selectId) || null);
      selectedMon = null;
      drawEditor();
    }
    drawZones();
    drawMirrors();
    live.refresh();
  }

  function drawWallList() {
    clear(wallList);
    for (const w of walls) {
      const b = h("button", { type: "button", class: draft.id === w.id ? "primary" : "", "aria-current": draft.id === w.id ? "true" : undefined }, w.name);
      b.addEventListener("click", () => {
        touched = true;
        draft = draftOf(w);
        selectedMon = null;
        drawWallList();
        drawEditor();
        drawZones();
      });
      wallList.append(h("li", {}, b, h("span", { class: "muted small" }, `${w.monitors.length} display${w.monitors.length === 1 ? "" : "s"}`)));
    }
    if (!walls.length) wallList.append(h("li", { class: "muted" }, "No walls yet."));
  }

  /** Displays that may join the wall being edited. */
  function freeDisplays() {
    const onOther = new Set(walls.filter((w) => w.id !== draft.id).flatMap((w) => w.monitors.map((m) => m.displayId)));
    const inMirror = new Set(mirrors.flatMap((g) => g.displayIds || []));
    const here = new Set(draft.monitors.map((m) => m.displayId));
    return displays.map((d) => d.displayId).filter((id) => !onOther.has(id) && !inMirror.has(id) && !here.has(id));
  }

  // ---- wall editor -------------------------------------------------------------

  function drawEditor() {
    const error = errorBox();
    const name = h("input", { name: "wallName", value: draft.name, required: true, autocomplete: "off" });
    name.addEventListener("input", () => (draft.name = name.value));
    const canvas = h("div", { class: "editor-canvas", role: "application", "aria-label": "Wall canvas. Select a display, then drag it or use the arrow keys (Shift for 100 mm)." });
    const table = h("tbody");
    const addSelect = h("select", { name: "addDisplay" });
    const addBtn = h("button", { type: "button" }, "Add display");
    const free = freeDisplays();
    addSelect.append(...(free.length ? free.map((id) => h("option", { value: String(id) }, live.displayName(id))) : [h("option", { value: "" }, "No free displays")]));
    addBtn.disabled = !free.length;
    addBtn.addEventListener("click", () => {
      const id = Number(addSelect.value);
      if (!id && id !== 0) return;
      const right = draft.monitors.reduce((x, m) => Math.max(x, extent(m.g).right), 0);
      const gap = draft.monitors.length ? 10 : 0;
      draft.monitors.push({ displayId: id, g: { width: PANEL.width, height: PANEL.height, centerX: right + gap + PANEL.width / 2, centerY: PANEL.height / 2, rotationDegrees: 0 }, diagonal: PANEL.diagonal });
      selectedMon = draft.monitors.length - 1;
      drawEditor();
    });

    // grid helper
    const cols = h("input", { type: "number", min: 1, max: 20, value: 2, class: "num", name: "cols" });
    const rows = h("input", { type: "number", min: 1, max: 20, value: 2, class: "num", name: "rows" });
    const pw = h("input", { type: "number", min: 1, value: PANEL.width, class: "num", name: "panelWidth" });
    const ph = h("input", { type: "number", min: 1, value: PANEL.height, class: "num", name: "panelHeight" });
    const bezel = h("input", { type: "number", min: 0, value: 10, class: "num", name: "bezel" });
    const gridBtn = h("button", { type: "button" }, "Arrange in a grid");
    gridBtn.addEventListener("click", () => {
      const c = Math.max(1, Number(cols.value) || 1);
      const W = Number(pw.value) || PANEL.width;
      const H = Number(ph.value) || PANEL.height;
      const B = Math.max(0, Number(bezel.value) || 0);
      draft.monitors.forEach((m, i) => {
        const col = i % c;
        const row = Math.floor(i / c);
        m.g = { width: W, height: H, centerX: W / 2 + col * (W + B), centerY: H / 2 + row * (H + B), rotationDegrees: 0 };
      });
      drawEditor();
    });

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
          await load(saved.id);
          return saved;
        },
        { errorBox: error, success: (w) => `Saved wall ${w.name}` },
      );
    });
    const remove = h("button", { type: "button", class: "danger", hidden: !draft.id }, "Delete wall");
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `Delete wall “${draft.name}”?`, message: "Its zones are deleted too; its displays become displays on their own.", confirm: "Delete", danger: true }))) return;
      act(remove, async () => { await del(`/videowalls/${seg(draft.id)}`); await load(null); }, { errorBox: error, success: "Wall deleted" });
    });

    const zoneName = (id) => {
      const z = zones.find((x) => x.videowallId === draft.id && (x.zoneDisplays || []).some((d) => d.displayId === id && d.isSelected));
      return z ? z.zoneName : "";
    };

    function computeView() {
      const boxes = draft.monitors.map((m) => extent(m.g));
      if (!boxes.length) return { left: 0, top: 0, width: 2 * PANEL.width + 10, height: 2 * PANEL.height + 10 };
      const u = boxes.reduce((a, b) => ({ left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) }), { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });
      const pad = Math.max(u.right - u.left, u.bottom - u.top) * 0.08 + 50;
      return { left: u.left - pad, top: u.top - pad, width: u.right - u.left + 2 * pad, height: u.bottom - u.top + 2 * pad };
    }

    function place(el, m, v) {
      Object.assign(el.style, {
        left: `${((m.g.centerX - m.g.width / 2 - v.left) / v.width) * 100}%`,
        top: `${((m.g.centerY - m.g.height / 2 - v.top) / v.height) * 100}%`,
        width: `${(m.g.width / v.width) * 100}%`,
        height: `${(m.g.height / v.height) * 100}%`,
        transform: m.g.rotationDegrees ? `rotate(${m.g.rotationDegrees}deg)` : "",
      });
    }

    const monEls = [];
    const inputs = [];
    function drawCanvas() {
      const v = view || computeView();
      canvas.style.aspectRatio = `${v.width} / ${v.height}`;
      canvas.style.width = `min(100%, calc(60vh * ${v.width / v.height}))`;
      draft.monitors.forEach((m, i) => {
        let el = monEls[i];
        if (!el) {
          el = h("div", { class: "mon", tabindex: "0", role: "button" });
          attachDrag(el, i);
          monEls[i] = el;
          canvas.append(el);
        }
        const zn = zoneName(m.displayId);
        el.textContent = `${live.displayName(m.displayId)}${zn ? ` · ${zn}` : ""}`;
        el.setAttribute("aria-label", `${live.displayName(m.displayId)} at ${round(m.g.centerX)}, ${round(m.g.centerY)} mm`);
        el.classList.toggle("selected", i === selectedMon);
        el.setAttribute("aria-pressed", i === selectedMon ? "true" : "false");
        place(el, m, v);
      });
    }

    function syncInputs(i) {
      const row = inputs[i];
      if (!row) return;
      for (const [key, input] of Object.entries(row)) {
        if (document.activeElement !== input) input.value = key === "diagonal" ? draft.monitors[i].diagonal : round(draft.monitors[i].g[key]);
      }
    }

    function attachDrag(el, i) {
      el.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        selectedMon = i;
        el.focus();
        view = computeView();
        const rect = canvas.getBoundingClientRect();
        const scale = view.width / rect.width;
        const start = { x: e.clientX, y: e.clientY, cx: draft.monitors[i].g.centerX, cy: draft.monitors[i].g.centerY };
        el.setPointerCapture(e.pointerId);
        const move = (ev) => {
          const g = draft.monitors[i].g;
          g.centerX = Math.round((start.cx + (ev.clientX - start.x) * scale) / SNAP) * SNAP;
          g.centerY = Math.round((start.cy + (ev.clientY - start.y) * scale) / SNAP) * SNAP;
          drawCanvas();
          syncInputs(i);
        };
        const up = () => {
          el.removeEventListener("pointermove", move);
          el.removeEventListener("pointerup", up);
          el.removeEventListener("pointercancel", up);
          view = null;
          drawCanvas();
        };
        el.addEventListener("pointermove", move);
        el.addEventListener("pointerup", up);
        el.addEventListener("pointercancel", up);
        drawCanvas();
        highlightRow();
      });
      el.addEventListener("keydown", (e) => {
        const step = e.shiftKey ? 100 : SNAP;
        const g = draft.monitors[i].g;
        const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          selectedMon = i;
          drawCanvas();
          highlightRow();
          return;
        }
        if (!moves[e.key]) return;
        e.preventDefault();
        selectedMon = i;
        g.centerX += moves[e.key][0];
        g.centerY += moves[e.key][1];
        drawCanvas();
        syncInputs(i);
      });
    }

    function highlightRow() {
      [...table.children].forEach((tr, i) => tr.classList.toggle("selected", i === selectedMon));
    }

    draft.monitors.forEach((m, i) => {
      const num = (key, label, attrs = {}) => {
        const input = h("input", { type: "number", step: "any", class: "num", value: key === "diagonal" ? m.diagonal : round(m.g[key]), "aria-label": `${label} of ${live.displayName(m.displayId)}`, ...attrs });
        input.addEventListener("input", () => {
          const v = Number(input.value);
          if (input.value === "" || Number.isNaN(v)) return;
          if (key === "diagonal") m.diagonal = v;
          else m.g[key] = v;
          drawCanvas();
        });
        input.addEventListener("focus", () => {
          selectedMon = i;
          drawCanvas();
          highlightRow();
        });
        return input;
      };
      const row = {
        width: num("width", "Width (mm)", { min: 1 }),
        height: num("height", "Height (mm)", { min: 1 }),
        centerX: num("centerX", "Centre X (mm)"),
        centerY: num("centerY", "Centre Y (mm)"),
        rotationDegrees: num("rotationDegrees", "Rotation (degrees)", { min: -360, max: 360 }),
        diagonal: num("diagonal", "Diagonal (mm)", { min: 0 }),
      };
      inputs[i] = row;
      const rm = h("button", { type: "button", class: "ghost", "aria-label": `Remove ${live.displayName(m.displayId)} from the wall` }, "Remove");
      rm.addEventListener("click", () => {
        draft.monitors.splice(i, 1);
        selectedMon = null;
        drawEditor();
      });
      table.append(h("tr", {}, h("th", { scope: "row" }, live.displayName(m.displayId)), ...Object.values(row).map((x) => h("td", {}, x)), h("td", {}, rm)));
    });

    fill(editor, 
      h("h2", {}, draft.id ? `Wall “${draft.name}”` : "New wall"),
      h("div", { class: "row wrap" }, field("Wall name", name)),
      canvas,
      h("p", { class: "muted small" }, "Sizes and positions in millimetres, positions are the centre of each monitor. Leave gaps between monitors for their bezels."),
      draft.monitors.length
        ? h(
            "div",
            { class: "table-wrap" },
            h("table", { "aria-label": "Monitors of the wall" }, h("thead", {}, h("tr", {}, ["Display", "Width", "Height", "Centre X", "Centre Y", "Rotation °", "Diagonal", ""].map((c) => h("th", { scope: "col" }, c)))), table),
          )
        : h("p", { class: "muted" }, "Add displays to the wall."),
      h("div", { class: "row wrap" }, field("Display", addSelect), addBtn),
      h(
        "fieldset",
        {},
        h("legend", {}, "Arrange the displays in a grid, in the order listed"),
        h("div", { class: "row wrap" }, field("Columns", cols), field("Rows", rows), field("Panel width (mm)", pw), field("Panel height (mm)", ph), field("Bezel gap (mm)", bezel), gridBtn),
      ),
      error,
      h("div", { class: "row end" }, remove, save),
    );
    drawCanvas();
  }

  // ---- zones -------------------------------------------------------------------

  function memberBoxes(ids, chosen, label) {
    const boxes = ids.map((id) => {
      const b = checkbox(live.displayName(id), chosen.includes(id));
      b.input.value = String(id);
      return b;
    });
    const set = h("fieldset", {}, h("legend", {}, label), boxes.length ? boxes : h("span", { class: "muted" }, "No displays available"));
    set.values = () => boxes.filter((b) => b.input.checked).map((b) => Number(b.input.value));
    return set;
  }

  function drawZones() {
    clear(zonesBox);
    const wall = walls.find((w) => w.id === draft.id);
    if (!wall) {
      zonesBox.append(h("p", { class: "muted" }, "Save the wall, then define its zones."));
      return;
    }
    const onWall = wall.monitors.map((m) => m.displayId);
    const wallZones = zones.filter((z) => z.videowallId === wall.id);
    for (const z of wallZones) {
      const error = errorBox();
      const name = h("input", { value: z.zoneName, name: "zoneName" });
      const members = memberBoxes(onWall, (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId), "Displays in the zone");
      const save = h("button", { type: "button", class: "primary" }, "Save zone");
      const remove = h("button", { type: "button", class: "danger" }, "Delete zone");
      save.addEventListener("click", () =>
        act(save, async () => { await put(`/zones/${seg(z.zoneId)}`, { zoneName: name.value.trim(), displayIds: members.values() }); await load(); }, { errorBox: error, success: `Saved zone ${name.value.trim()}` }),
      );
      remove.addEventListener("click", async () => {
        if (!(await confirmDialog({ title: `Delete zone “${z.zoneName}”?`, confirm: "Delete", danger: true }))) return;
        act(remove, async () => { await del(`/zones/${seg(z.zoneId)}`); await load(); }, { errorBox: error, success: "Zone deleted" });
      });
      zonesBox.append(h("div", { class: "card", dataset: { zoneId: z.zoneId } }, field("Zone name", name), members, error, h("div", { class: "row end" }, remove, save)));
    }
    const error = errorBox();
    const name = h("input", { name: "newZoneName", placeholder: "e.g. Left half", autocomplete: "off" });
    const taken = new Set(wallZones.flatMap((z) => (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId)));
    const members = memberBoxes(onWall.filter((id) => !taken.has(id)), [], "Displays (not in another zone)");
    const create = h("button", { type: "button", class: "primary" }, "Create zone");
    create.addEventListener("click", () => {
      if (!name.value.trim()) return showError(error, new Error("Give the zone a name."));
      act(create, async () => { await post("/zones", { zoneName: name.value.trim(), videowallId: wall.id, displayIds: members.values() }); await load(); }, { errorBox: error, success: `Created zone ${name.value.trim()}` });
    });
    zonesBox.append(h("div", { class: "card new-zone" }, h("h3", {}, "New zone"), field("Zone name", name), members, error, h("div", { class: "row end" }, create)));
  }

  // ---- mirror groups -----------------------------------------------------------

  function drawMirrors() {
    clear(mirrorsBox);
    const onWalls = new Set(walls.flatMap((w) => w.monitors.map((m) => m.displayId)));
    const allFree = displays.map((d) => d.displayId).filter((id) => !onWalls.has(id));
    for (const g of mirrors) {
      const error = errorBox();
      const name = h("input", { value: g.name, name: "mirrorName" });
      const others = new Set(mirrors.filter((x) => x.id !== g.id).flatMap((x) => x.displayIds || []));
      const members = memberBoxes(allFree.filter((id) => !others.has(id)), g.displayIds || [], "Displays showing the same picture");
      const save = h("button", { type: "button", class: "primary" }, "Save group");
      const remove = h("button", { type: "button", class: "danger" }, "Delete group");
      save.addEventListener("click", () =>
        act(save, async () => { await put(`/mirrorgroups/${seg(g.id)}`, { name: name.value.trim(), displayIds: members.values() }); await load(); }, { errorBox: error, success: `Saved ${name.value.trim()}` }),
      );
      remove.addEventListener("click", async () => {
        if (!(await confirmDialog({ title: `Delete mirror group “${g.name}”?`, confirm: "Delete", danger: true }))) return;
        act(remove, async () => { await del(`/mirrorgroups/${seg(g.id)}`); await load(); }, { errorBox: error, success: "Mirror group deleted" });
      });
      mirrorsBox.append(h("div", { class: "card" }, field("Group name", name), members, error, h("div", { class: "row end" }, remove, save)));
    }
    const inGroups = new Set(mirrors.flatMap((x) => x.displayIds || []));
    const error = errorBox();
    const name = h("input", { name: "newMirrorName", placeholder: "e.g. Reception", autocomplete: "off" });
    const members = memberBoxes(allFree.filter((id) => !inGroups.has(id)), [], "Displays (on no wall, in no group)");
    const create = h("button", { type: "button", class: "primary" }, "Create mirror group");
    create.addEventListener("click", () => {
      if (!name.value.trim()) return showError(error, new Error("Give the group a name."));
      act(create, async () => { await post("/mirrorgroups", { name: name.value.trim(), displayIds: members.values() }); await load(); }, { errorBox: error, success: `Created ${name.value.trim()}` });
    });
    mirrorsBox.append(h("div", { class: "card" }, h("h3", {}, "New mirror group"), field("Group name", name), members, error, h("div", { class: "row end" }, create)));
  }

  const newBtn = h("button", { type: "button", class: "primary" }, "+ New wall");
  newBtn.addEventListener("click", () => {
    touched = true;
    draft = draftOf(null);
    selectedMon = null;
    drawWallList();
    drawEditor();
    drawZones();
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
    if (touched) return;
    draft = draftOf(walls.find((x) => x.id === first) || walls[0] || null);
    drawWallList();
    drawEditor();
    drawZones();
  });
}

