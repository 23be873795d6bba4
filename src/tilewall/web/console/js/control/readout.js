// The control panel's readout of its target: name, kind, online state, what plays and
// where in it (a progress bar for signage), repainted on each read of the host and
// between reads as the position moves.

import * as live from "../live.js";
import { h, formatMs, nextId } from "../ui.js";

const KIND_LABEL = { zone: "Zone", mirror: "Mirror group", display: "Display" };
const STATE_TEXT = { playing: "Playing", paused: "Paused", welcome: "Showing the welcome screen", stopped: "Stopped" };

/** The readout's elements (`title` heads the panel, `lines` follow it) and its painter. */
export function targetReadout() {
  const title = h("h2", { id: nextId("ctl") });
  const kind = h("p", { class: "muted small" });
  const status = h("p", { class: "status-line" });
  const nowPlaying = h("p", { class: "now" });
  const bar = h("div", { class: "progress", role: "progressbar", "aria-label": "Position in the current item", "aria-valuemin": "0" }, h("span"));
  const times = h("span", { class: "muted small times" });

  function paint(target) {
    title.textContent = target.name;
    const wall = target.wallId ? live.live.walls.find((w) => w.id === target.wallId) : null;
    kind.textContent = `${KIND_LABEL[target.kind]}${wall ? ` of ${wall.name}` : ""}`;
    status.textContent = `${target.online ? "Online" : target.someOnline ? "Partly offline" : "Offline"} · ${STATE_TEXT[target.state]}`;
    status.className = `status-line ${target.online ? "" : "warn"}`;
    nowPlaying.textContent = playingText(target);
    const total = target.media ? target.media.total : 0;
    const pos = live.positionNow(target);
    const signage = total > 0;
    bar.hidden = !signage;
    /** @type {HTMLElement} */ (bar.firstChild).style.width = signage ? `${Math.min(100, (pos / total) * 100)}%` : "0";
    bar.setAttribute("aria-valuemax", String(total || 0));
    bar.setAttribute("aria-valuenow", String(Math.round(pos)));
    bar.setAttribute("aria-valuetext", `${formatMs(pos)} of ${formatMs(total)}`);
    times.textContent = signage ? `${formatMs(pos)} / ${formatMs(total)}` : target.media && target.state !== "welcome" && target.state !== "stopped" ? `playing for ${formatMs(pos)}` : "";
  }

  return { title, lines: [kind, status, nowPlaying, h("div", { class: "row" }, bar, times)], paint };
}

function playingText(target) {
  const src = target.source;
  const file = target.media && target.media.filename;
  if (src) return `${src.sourceName} (${src.sourceType})${file ? ` — ${file}` : ""}`;
  return target.videolist ? `Video list — ${file}` : "No source playing";
}
