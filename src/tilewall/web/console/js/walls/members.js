// Check boxes choosing displays (the members of a zone or a mirror group).

import * as live from "../live.js";
import { h, checkbox } from "../ui.js";

/**
 * @param {number[]} ids the displays offered
 * @param {number[]} chosen those checked
 * @param {string} label
 * @returns {{el: HTMLElement, values: () => number[]}}
 */
export function memberBoxes(ids, chosen, label) {
  const boxes = ids.map((id) => {
    const b = checkbox(live.displayName(id), chosen.includes(id));
    b.input.value = String(id);
    return b;
  });
  const el = h("fieldset", {}, h("legend", {}, label), boxes.length ? boxes : h("span", { class: "muted" }, "No displays available"));
  return { el, values: () => boxes.filter((b) => b.input.checked).map((b) => Number(b.input.value)) };
}
