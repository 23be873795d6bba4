// The control panel's playback buttons: play, pause, resume, stop, skip and seek, each
// acting on the panel's target as it is when pressed; enabled as its state allows.

import { put } from "../api.js";
import * as live from "../live.js";
import { h, act, field, parseDuration } from "../ui.js";
import { stopTarget } from "./commands.js";

/**
 * The buttons in their rows and their painter.
 * @param {() => any} targetNow the panel's target now (null once it is gone)
 * @param {() => string} chosenSource the source picked in the panel (what a stop falls back to)
 * @param {HTMLElement} error where a refusal is shown
 * @param {() => void} repaint after a button's action: the state decides what is enabled
 */
export function playbackControls(targetNow, chosenSource, error, repaint) {
  const control = (label, fn) => {
    const b = h("button", { type: "button", dataset: { needs: "operate" } }, label);
    b.addEventListener("click", () => {
      const t = targetNow();
      // repaint afterwards: act() re-enables the button, the state decides
      if (t) act(b, async () => { await fn(t); await live.refresh(); }, { errorBox: error }).then(repaint);
    });
    return b;
  };
  const playBtn = control("▶ Play", (t) => put(`${t.path}/play`));
  const pauseBtn = control("❚❚ Pause", (t) => put(`${t.path}/pause`));
  const resumeBtn = control("▶ Resume", (t) => put(`${t.path}/resume`));
  const stopBtn = control("■ Stop", (t) => stopTarget(t, chosenSource()));
  const rewBtn = control("« 10 s", (t) => put(`${t.path}/rewind`, { time: 10000 }));
  const fwdBtn = control("10 s »", (t) => put(`${t.path}/forward`, { time: 10000 }));
  const seekInput = h("input", { name: "seek", inputmode: "numeric", placeholder: "m:ss", size: 6 });
  const seekBtn = control("Seek", (t) => {
    const ms = parseDuration(seekInput.value);
    if (Number.isNaN(ms)) throw new Error("Give the position as minutes:seconds, for example 1:30, or as seconds.");
    return put(`${t.path}/seek`, { time: ms });
  });

  function paint(target) {
    const signage = !!target.media && target.media.total > 0;
    for (const b of [rewBtn, fwdBtn, seekBtn]) b.disabled = !signage && !target.videolist;
    pauseBtn.disabled = target.state !== "playing";
    resumeBtn.disabled = target.state !== "paused";
  }

  const rows = [
    h("div", { class: "row wrap", role: "group", "aria-label": "Playback" }, playBtn, pauseBtn, resumeBtn, stopBtn),
    h("div", { class: "row wrap", role: "group", "aria-label": "Position (signage)" }, rewBtn, fwdBtn, field("Seek to", seekInput), seekBtn),
  ];
  return { rows, paint };
}
