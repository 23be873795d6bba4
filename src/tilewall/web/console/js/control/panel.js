// The control panel of one target (zone, mirror group or display): what it shows, the
// source to switch it to, its playback buttons and its displays. Built when a target is
// selected, repainted on each read of the host (and as the position moves).

import * as live from "../live.js";
import { h, clear, fill, act, field, checkbox, errorBox } from "../ui.js";
import { switchTarget } from "./commands.js";
import { playbackControls } from "./playback.js";
import { targetReadout } from "./readout.js";
import { shareControls } from "./share.js";
import { openVideoList } from "./videolist.js";

export { switchTarget, stopTarget } from "./commands.js";

/** @param {{onClose?: () => void}} [options] */
export function createControlPanel({ onClose } = {}) {
  const el = h("aside", { class: "panel card", "aria-label": "Switch and control" });
  let current = null; // target key
  /** @type {((target: any) => void) | null} */
  let paint = null;
  const targetNow = () => live.targetByKey(current);

  function build(target) {
    clear(el);
    const error = errorBox();
    const readout = targetReadout();
    const picker = sourcePicker(targetNow, error);
    const playback = playbackControls(targetNow, () => picker.select.value, error, () => panel.update());
    const sharing = shareControls(targetNow, error);
    const listBtn = h("button", { type: "button", dataset: { needs: "operate" } }, "Play a video list…");
    listBtn.addEventListener("click", () => {
      const t = targetNow();
      if (t) openVideoList(t);
    });
    const members = h("ul", { class: "members" });
    const close = h("button", { type: "button", class: "ghost", "aria-label": "Close the control panel" }, "×");
    close.addEventListener("click", () => onClose && onClose());

    el.setAttribute("aria-labelledby", readout.title.id);
    el.append(
      h("div", { class: "row between" }, readout.title, close),
      ...readout.lines,
      h("h3", {}, "Source"),
      ...picker.rows(target),
      h("h3", {}, "Playback"),
      ...playback.rows,
      h("div", { class: "row" }, listBtn),
      h("h3", {}, "Screen share"),
      ...sharing.rows,
      error,
      h("h3", {}, "Displays"),
      members,
    );
    paint = (t) => {
      readout.paint(t);
      playback.paint(t);
      picker.paint(t);
      sharing.paint(t);
      paintMembers(members, t);
    };
  }

  const panel = {
    el,
    get key() {
      return current;
    },
    show(key) {
      const target = key ? live.targetByKey(key) : null;
      if (!target) {
        current = null;
        fill(el, 
          h("h2", {}, "Switch and control"),
          h("p", { class: "muted" }, "Select a zone, mirror group or display — click it or press Enter on it — or drag a source onto it."),
        );
        return;
      }
      if (current !== key || !paint) {
        current = key;
        build(target);
      }
      if (paint) paint(target);
    },
    update() {
      if (!current) return;
      const target = targetNow();
      if (!target) panel.show(null);
      else if (paint) paint(target);
    },
  };
  return panel;
}

/** The source list (refilled when the host's sources change) and the Switch button. */
function sourcePicker(targetNow, error) {
  const select = h("select", { name: "source" });
  const welcome = checkbox("Show the welcome screen instead");
  const switchBtn = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "Switch");
  switchBtn.addEventListener("click", () => {
    const t = targetNow();
    if (!t || !select.value) return;
    act(switchBtn, () => switchTarget(t, select.value, { welcome: welcome.input.checked }), {
      errorBox: error,
      success: `Switched ${t.name}`,
    });
  });
  let shown = "";
  return {
    select,
    // mirror groups have no welcome screen of their own
    rows: (target) => [field("Play this source", select), target.kind !== "mirror" ? welcome : null, h("div", { class: "row" }, switchBtn)],
    paint(target) {
      const sig = live.live.sources.map((s) => s.sourceId + s.sourceName).join(",");
      if (sig === shown) return;
      const keep = select.value;
      shown = sig;
      fill(select, 
        h("option", { value: "" }, "Choose a source…"),
        ...live.live.sources.map((s) => h("option", { value: s.sourceId }, `${s.sourceName} (${s.sourceType})`)),
      );
      select.value = keep || target.sourceId || "";
    },
  };
}

function paintMembers(members, target) {
  fill(members, 
    ...target.displayIds.map((id) => {
      const d = live.displayById(id);
      const on = d && d.isOnline;
      return h("li", {}, h("span", { class: `dot ${on ? "on" : "off"}`, "aria-hidden": "true" }), ` ${live.displayName(id)} — ${on ? "online" : "offline"}`);
    }),
  );
}
