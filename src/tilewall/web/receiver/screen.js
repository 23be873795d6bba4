// A receiver's picture, drawn into any element: the receiver page fills the window with
// it, the operator console draws it scaled down into a tile. Overlays (alert, display
// id, power) are the page's own and not drawn here.
//
// render(container, description, clock, options) -> screen
//   description: the render state of docs/protocol.md (or null: nothing yet)
//   clock: () => host time in ms now
//   options: {muted}: play everything muted (tiles are muted anyway);
//            {media}: a prefetch.js store: keep every media file of each description
//            (the receiver page; the console's tiles go without)
// screen: {stage, update(description), tick(), sample(), sync(sinceHostMs), layout(),
//          reset(), destroy()}
// sync(): the frames shown since a host instant ({hostMs, mediaMs, expectedMs, item, key}
// of each frame presented, from requestVideoFrameCallback) and the starts of videos (each
// cue: its instant, when it was ready, when its clock started), for sync measurements.
//
// A new source does not blank the picture: what was shown stays (paused) under the new
// source's element until the new one shows something (HOLD_MAX_MS at most).

import { render as renderSource } from "./sources.js";
import { learned } from "./follow.js";
import { wakes } from "./wakes.js";

const HOLD_MAX_MS = 10000;
const KEEP_FRAMES = 1200; // frames kept for sync(): a minute of 20 fps
const KEEP_STARTS = 200;

function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

function text(tag, className, value) {
  const el = element(tag, className);
  el.textContent = value;
  return el;
}

function card(className, lines) {
  const el = element("div", `card ${className}`);
  for (const [cls, value] of lines) if (value) el.appendChild(text("div", cls, value));
  return el;
}

function sceneKey(s) {
  const content = s.content;
  return JSON.stringify([s.role, s.pairing, s.tile, s.displayId, s.hostName, content && content.welcome, content && content.source]);
}

