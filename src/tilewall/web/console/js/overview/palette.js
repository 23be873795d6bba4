// The overview's palette: every source, dragged onto a wall, zone, group or display.

import { h, fill } from "../ui.js";
import { SOURCE_MIME } from "../tile.js";

const TYPE_ICONS = { "Signage Player": "▦", "Web Browser": "◍", "Network Streamer": "▶", "Command and Control": "⊞" };

/**
 * Draw the sources into `palette` (only when they changed).
 * @param {HTMLElement} palette
 * @param {import("../host-state.js").Source[]} sources
 */
export function drawPalette(palette, sources) {
  const sig = sources.map((s) => s.sourceId + s.sourceName).join(",");
  if (palette.dataset.sig === sig) return;
  palette.dataset.sig = sig;
  fill(
    palette,
    h("h2", { id: "palette-title" }, "Sources"),
    h("p", { class: "muted small" }, "Drag a source onto a wall, zone, group or display. Or select one and choose from the list."),
    h("ul", { class: "source-list" }, sources.map(sourceChip)),
    sources.length ? null : h("p", { class: "muted" }, h("a", { href: "#/sources" }, "Create a source"), " to get started."),
  );
}

/** @param {import("../host-state.js").Source} s */
function sourceChip(s) {
  const item = h(
    "li",
    { class: "source-chip", draggable: "true", title: `${s.sourceName} (${s.sourceType})`, dataset: { sourceId: s.sourceId } },
    h("span", { class: "glyph", "aria-hidden": "true" }, /** @type {Record<string, string>} */ (TYPE_ICONS)[s.sourceType] || "■"),
    h("span", {}, s.sourceName, h("small", { class: "muted" }, s.sourceType)),
  );
  item.addEventListener("dragstart", (e) => {
    if (!e.dataTransfer) return;
    e.dataTransfer.setData(SOURCE_MIME, s.sourceId);
    e.dataTransfer.setData("text/plain", s.sourceId);
    e.dataTransfer.effectAllowed = "copy";
  });
  return item;
}
