// The wall's canvas: its monitors placed as they hang, each moved by dragging (snapped
// to SNAP mm) or by the arrow keys (Shift for 100 mm).

import * as live from "../live.js";
import { h } from "../ui.js";
import { SNAP, round, viewOf } from "./geometry.js";

/** @typedef {import("./page.js").WallsPage} WallsPage */
/** @typedef {import("./geometry.js").View} View */
/** @typedef {import("./geometry.js").Monitor} Monitor */

/**
 * @param {WallsPage} page
 * @param {{moved: (i: number) => void, selected: () => void}} on a monitor was moved or selected
 * @returns {{el: HTMLElement, draw: () => void}}
 */
export function wallCanvas(page, on) {
  const el = h("div", { class: "editor-canvas", role: "application", "aria-label": "Wall canvas. Select a display, then drag it or use the arrow keys (Shift for 100 mm)." });
  /** @type {HTMLElement[]} */
  const monEls = [];
  /** @type {{fixed: View | null}} the view, fixed while a monitor is dragged */
  const view = { fixed: null };

  function draw() {
    const v = view.fixed || viewOf(page.draft.monitors);
    el.style.aspectRatio = `${v.width} / ${v.height}`;
    el.style.width = `min(100%, calc(60vh * ${v.width / v.height}))`;
    page.draft.monitors.forEach((m, i) => {
      let mon = monEls[i];
      if (!mon) {
        mon = h("div", { class: "mon", tabindex: "0", role: "button" });
        dragging(mon, i);
        keys(mon, i);
        monEls[i] = mon;
        el.append(mon);
      }
      const zone = zoneName(page, m.displayId);
      mon.textContent = `${live.displayName(m.displayId)}${zone ? ` · ${zone}` : ""}`;
      mon.setAttribute("aria-label", `${live.displayName(m.displayId)} at ${round(m.g.centerX)}, ${round(m.g.centerY)} mm`);
      mon.classList.toggle("selected", i === page.selected);
      mon.setAttribute("aria-pressed", i === page.selected ? "true" : "false");
      place(mon, m, v);
    });
  }

  /** @param {HTMLElement} mon @param {number} i */
  function dragging(mon, i) {
    mon.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      page.selected = i;
      mon.focus();
      const v = viewOf(page.draft.monitors);
      view.fixed = v;
      const scale = v.width / el.getBoundingClientRect().width;
      const g = page.draft.monitors[i].g;
      const start = { x: e.clientX, y: e.clientY, cx: g.centerX, cy: g.centerY };
      mon.setPointerCapture(e.pointerId);
      /** @param {PointerEvent} ev */
      const move = (ev) => {
        g.centerX = Math.round((start.cx + (ev.clientX - start.x) * scale) / SNAP) * SNAP;
        g.centerY = Math.round((start.cy + (ev.clientY - start.y) * scale) / SNAP) * SNAP;
        draw();
        on.moved(i);
      };
      const up = () => {
        mon.removeEventListener("pointermove", move);
        mon.removeEventListener("pointerup", up);
        mon.removeEventListener("pointercancel", up);
        view.fixed = null;
        draw();
      };
      mon.addEventListener("pointermove", move);
      mon.addEventListener("pointerup", up);
      mon.addEventListener("pointercancel", up);
      draw();
      on.selected();
    });
  }

  /** @param {HTMLElement} mon @param {number} i */
  function keys(mon, i) {
    mon.addEventListener("keydown", (e) => {
      const step = e.shiftKey ? 100 : SNAP;
      /** @type {Record<string, [number, number]>} */
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        page.selected = i;
        draw();
        on.selected();
        return;
      }
      if (!moves[e.key]) return;
      e.preventDefault();
      page.selected = i;
      const g = page.draft.monitors[i].g;
      g.centerX += moves[e.key][0];
      g.centerY += moves[e.key][1];
      draw();
      on.moved(i);
    });
  }

  return { el, draw };
}

/**
 * The zone of the wall being edited that a display is in ("" for none).
 * @param {WallsPage} page
 * @param {number} displayId
 */
function zoneName(page, displayId) {
  const z = page.zones.find((x) => x.videowallId === page.draft.id && (x.zoneDisplays || []).some((d) => d.displayId === displayId && d.isSelected));
  return z ? z.zoneName : "";
}

/**
 * @param {HTMLElement} el
 * @param {Monitor} m
 * @param {View} v
 */
function place(el, m, v) {
  Object.assign(el.style, {
    left: `${((m.g.centerX - m.g.width / 2 - v.left) / v.width) * 100}%`,
    top: `${((m.g.centerY - m.g.height / 2 - v.top) / v.height) * 100}%`,
    width: `${(m.g.width / v.width) * 100}%`,
    height: `${(m.g.height / v.height) * 100}%`,
    transform: m.g.rotationDegrees ? `rotate(${m.g.rotationDegrees}deg)` : "",
  });
}
