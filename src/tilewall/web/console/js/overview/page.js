// Overview: every wall to scale with its zones, mirror groups and displays on their own,
// live; drag a source onto anything to switch it, select it to control it.

import * as live from "../live.js";
import { h, act, pageHeader, errorText } from "../ui.js";
import { createTile, makeDropTarget } from "../tile.js";
import { createControlPanel, switchTarget } from "../control/panel.js";
import { drawPalette } from "./palette.js";
import { drawStage } from "./stage.js";

/**
 * What the stage is drawn from: when it is the same, the tiles stay and are updated.
 * @param {typeof live.live} state
 */
function structure(state) {
  return JSON.stringify([
    state.walls.map((w) => [w.id, w.name, w.canvasGeometry, (w.monitors || []).map((m) => [m.displayId, m.monitorGeometry])]),
    state.zones.map((z) => [z.zoneId, z.zoneName, z.videowallId, (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId)]),
    state.mirrors.map((m) => [m.id, m.name, m.displayIds]),
    state.displays.map((d) => d.displayId),
  ]);
}

/**
 * Switch `targetKey` to play `sourceId` (a source dropped on it).
 * @param {string} targetKey
 * @param {string} sourceId
 */
async function drop(targetKey, sourceId) {
  const target = live.targetByKey(targetKey);
  const source = live.sourceById(sourceId);
  if (!target) return;
  await act(null, () => switchTarget(target, sourceId), {
    success: `${target.name} now plays ${source ? source.sourceName : "the source"}`,
    context: `Could not switch ${target.name}`,
  });
}

/**
 * Bring each tile and chip up to date with the host's targets.
 * @param {Map<number, any>} tiles displayId -> {tile, targetKey, crop, group, color}
 * @param {Map<string, HTMLElement>} chips target key -> chip button
 * @param {string | null} selected
 */
function updateTiles(tiles, chips, selected) {
  if (!live.live.loaded) return;
  const targets = new Map(live.targets().map((t) => [t.key, t]));
  for (const [displayId, info] of tiles) {
    const t = targets.get(info.targetKey);
    const d = live.displayById(displayId);
    if (!t) continue;
    info.tile.update({
      key: info.targetKey,
      displayId,
      label: live.displayName(displayId),
      group: info.group,
      color: info.color,
      online: !!(d && d.isOnline),
      state: t.state,
      source: t.source,
      media: t.media,
      videolist: t.videolist,
      crop: info.crop,
      layout: t.kind === "zone" ? live.live.layouts.get(t.name) || null : null,
      selected: info.targetKey === selected,
    });
  }
  for (const [key, b] of chips) {
    const t = targets.get(key);
    b.setAttribute("aria-pressed", key === selected ? "true" : "false");
    if (t) b.title = `${t.name}: ${t.source ? t.source.sourceName : t.state}`;
  }
}

/**
 * @param {HTMLElement} root
 * @param {URLSearchParams} params `sel`: the key of the target selected
 */
export function renderOverview(root, params) {
  let selected = params.get("sel") || null;
  const tiles = new Map(); // displayId -> {tile, targetKey, crop, group, color}
  const chips = new Map(); // target key -> chip button
  let sig = "";

  const palette = h("aside", { class: "palette card", "aria-labelledby": "palette-title" });
  const stage = h("div", { class: "stage" });
  const panel = createControlPanel({ onClose: () => select(null) });
  const status = h("p", { class: "muted small", role: "status" }, "Loading…");
  root.append(pageHeader("Overview", status), h("div", { class: "overview" }, palette, stage, panel.el));

  /** @param {string | null} key */
  function select(key) {
    selected = key;
    history.replaceState(null, "", key ? `#/overview?sel=${encodeURIComponent(key)}` : "#/overview");
    panel.show(key);
    update();
  }

  const make = {
    /** @type {import("./stage.js").Makers["tile"]} */
    tile(displayId, targetKey, extra) {
      const tile = createTile({ onActivate: () => select(targetKey), onDropSource: (id) => drop(targetKey, id) });
      tiles.set(displayId, { tile, targetKey, ...extra });
      return tile;
    },
    /** @type {import("./stage.js").Makers["chip"]} */
    chip(key, label, color) {
      const b = h("button", { type: "button", class: "chip", style: color ? { "--zone": color } : undefined }, label);
      b.addEventListener("click", () => select(key));
      makeDropTarget(b, (id) => drop(key, id));
      chips.set(key, b);
      return b;
    },
  };

  const update = () => updateTiles(tiles, chips, selected);

  function destroyTiles() {
    for (const { tile } of tiles.values()) tile.destroy();
    tiles.clear();
    chips.clear();
  }

  const unsubscribe = live.subscribe((state) => {
    if (state.error && !state.loaded) {
      status.textContent = errorText(state.error);
      return;
    }
    status.textContent = state.error ? `Not updating: ${errorText(state.error)}` : `Live · updated ${new Date(state.lastOk).toLocaleTimeString()}`;
    drawPalette(palette, state.sources);
    const s = structure(state);
    if (s !== sig) {
      sig = s;
      destroyTiles();
      drawStage(stage, state, make);
    }
    update();
    panel.show(selected);
  });
  panel.show(null);

  // the panel's position display moves between reads of the host
  const ticker = setInterval(() => panel.update(), 250);
  return () => {
    unsubscribe();
    clearInterval(ticker);
    destroyTiles();
  };
}
