// Overview: every wall to scale with its zones, mirror groups and displays on their own,
// live; drag a source onto anything to switch it, select it to control it.

import * as live from "../live.js";
import { h, clear, fill, act, pageHeader, errorText } from "../ui.js";
import { createTile, makeDropTarget, SOURCE_MIME } from "../tile.js";
import { createControlPanel, switchTarget } from "../control.js";

const ZONE_COLORS = ["#4aa8ff", "#ffb347", "#7ee081", "#e58cff", "#ff7a7a", "#5ee0d6", "#f2e35b", "#b0a4ff"];
const TYPE_ICONS = { "Signage Player": "▦", "Web Browser": "◍", "Network Streamer": "▶", "Command and Control": "⊞" };

function rect(g) {
  return { left: g.centerX - g.width / 2, top: g.centerY - g.height / 2, width: g.width, height: g.height };
}

/** Unrotated box around a rotated rectangle. */
function extent(g) {
  const a = (g.rotationDegrees * Math.PI) / 180;
  const w = Math.abs(g.width * Math.cos(a)) + Math.abs(g.height * Math.sin(a));
  const hh = Math.abs(g.width * Math.sin(a)) + Math.abs(g.height * Math.cos(a));
  return { left: g.centerX - w / 2, top: g.centerY - hh / 2, right: g.centerX + w / 2, bottom: g.centerY + hh / 2 };
}

function union(boxes) {
  return boxes.reduce(
    (u, b) => ({ left: Math.min(u.left, b.left), top: Math.min(u.top, b.top), right: Math.max(u.right, b.right), bottom: Math.max(u.bottom, b.bottom) }),
    { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity },
  );
}

function structure(state) {
  return JSON.stringify([
    state.walls.map((w) => [w.id, w.name, w.canvasGeometry, w.monitors.map((m) => [m.displayId, m.monitorGeometry])]),
    state.zones.map((z) => [z.zoneId, z.zoneName, z.videowallId, (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId)]),
    state.mirrors.map((m) => [m.id, m.name, m.displayIds]),
    state.displays.map((d) => d.displayId),
  ]);
}

