// The layout's preview: its windows to scale on a 16:9 screen, each dragged to move it
// (positions kept to a hundredth of the screen, inside it).

import { h, clear } from "../../ui.js";

/**
 * The preview of `draft`'s windows.
 * @param {{windows: {sourceId: string, x: number, y: number, width: number, height: number}[]}} draft
 * @param {(sourceId: string) => string} sourceName
 * @param {{selected: number | null}} selection the window chosen last
 * @param {() => void} dropped after a window was dragged: the editor shows its new place
 */
export function layoutCanvas(draft, sourceName, selection, dropped) {
  const canvas = h("div", { class: "editor-canvas", style: { aspectRatio: "16 / 9" }, role: "application", "aria-label": "Layout preview; drag a window to move it" });

  function drag(e, el, w, i) {
    e.preventDefault();
    selection.selected = i;
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
      dropped();
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
  }

  function draw() {
    clear(canvas);
    draft.windows.forEach((w, i) => {
      const el = h("div", { class: `win-box${i === selection.selected ? " selected" : ""}`, tabindex: "0", style: { left: `${w.x * 100}%`, top: `${w.y * 100}%`, width: `${w.width * 100}%`, height: `${w.height * 100}%` } }, `${i + 1}. ${sourceName(w.sourceId)}`);
      el.addEventListener("pointerdown", (e) => drag(e, el, w, i));
      canvas.append(el);
    });
  }

  return { canvas, draw };
}
