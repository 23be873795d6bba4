// Switch and control one target (zone, mirror group or display): pick a source, play,
// pause, resume, stop, seek, play a video list.

import { get, put, seg } from "./api.js";
import * as live from "./live.js";
import { h, clear, fill, act, field, checkbox, errorBox, showError, formatMs, parseDuration, modal, formatBytes, nextId } from "./ui.js";

const KIND_LABEL = { zone: "Zone", mirror: "Mirror group", display: "Display" };
const STATE_TEXT = { playing: "Playing", paused: "Paused", welcome: "Showing the welcome screen", stopped: "Stopped" };

/** Switch a target to a source (the same call for drag and drop and the list). */
export async function switchTarget(target, sourceId, { welcome = false } = {}) {
  if (target.kind === "mirror") {
    if (welcome) return stopTarget(target, sourceId);
    // mirror groups have no /switch: play with a source selector switches them
    await put(`${target.path}/play`, { sourceId });
  } else {
    await put(`${target.path}/switch`, undefined, {
      query: { destinationSourceId: sourceId, isShowWelcomeScreen: welcome || undefined },
    });
  }
  await live.refresh();
}

/** Stop: zones have /stop; displays and mirror groups go to the welcome screen by a
 *  switch with isShowWelcomeScreen (a member display's switch acts on its group). */
export async function stopTarget(target, fallbackSourceId = "") {
  if (target.kind === "zone") {
    await put(`${target.path}/stop`);
  } else {
    const sourceId = target.sourceId || fallbackSourceId;
    if (!sourceId) throw new Error("Nothing to stop: no source is assigned here.");
    const displayId = target.displayIds[0];
    await put(`/displays/${seg(displayId)}/switch`, undefined, {
      query: { destinationSourceId: sourceId, isShowWelcomeScreen: true },
    });
  }
  await live.refresh();
}

