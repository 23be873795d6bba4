// Play a video list: files chosen from the media library, in the order ticked, played on
// one target.

import { get, put } from "../api.js";
import * as live from "../live.js";
import { h, fill, act, field, checkbox, errorBox, showError, formatMs, modal, formatBytes } from "../ui.js";

/** Choose files from the media library and play them as a video list on a target. */
export async function openVideoList(target) {
  const error = errorBox();
  const list = h("div", { class: "pick-list", role: "group", "aria-label": "Media files, in play order" });
  const chosen = [];
  const order = h("ol", { class: "order" });
  const repeat = checkbox("Repeat", true);
  const queue = checkbox("Add to the list playing now (queue)");
  const interval = h("input", { type: "number", min: 1, max: 86400, value: 10, name: "interval" });
  const playBtn = h("button", { type: "button", class: "primary" }, "Play");
  const body = h(
    "div",
    {},
    h("p", { class: "muted" }, `Plays on ${target.name}. Tick files in the order they should play.`),
    list,
    h("h3", {}, "Play order"),
    order,
    h("div", { class: "row wrap" }, repeat, queue, field("Seconds per image", interval)),
    error,
    h("div", { class: "row end" }, playBtn),
  );
  const { close } = modal("Play a video list", body, { wide: true });
  const renderOrder = () => fill(order, ...(chosen.length ? chosen.map((n) => h("li", {}, n)) : [h("li", { class: "muted" }, "Nothing chosen yet")]));
  renderOrder();
  try {
    const media = await get("/media");
    for (const f of media.files || []) {
      const box = checkbox(`${f.name} (${f.kind}${f.durationInMilliseconds ? `, ${formatMs(f.durationInMilliseconds)}` : ""}, ${formatBytes(f.size)})`);
      box.input.value = f.name;
      box.input.addEventListener("change", () => {
        const i = chosen.indexOf(f.name);
        if (box.input.checked && i < 0) chosen.push(f.name);
        if (!box.input.checked && i >= 0) chosen.splice(i, 1);
        renderOrder();
      });
      list.append(box);
    }
    if (!(media.files || []).length) list.append(h("p", { class: "muted" }, "The media library is empty. Upload files under Media."));
  } catch (e) {
    showError(error, e);
  }
  playBtn.addEventListener("click", () => {
    if (!chosen.length) {
      showError(error, new Error("Choose at least one file."));
      return;
    }
    act(
      playBtn,
      async () => {
        await put(`${target.path}/playVideoList`, {
          videolist: chosen,
          repeat: repeat.input.checked,
          queue: queue.input.checked,
          slideshowInterval: Number(interval.value) || 10,
        });
        await live.refresh();
        close();
      },
      { errorBox: error, success: `Playing a video list on ${target.name}` },
    );
  });
}