/** Draw `description` into `container`, scaled to fill it. */
export function render(container, description, clock, options = {}) {
  const stage = element("div", "tw-screen");
  const view = element("div", "view");
  stage.appendChild(view);
  container.appendChild(stage);
  let state = null;
  let scene = null; // {key, renderer, tile, box, showing}
  let held = null; // {renderer, nodes, since}: the scene before, until the new one shows
  const media = options.media || null;
  if (media) media.listen(() => scene && scene.renderer && scene.renderer.retry());
  const frames = [];
  const starts = [];
  const ticks = wakes(() => clock(), () => tick());
  const wake = ticks.wake;

  function record(entry) {
    const list = "mediaMs" in entry ? frames : starts;
    list.push(entry);
    if (list.length > (list === frames ? KEEP_FRAMES : KEEP_STARTS)) list.shift();
  }

  function stageSize() {
    const r = state && state.resolution;
    return r ? { w: r.width, h: r.height } : { w: container.clientWidth || 1, h: container.clientHeight || 1 };
  }

  function placeTile(box, tile) {
    const { w, h } = stageSize();
    const { crop, zoneBox } = tile;
    const sx = w / crop.width;
    const sy = h / crop.height;
    box.style.width = `${zoneBox.width * sx}px`;
    box.style.height = `${zoneBox.height * sy}px`;
    box.style.transform =
      `translate(${w / 2}px, ${h / 2}px) rotate(${-crop.rotationDegrees}deg) ` +
      `translate(${-(crop.x + crop.width / 2) * sx}px, ${-(crop.y + crop.height / 2) * sy}px)`;
  }

  /** Size the stage to the description's resolution and scale it to the container. */
  function layout() {
    const { w, h } = stageSize();
    stage.style.width = `${w}px`;
    stage.style.height = `${h}px`;
    stage.style.transform = `scale(${(container.clientWidth || w) / w}, ${(container.clientHeight || h) / h})`;
    if (scene && scene.tile) placeTile(scene.box, scene.tile);
  }

  function release() {
    if (!held) return;
    held.renderer.destroy();
    for (const node of held.nodes) node.remove();
    held = null;
  }

  function build(s, key) {
    const content = s.content;
    /** @type {{key: string, renderer: import("./sources.js").Renderer | null, tile: any, box: any, showing: string}} */
    const built = { key, renderer: null, tile: null, box: null, showing: s.role };
    scene = built;
    if (s.role === "pairing") {
      const p = s.pairing;
      view.appendChild(
        card("pairing", [
          ["title", p.stationName],
          ["line", `Connect this screen on ${p.hostName} (${p.hostAddress})`],
          ["small", `station ${p.seatId}${p.ip ? " · " + p.ip : ""}`],
        ]),
      );
      return;
    }
    if (s.role === "inactive" || !content) {
      view.appendChild(card("inactive", [["small", s.displayId != null ? `display ${s.displayId}` : ""]]));
      return;
    }
    let host = view;
    if (s.role === "tile" && s.tile) {
      const box = element("div", "tilebox");
      view.appendChild(box);
      scene.tile = s.tile;
      scene.box = box;
      placeTile(box, s.tile);
      host = box;
    }
    if (content.welcome) {
      scene.showing = "welcome";
      host.appendChild(card("welcome", [["title", "tilewall"], ["line", s.hostName], ["small", s.displayId != null ? `display ${s.displayId}` : ""]]));
      return;
    }
    if (!content.source) {
      scene.showing = "stopped";
      return;
    }
    scene.showing = content.source.type;
    const muted = !!options.muted || s.role === "tile";
    const renderer = renderSource(content.source, { timeline: content.timeline, muted, media, clock, wake, record });
    built.renderer = renderer;
    host.appendChild(renderer.el);
  }

  /** Build the scene of `s`; a source shown before stays under it until the new one shows. */
  function rebuild(s) {
    const key = sceneKey(s);
    if (scene && scene.key === key) return;
    release();
    const old = scene && scene.renderer ? { renderer: scene.renderer, nodes: [...view.childNodes], since: performance.now() } : null;
    if (old) old.renderer.freeze();
    else view.replaceChildren();
    build(s, key);
    if (!old) return;
    if (scene.renderer && !scene.renderer.ready()) {
      for (const node of old.nodes) node.style.zIndex = "2"; // over the new one's loading videos
      held = old;
    } else {
      old.renderer.destroy();
      for (const node of old.nodes) node.remove();
    }
  }

  function tick() {
    if (scene && scene.renderer) scene.renderer.tick(clock());
    if (held && (!scene || !scene.renderer || scene.renderer.ready() || performance.now() - held.since > HOLD_MAX_MS)) release();
  }

  const screen = {
    stage,
    get state() {
      return state;
    },
    get showing() {
      return scene ? scene.showing : "nothing";
    },
    update(next) {
      state = next;
      if (!next) return;
      layout();
      rebuild(next);
      if (media) media.want(next, clock());
      if (scene.renderer) scene.renderer.retry(); // a description came: a host answers
      if (scene.renderer && next.content) scene.renderer.setTimeline(next.content.timeline);
      tick();
    },
    tick,
    layout,
    /** What is shown, read together with the host instant it is read at. */
    sample() {
      const hostMs = clock();
      const base = { showing: screen.showing, item: null, positionMs: null, expectedMs: null, playing: false };
      const s = scene && scene.renderer ? { ...base, ...scene.renderer.sample(hostMs) } : base;
      return { ...s, hostMs };
    },
    /** Frames shown and starts of videos since host instant `since` (see above). */
    sync(since = 0) {
      return { frames: frames.filter((f) => f.hostMs > since), starts: starts.filter((s) => s.atMs > since), learned: learned() };
    },
    /** Build the picture anew (a receiver's "reset"). */
    reset() {
      release();
      if (scene && scene.renderer) scene.renderer.destroy();
      scene = null;
      view.replaceChildren();
      if (state) screen.update(state);
    },
    destroy() {
      ticks.clear();
      release();
      if (scene && scene.renderer) scene.renderer.destroy();
      scene = null;
      stage.remove();
    },
  };
  screen.update(description);
  return screen;
}
