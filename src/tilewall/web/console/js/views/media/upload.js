// Uploading to the media library: files chosen or dropped, into an optional folder, each
// with its progress; the library is read again when they are done.

import { uploadMedia } from "../../api.js";
import { h, field, toast } from "../../ui.js";

/**
 * The drop zone with its file picker and folder, and the uploads under way.
 * @param {() => Promise<void>} reload after the uploads
 */
export function uploadZone(reload) {
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
    await reload();
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
  return zone;
}
