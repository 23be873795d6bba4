// The media library: upload (with progress), preview, delete.

import { get, del, uploadMedia, encodePath } from "../api.js";
import { h, clear, act, field, errorBox, showError, confirmDialog, pageHeader, section, formatBytes, formatMs, mediaUrl, modal, toast } from "../ui.js";

export function renderMedia(root) {
  const error = errorBox();
  const grid = h("div", { class: "media-grid", role: "list", "aria-label": "Media files" });
  const count = h("span", { class: "muted small", role: "status" });
  const folder = h("input", { name: "folder", placeholder: "optional, e.g. lobby", autocomplete: "off" });
  const picker = h("input", { type: "file", name: "files", multiple: true, accept: "image/*,video/*" });
  const uploads = h("ul", { class: "uploads", "aria-label": "Uploads" });
  const zone = h(
    "div",
    { class: "dropzone" },
    h("p", {}, "Drop images and videos here, or choose them:"),
    h("div", { class: "row wrap", style: { justifyContent: "center" } }, field("Files to upload", picker), field("Into folder", folder)),
    uploads,
  );

  async function load() {
    try {
      const body = await get("/media");
      const files = body.files || [];
      count.textContent = `${files.length} file${files.length === 1 ? "" : "s"}, ${formatBytes(files.reduce((a, f) => a + f.size, 0))}`;
      clear(grid);
      if (!files.length) grid.append(h("p", { class: "muted" }, "The library is empty."));
      for (const f of files) grid.append(item(f));
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  function thumb(f) {
    const url = mediaUrl(f.name);
    if (f.kind === "image") return h("img", { src: url, alt: "", loading: "lazy" });
    return h("video", { src: `${url}#t=0.5`, muted: true, preload: "metadata", "aria-hidden": "true" });
  }

  function item(f) {
    const preview = h("button", { type: "button", "aria-label": `Preview ${f.name}` }, "Preview");
    const remove = h("button", { type: "button", class: "danger", "aria-label": `Delete ${f.name}` }, "Delete");
    preview.addEventListener("click", () => {
      const url = mediaUrl(f.name);
      const body =
        f.kind === "image"
          ? h("img", { class: "preview-media", src: url, alt: f.name })
          : h("video", { class: "preview-media", src: url, controls: true, autoplay: true, muted: true });
      modal(f.name, h("div", {}, body, h("p", { class: "muted" }, `${f.kind}, ${formatBytes(f.size)}${f.durationInMilliseconds ? `, ${formatMs(f.durationInMilliseconds)}` : ""} · `, h("a", { href: url, download: f.name.split("/").pop() }, "Download"))), { wide: true });
    });
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `Delete “${f.name}”?`, message: "Sources and video lists that name it will skip it.", confirm: "Delete", danger: true }))) return;
      act(remove, async () => { await del(`/media/${encodePath(f.name)}`); await load(); }, { errorBox: error, success: `Deleted ${f.name}` });
    });
    return h(
      "div",
      { class: "media-item", role: "listitem", dataset: { name: f.name } },
      h("div", { class: "thumb" }, thumb(f)),
      h("div", { class: "name" }, f.name),
      h("div", { class: "small muted" }, `${f.kind} · ${formatBytes(f.size)}${f.durationInMilliseconds ? ` · ${formatMs(f.durationInMilliseconds)}` : ""}`),
      h("div", { class: "row" }, preview, remove),
    );
  }

  async function upload(files) {
    const prefix = folder.value.trim().replace(/^\/+|\/+$/g, "");
    const jobs = [...files].map((file) => {
      const name = prefix ? `${prefix}/${file.name}` : file.name;
      const bar = h("progress", { max: 1, value: 0, "aria-label": `Upload of ${name}` });
      const pct = h("span", { class: "small" }, "0%");
      const li = h("li", {}, h("span", { class: "name" }, name), bar, pct);
      uploads.append(li);
      return uploadMedia(name, file, (f) => {
        bar.value = f;
        pct.textContent = `${Math.round(f * 100)}%`;
      })
        .then(() => {
          pct.textContent = "done";
          setTimeout(() => li.remove(), 2500);
          return true;
        })
        .catch((e) => {
          pct.textContent = "failed";
          li.append(h("small", { class: "field-error", role: "alert", style: { gridColumn: "1 / -1" } }, `${name}: ${e.message}`));
          return false;
        });
    });
    const results = await Promise.all(jobs);
    const ok = results.filter(Boolean).length;
    if (ok) toast(`Uploaded ${ok} file${ok === 1 ? "" : "s"}`, "ok");
    picker.value = "";
    await load();
  }

  picker.addEventListener("change", () => picker.files.length && upload(picker.files));
  zone.addEventListener("dragover", (e) => {
    if ([...e.dataTransfer.types].includes("Files")) {
      e.preventDefault();
      zone.classList.add("drop-hover");
    }
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("drop-hover"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("drop-hover");
    if (e.dataTransfer.files.length) upload(e.dataTransfer.files);
  });

  root.append(pageHeader("Media library", count), section("Upload", zone), section("Files", error, grid));
  load();
}
