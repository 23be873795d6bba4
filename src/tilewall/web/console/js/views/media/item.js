// One file of the media library as the library shows it.

import { del, encodePath } from "../../api.js";
import { h, act, confirmDialog, formatBytes, formatMs, mediaUrl, modal } from "../../ui.js";

function thumb(f) {
  const url = mediaUrl(f.name);
  if (f.kind === "image") return h("img", { src: url, alt: "", loading: "lazy" });
  return h("video", { src: `${url}#t=0.5`, muted: true, preload: "metadata", "aria-hidden": "true" });
}

/**
 * A file of the library: its thumbnail, name, kind, size and length, Preview and Delete.
 * @param {any} f the file as GET /media lists it
 * @param {HTMLElement} error where a refusal is shown
 * @param {() => Promise<void>} reload after a delete
 */
export function mediaItem(f, error, reload) {
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
    act(remove, async () => { await del(`/media/${encodePath(f.name)}`); await reload(); }, { errorBox: error, success: `Deleted ${f.name}` });
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
