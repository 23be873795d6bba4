// The table of the wall's monitors: each one's size, centre, rotation and diagonal typed
// in, and a button that takes it off the wall.

import * as live from "../live.js";
import { h } from "../ui.js";
import { round } from "./geometry.js";

/** @typedef {import("./page.js").WallsPage} WallsPage */
/** @typedef {import("./geometry.js").Monitor} Monitor */

/** @type {[string, string, Record<string, number>][]} key, label, the input's limits */
const COLUMNS = [
  ["width", "Width (mm)", { min: 1 }],
  ["height", "Height (mm)", { min: 1 }],
  ["centerX", "Centre X (mm)", {}],
  ["centerY", "Centre Y (mm)", {}],
  ["rotationDegrees", "Rotation (degrees)", { min: -360, max: 360 }],
  ["diagonal", "Diagonal (mm)", { min: 0 }],
];

/**
 * @param {Monitor} m
 * @param {string} key
 */
const valueOf = (m, key) => (key === "diagonal" ? m.diagonal : round(/** @type {any} */ (m.g)[key]));

/**
 * @param {WallsPage} page
 * @param {{changed: () => void, focused: () => void, removed: () => void}} on
 * @returns {{tbody: HTMLElement, highlight: () => void, sync: (i: number) => void}}
 */
export function monitorTable(page, on) {
  const tbody = h("tbody");
  /** @type {Record<string, HTMLInputElement>[]} */
  const inputs = [];
  const highlight = () => [...tbody.children].forEach((tr, i) => tr.classList.toggle("selected", i === page.selected));

  page.draft.monitors.forEach((m, i) => {
    /** @type {Record<string, HTMLInputElement>} */
    const row = {};
    for (const [key, label, attrs] of COLUMNS) {
      const input = /** @type {HTMLInputElement} */ (h("input", { type: "number", step: "any", class: "num", value: valueOf(m, key), "aria-label": `${label} of ${live.displayName(m.displayId)}`, ...attrs }));
      input.addEventListener("input", () => {
        const v = Number(input.value);
        if (input.value === "" || Number.isNaN(v)) return;
        if (key === "diagonal") m.diagonal = v;
        else /** @type {any} */ (m.g)[key] = v;
        on.changed();
      });
      input.addEventListener("focus", () => {
        page.selected = i;
        on.focused();
        highlight();
      });
      row[key] = input;
    }
    inputs[i] = row;
    const remove = h("button", { type: "button", class: "ghost", "aria-label": `Remove ${live.displayName(m.displayId)} from the wall` }, "Remove");
    remove.addEventListener("click", () => {
      page.draft.monitors.splice(i, 1);
      page.selected = null;
      on.removed();
    });
    tbody.append(h("tr", {}, h("th", { scope: "row" }, live.displayName(m.displayId)), ...Object.values(row).map((x) => h("td", {}, x)), h("td", {}, remove)));
  });

  /** The inputs of monitor `i` show where it is now (but the one being typed in). */
  const sync = (i) => {
    for (const [key, input] of Object.entries(inputs[i] || {})) {
      if (document.activeElement !== input) input.value = String(valueOf(page.draft.monitors[i], key));
    }
  };
  return { tbody, highlight, sync };
}
