// Renderers of the sources a receiver shows. Each fills its element and follows the
// host timeline: render(source, ctx) -> {el, setTimeline(t), tick(hostMs), sample(hostMs),
// ready(), retry(), freeze(), destroy()}.
// sample(hostMs) reads what is shown now, with the position the timeline gives at hostMs.
// ready(): something of it is on screen. retry(): a host answers again, load what failed
// now. freeze(): stop moving (pause videos), it is about to be replaced.
// ctx: {timeline, muted, media (prefetch.js store, optional: kept copies of media),
//   clock() (host time), wake(hostMs) (tick again at that instant), record(entry) (the
//   frames on screen and the starts of videos, for sync measurements)}; all optional.
//
// A playlist (signage) plays by slot (playlist.js), a video by URL loops on the timeline
// (stream.js), a live source is drawn at its instants (live.js); web pages, layouts of
// windows and blanks are here.
//
// Media never show broken or black where content should be: each image or video loads
// out of sight (piece.js), and the one on screen stays there (paused, if a video) until
// the one replacing it is decoded; one that fails is loaded again (deck.js).

import { live } from "./live.js";
import { signage } from "./playlist.js";
import { stream } from "./stream.js";

function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

function web(source) {
  const el = element("div", "source web");
  const frame = element("iframe");
  frame.src = source.url;
  frame.setAttribute("allow", "autoplay; fullscreen");
  el.appendChild(frame);
  const timer = source.refreshS > 0 ? setInterval(() => (frame.src = source.url), source.refreshS * 1000) : null;
  return {
    el,
    setTimeline() {},
    tick() {},
    sample: () => ({ showing: "web", item: source.url, positionMs: null, playing: true }),
    ready: () => true,
    retry() {},
    freeze() {},
    destroy() {
      if (timer) clearInterval(timer);
      el.remove();
    },
  };
}

function blank(source) {
  const el = element("div", "source blank");
  return {
    el,
    setTimeline() {},
    tick() {},
    sample: () => ({ showing: "blank", item: source.sourceType || null, positionMs: null, playing: false }),
    ready: () => true,
    retry() {},
    freeze() {},
    destroy: () => el.remove(),
  };
}

function layout(source, ctx) {
  const el = element("div", "source layout");
  const windows = source.windows.map((w) => {
    const frame = element("div", "window");
    Object.assign(frame.style, {
      left: `${w.x * 100}%`,
      top: `${w.y * 100}%`,
      width: `${w.width * 100}%`,
      height: `${w.height * 100}%`,
    });
    const inner = render(w.source, ctx);
    frame.appendChild(inner.el);
    el.appendChild(frame);
    return inner;
  });
  return {
    el,
    setTimeline(t) {
      for (const w of windows) w.setTimeline(t);
    },
    tick(hostMs) {
      for (const w of windows) w.tick(hostMs);
    },
    sample: (hostMs) => ({ showing: "layout", item: source.layoutName, positionMs: null, playing: true, windows: windows.map((w) => w.sample(hostMs)) }),
    ready: () => windows.every((w) => w.ready()),
    retry() {
      for (const w of windows) w.retry();
    },
    freeze() {
      for (const w of windows) w.freeze();
    },
    destroy() {
      for (const w of windows) w.destroy();
      el.remove();
    },
  };
}

const RENDERERS = { signage, web, stream, live, layout, blank };

/**
 * What a renderer shows at an instant (the receiver's status, sync measurements).
 * @typedef {object} Sample
 * @property {string} showing
 * @property {string | null} item
 * @property {number | null} positionMs
 * @property {number | null} [expectedMs]
 * @property {boolean} playing
 * @property {string} [waiting] the item due, while the last one shown is held
 */

/**
 * A source on screen.
 * @typedef {object} Renderer
 * @property {HTMLElement} el
 * @property {(timeline: any) => void} setTimeline
 * @property {(hostMs: number) => void} tick
 * @property {(hostMs?: number | null) => Sample | null} sample
 * @property {() => boolean} ready
 * @property {() => void} retry
 * @property {() => void} freeze
 * @property {() => void} destroy
 */

/**
 * A renderer for a render-description source.
 * @returns {Renderer}
 */
export function render(source, ctx) {
  return (RENDERERS[source.type] || blank)(source, ctx);
}