export function renderOverview(root, params) {
  let selected = params.get("sel") || null;
  const tiles = new Map(); // displayId -> {tile, targetKey, crop, group, color}
  const chips = new Map(); // target key -> chip button
  let sig = "";

  const palette = h("aside", { class: "palette card", "aria-labelledby": "palette-title" });
  const stage = h("div", { class: "stage" });
  const panel = createControlPanel({ onClose: () => select(null) });
  const status = h("p", { class: "muted small", role: "status" }, "Loading…");

  root.append(
    pageHeader("Overview", status),
    h("div", { class: "overview" }, palette, stage, panel.el),
  );

  function select(key) {
    selected = key;
    const hash = key ? `#/overview?sel=${encodeURIComponent(key)}` : "#/overview";
    history.replaceState(null, "", hash);
    panel.show(key);
    update();
  }

  async function drop(targetKey, sourceId) {
    const target = live.targetByKey(targetKey);
    const source = live.sourceById(sourceId);
    if (!target) return;
    await act(null, () => switchTarget(target, sourceId), {
      success: `${target.name} now plays ${source ? source.sourceName : "the source"}`,
      context: `Could not switch ${target.name}`,
    });
  }

  function chip(key, label, color) {
    const b = h("button", { type: "button", class: "chip", style: color ? { "--zone": color } : undefined }, label);
    b.addEventListener("click", () => select(key));
    makeDropTarget(b, (id) => drop(key, id));
    chips.set(key, b);
    return b;
  }

  function addTile(displayId, targetKey, extra) {
    const tile = createTile({ onActivate: () => select(targetKey), onDropSource: (id) => drop(targetKey, id) });
    tiles.set(displayId, { tile, targetKey, ...extra });
    return tile;
  }

  function buildPalette(state) {
    const srcSig = state.sources.map((s) => s.sourceId + s.sourceName).join(",");
    if (palette.dataset.sig === srcSig) return;
    palette.dataset.sig = srcSig;
    fill(palette, 
      h("h2", { id: "palette-title" }, "Sources"),
      h("p", { class: "muted small" }, "Drag a source onto a wall, zone, group or display. Or select one and choose from the list."),
      h(
        "ul",
        { class: "source-list" },
        state.sources.map((s) => {
          const item = h(
            "li",
            { class: "source-chip", draggable: "true", title: `${s.sourceName} (${s.sourceType})`, dataset: { sourceId: s.sourceId } },
            h("span", { class: "glyph", "aria-hidden": "true" }, TYPE_ICONS[s.sourceType] || "■"),
            h("span", {}, s.sourceName, h("small", { class: "muted" }, s.sourceType)),
          );
          item.addEventListener("dragstart", (e) => {
            e.dataTransfer.setData(SOURCE_MIME, s.sourceId);
            e.dataTransfer.setData("text/plain", s.sourceId);
            e.dataTransfer.effectAllowed = "copy";
          });
          return item;
        }),
      ),
      state.sources.length ? null : h("p", { class: "muted" }, h("a", { href: "#/sources" }, "Create a source"), " to get started."),
    );
  }

  function buildStage(state) {
    for (const { tile } of tiles.values()) tile.destroy();
    tiles.clear();
    chips.clear();
    clear(stage);

    for (const wall of state.walls) {
      const zones = state.zones.filter((z) => z.videowallId === wall.id);
      const colorOf = new Map(zones.map((z, i) => [z.zoneId, ZONE_COLORS[i % ZONE_COLORS.length]]));
      const monitors = wall.monitors || [];
      const box = union([extent(wall.canvasGeometry), ...monitors.map((m) => extent(m.monitorGeometry))]);
      const W = box.right - box.left || 1;
      const H = box.bottom - box.top || 1;
      const canvas = h("div", { class: "wall-canvas", style: { aspectRatio: `${W} / ${H}`, width: `min(100%, calc(58vh * ${W / H}))` }, role: "group", "aria-label": `${wall.name}, drawn to scale` });
      // zone pictures span the bounding box of the zone's monitors
      const zoneBox = new Map();
      for (const z of zones) {
        const ids = new Set((z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId));
        const members = monitors.filter((m) => ids.has(m.displayId));
        if (members.length) {
          const u = union(members.map((m) => { const r = rect(m.monitorGeometry); return { left: r.left, top: r.top, right: r.left + r.width, bottom: r.top + r.height }; }));
          zoneBox.set(z.zoneId, u);
        }
      }
      for (const m of monitors) {
        const g = m.monitorGeometry;
        const r = rect(g);
        const zone = live.zoneOfDisplay(m.displayId);
        const key = live.targetOfDisplay(m.displayId);
        let crop = { x: 0, y: 0, w: 1, h: 1 };
        const zb = zone && zoneBox.get(zone.zoneId);
        if (zb) {
          const zw = zb.right - zb.left;
          const zh = zb.bottom - zb.top;
          crop = { x: (r.left - zb.left) / zw, y: (r.top - zb.top) / zh, w: r.width / zw, h: r.height / zh };
        }
        const tile = addTile(m.displayId, key, { crop, group: zone ? `zone ${zone.zoneName}` : "no zone", color: zone ? colorOf.get(zone.zoneId) : "#666" });
        Object.assign(tile.el.style, {
          left: `${((r.left - box.left) / W) * 100}%`,
          top: `${((r.top - box.top) / H) * 100}%`,
          width: `${(r.width / W) * 100}%`,
          height: `${(r.height / H) * 100}%`,
          transform: g.rotationDegrees ? `rotate(${g.rotationDegrees}deg)` : "",
        });
        canvas.append(tile.el);
      }
      const card = h(
        "section",
        { class: "card wall", "aria-label": `Video wall ${wall.name}` },
        h(
          "div",
          { class: "row between wrap" },
          h("h2", {}, wall.name),
          h("div", { class: "row wrap", role: "group", "aria-label": `Zones of ${wall.name}` }, zones.map((z) => chip(`zone:${z.zoneId}`, z.zoneName, colorOf.get(z.zoneId)))),
        ),
        monitors.length ? canvas : h("p", { class: "muted" }, "This wall has no displays yet."),
      );
      stage.append(card);
    }

    if (state.mirrors.length) {
      const groups = h("div", { class: "groups" });
      for (const m of state.mirrors) {
        const key = `mirror:${m.id}`;
        const row = h("div", { class: "display-row" });
        for (const id of m.displayIds) {
          const tile = addTile(id, key, { crop: null, group: `mirror group ${m.name}`, color: "#c9a0ff" });
          const s = live.screenOf(id);
          tile.el.style.aspectRatio = `${s.width} / ${s.height}`;
          row.append(tile.el);
        }
        groups.append(h("div", { class: "group" }, h("div", { class: "row" }, chip(key, m.name, "#c9a0ff")), row.childNodes.length ? row : h("p", { class: "muted" }, "No displays in this group")));
      }
      stage.append(h("section", { class: "card", "aria-label": "Mirror groups" }, h("h2", {}, "Mirror groups"), groups));
    }

    const alone = state.displays.filter((d) => !live.wallOf(d.displayId) && !live.mirrorOfDisplay(d.displayId));
    if (alone.length) {
      const row = h("div", { class: "display-row" });
      for (const d of alone) {
        const tile = addTile(d.displayId, `display:${d.displayId}`, { crop: null, group: "on its own", color: "#888" });
        const s = live.screenOf(d.displayId);
        tile.el.style.aspectRatio = `${s.width} / ${s.height}`;
        row.append(tile.el);
      }
      stage.append(h("section", { class: "card", "aria-label": "Displays on their own" }, h("h2", {}, "Displays"), row));
    }
    if (!state.walls.length && !state.mirrors.length && !alone.length) {
      stage.append(
        h("section", { class: "card" }, h("h2", {}, "No displays yet"), h("p", {}, "Open ", h("a", { href: "#/receivers" }, "Receivers"), " to lock the screens that point at this host.")),
      );
    }
  }

  function update() {
    const state = live.live;
    if (!state.loaded) return;
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

  const unsubscribe = live.subscribe((state) => {
    if (state.error && !state.loaded) {
      status.textContent = errorText(state.error);
      return;
    }
    status.textContent = state.error ? `Not updating: ${errorText(state.error)}` : `Live · updated ${new Date(state.lastOk).toLocaleTimeString()}`;
    buildPalette(state);
    const s = structure(state);
    if (s !== sig) {
      sig = s;
      buildStage(state);
    }
    update();
    panel.show(selected);
  });
  panel.show(null);

  // the panel's position display moves between polls
  const ticker = setInterval(() => panel.update(), 250);
  return () => {
    unsubscribe();
    clearInterval(ticker);
    for (const { tile } of tiles.values()) tile.destroy();
  };
}
