// The media library: upload (with progress), preview, delete.

import { get } from "../../api.js";
import { h, clear, errorBox, showError, pageHeader, section, formatBytes } from "../../ui.js";
import { mediaItem } from "./item.js";
import { uploadZone } from "./upload.js";

export function renderMedia(root) {
  const error = errorBox();
  const grid = h("div", { class: "media-grid", role: "list", "aria-label": "Media files" });
  const count = h("span", { class: "muted small", role: "status" });

  async function load() {
    try {
      const body = await get("/media");
      const files = body.files || [];
      count.textContent = `${files.length} file${files.length === 1 ? "" : "s"}, ${formatBytes(files.reduce((a, f) => a + f.size, 0))}`;
      clear(grid);
      if (!files.length) grid.append(h("p", { class: "muted" }, "The library is empty."));
      for (const f of files) grid.append(mediaItem(f, error, load));
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  root.append(pageHeader("Media library", count), section("Upload", uploadZone(load)), section("Files", error, grid));
  load();
}