/** @param {{onClose?: () => void}} [options] */
export function createControlPanel({ onClose } = {}) {
  const el = h("aside", { class: "panel card", "aria-label": "Switch and control" });
  let current = null; // target key
  let parts = null;

  function build(target) {
    clear(el);
    const error = errorBox();
    const title = h("h2", { id: nextId("ctl") });
    const kind = h("p", { class: "muted small" });
    const status = h("p", { class: "status-line" });
    const nowPlaying = h("p", { class: "now" });
    const bar = h("div", { class: "progress", role: "progressbar", "aria-label": "Position in the current item", "aria-valuemin": "0" }, h("span"));
    const times = h("span", { class: "muted small times" });

    const sourceSelect = h("select", { name: "source" });
    const welcome = checkbox("Show the welcome screen instead");
    const switchBtn = h("button", { type: "button", class: "primary" }, "Switch");
    switchBtn.addEventListener("click", () => {
      const t = live.targetByKey(current);
      if (!t || !sourceSelect.value) return;
      act(switchBtn, () => switchTarget(t, sourceSelect.value, { welcome: welcome.input.checked }), {
        errorBox: error,
        success: `Switched ${t.name}`,
      });
    });

    const control = (label, fn, cls = "") => {
      const b = h("button", { type: "button", class: cls }, label);
      b.addEventListener("click", () => {
        const t = live.targetByKey(current);
        // repaint afterwards: act() re-enables the button, the state decides
        if (t) act(b, async () => { await fn(t); await live.refresh(); }, { errorBox: error }).then(() => panel.update());
      });
      return b;
    };
    const playBtn = control("▶ Play", (t) => put(`${t.path}/play`));
    const pauseBtn = control("❚❚ Pause", (t) => put(`${t.path}/pause`));
    const resumeBtn = control("▶ Resume", (t) => put(`${t.path}/resume`));
    const stopBtn = control("■ Stop", (t) => stopTarget(t, sourceSelect.value));
    const rewBtn = control("« 10 s", (t) => put(`${t.path}/rewind`, { time: 10000 }));
    const fwdBtn = control("10 s »", (t) => put(`${t.path}/forward`, { time: 10000 }));
    const seekInput = h("input", { name: "seek", inputmode: "numeric", placeholder: "m:ss", size: 6 });
    const seekBtn = control("Seek", (t) => {
      const ms = parseDuration(seekInput.value);
      if (Number.isNaN(ms)) throw new Error("Give the position as minutes:seconds, for example 1:30, or as seconds.");
      return put(`${t.path}/seek`, { time: ms });
    });
    const listBtn = h("button", { type: "button" }, "Play a video list…");
    listBtn.addEventListener("click", () => {
      const t = live.targetByKey(current);
      if (t) openVideoList(t);
    });
    const members = h("ul", { class: "members" });
    const close = h("button", { type: "button", class: "ghost", "aria-label": "Close the control panel" }, "×");
    close.addEventListener("click", () => onClose && onClose());

    el.setAttribute("aria-labelledby", title.id);
    el.append(
      h("div", { class: "row between" }, title, close),
      kind,
      status,
      nowPlaying,
      h("div", { class: "row" }, bar, times),
      h("h3", {}, "Source"),
      field("Play this source", sourceSelect),
      target.kind !== "mirror" ? welcome : null,
      h("div", { class: "row" }, switchBtn),
      h("h3", {}, "Playback"),
      h("div", { class: "row wrap", role: "group", "aria-label": "Playback" }, playBtn, pauseBtn, resumeBtn, stopBtn),
      h("div", { class: "row wrap", role: "group", "aria-label": "Position (signage)" }, rewBtn, fwdBtn, field("Seek to", seekInput), seekBtn),
      h("div", { class: "row" }, listBtn),
      error,
      h("h3", {}, "Displays"),
      members,
    );
    parts = { title, kind, status, nowPlaying, bar, times, sourceSelect, pauseBtn, resumeBtn, rewBtn, fwdBtn, seekBtn, seekInput, members, sourcesSig: "" };
  }

  function paint(target) {
    const p = parts;
    p.title.textContent = target.name;
    const wall = target.wallId ? live.live.walls.find((w) => w.id === target.wallId) : null;
    p.kind.textContent = `${KIND_LABEL[target.kind]}${wall ? ` of ${wall.name}` : ""}`;
    p.status.textContent = `${target.online ? "Online" : target.someOnline ? "Partly offline" : "Offline"} · ${STATE_TEXT[target.state]}`;
    p.status.className = `status-line ${target.online ? "" : "warn"}`;
    const src = target.source;
    const file = target.media && target.media.filename;
    p.nowPlaying.textContent = src
      ? `${src.sourceName} (${src.sourceType})${file ? ` — ${file}` : ""}`
      : target.videolist
        ? `Video list — ${file}`
        : "No source playing";
    const total = target.media ? target.media.total : 0;
    const pos = live.positionNow(target);
    const signage = total > 0;
    p.bar.hidden = !signage;
    p.bar.firstChild.style.width = signage ? `${Math.min(100, (pos / total) * 100)}%` : "0";
    p.bar.setAttribute("aria-valuemax", String(total || 0));
    p.bar.setAttribute("aria-valuenow", String(Math.round(pos)));
    p.bar.setAttribute("aria-valuetext", `${formatMs(pos)} of ${formatMs(total)}`);
    p.times.textContent = signage ? `${formatMs(pos)} / ${formatMs(total)}` : target.media && target.state !== "welcome" && target.state !== "stopped" ? `playing for ${formatMs(pos)}` : "";
    for (const b of [p.rewBtn, p.fwdBtn, p.seekBtn]) b.disabled = !signage && !target.videolist;
    p.pauseBtn.disabled = target.state !== "playing";
    p.resumeBtn.disabled = target.state !== "paused";

    const sig = live.live.sources.map((s) => s.sourceId + s.sourceName).join(",");
    if (sig !== p.sourcesSig) {
      const keep = p.sourceSelect.value;
      p.sourcesSig = sig;
      fill(p.sourceSelect, 
        h("option", { value: "" }, "Choose a source…"),
        ...live.live.sources.map((s) => h("option", { value: s.sourceId }, `${s.sourceName} (${s.sourceType})`)),
      );
      p.sourceSelect.value = keep || target.sourceId || "";
    }
    fill(p.members, 
      ...target.displayIds.map((id) => {
        const d = live.displayById(id);
        const on = d && d.isOnline;
        return h("li", {}, h("span", { class: `dot ${on ? "on" : "off"}`, "aria-hidden": "true" }), ` ${live.displayName(id)} — ${on ? "online" : "offline"}`);
      }),
    );
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
      if (current !== key || !parts) {
        current = key;
        build(target);
      }
      paint(target);
    },
    update() {
      if (!current) return;
      const target = live.targetByKey(current);
      if (!target) panel.show(null);
      else paint(target);
    },
  };
  return panel;
}

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
