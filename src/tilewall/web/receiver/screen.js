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
//            {preview}: a picture of a display elsewhere (the console's): its live
//            sources tell the host nothing of their timing (live-margins.js)
// screen: {stage, update(description), tick(), sample(), sync(sinceHostMs), layout(),
//          reset(), destroy()}
// sync(): the frames shown since a host instant ({hostMs, mediaMs, expectedMs, item, key}
// of each frame presented, from requestVideoFrameCallback; a live frame's also have `at`
// and `drawnMs`, live-canvas.js) and the starts of videos (each
// cue: its instant, when it was ready, when its clock started), for sync measurements.
//
// A new source does not blank the picture: what was shown stays (paused) under the new
// source's element until the new one shows something (scene.js, holdover).

import { buildScene, element, holdover, sceneKey, tileBox } from "./scene.js";
import { learned } from "./follow.js";
import { wakes } from "./wakes.js";

const KEEP_FRAMES = 1200; // frames kept for sync(): a minute of 20 fps
const KEEP_STARTS = 200;

/**
 * The frames shown and the starts of videos, the latest KEEP_FRAMES and KEEP_STARTS of
 * them, for sync(): an entry with `mediaMs` is a frame, any other a start.
 */
export function syncLog() {
  /** @type {{hostMs: number}[]} */
  const frames = [];
  /** @type {{atMs: number}[]} */
  const starts = [];
  return {
    /** @param {any} entry */
    record(entry) {
      const list = "mediaMs" in entry ? frames : starts;
      list.push(entry);
      if (list.length > (list === frames ? KEEP_FRAMES : KEEP_STARTS)) list.shift();
    },
    /** The frames shown and the starts after host instant `since`. @param {number} since */
    since: (since) => ({ frames: frames.filter((f) => f.hostMs > since), starts: starts.filter((s) => s.atMs > since) }),
  };
}

/**
 * What a scene shows at host instant `hostMs`, read together with it.
 * @param {import("./scene.js").Scene | null} scene @param {number} hostMs
 */
function sampleOf(scene, hostMs) {
  const base = { showing: scene ? scene.showing : "nothing", item: null, positionMs: null, expectedMs: null, playing: false };
  const s = scene && scene.renderer ? { ...base, ...scene.renderer.sample(hostMs) } : base;
  return { ...s, hostMs };
}

/** Draw `description` into `container`, scaled to fill it. */
export function render(container, description, clock, options = {}) {
  const stage = element("div", "tw-screen");
  const view = stage.appendChild(element("div", "view"));
  container.appendChild(stage);
  let state = null;
  /** @type {import("./scene.js").Scene | null} */
  let scene = null;
  const held = holdover(); // the scene before, until the new one shows
  const media = options.media || null;
  if (media) media.listen(() => scene && scene.renderer && scene.renderer.retry());
  const log = syncLog();
  const ticks = wakes(() => clock(), () => tick());
  const ctx = { muted: options.muted, media, clock, wake: ticks.wake, record: log.record, preview: !!options.preview };

  function stageSize() {
    const r = state && state.resolution;
    return r ? { w: r.width, h: r.height } : { w: container.clientWidth || 1, h: container.clientHeight || 1 };
  }

  /** @param {HTMLElement} box @param {import("./scene.js").Tile} tile */
  const place = (box, tile) => Object.assign(box.style, tileBox(stageSize(), tile));

  /** Size the stage to the description's resolution and scale it to the container. */
  function layout() {
    const { w, h } = stageSize();
    stage.style.width = `${w}px`;
    stage.style.height = `${h}px`;
    stage.style.transform = `scale(${(container.clientWidth || w) / w}, ${(container.clientHeight || h) / h})`;
    if (scene && scene.tile && scene.box) place(scene.box, scene.tile);
  }

  /** Build the scene of `s`; a source shown before stays under it until the new one shows. */
  function rebuild(s) {
    if (scene && scene.key === sceneKey(s)) return;
    held.release();
    const old = scene && scene.renderer ? { renderer: scene.renderer, nodes: [...view.childNodes] } : null;
    if (old) old.renderer.freeze();
    else view.replaceChildren();
    scene = buildScene(view, s, ctx, place);
    if (old) held.hold(old.renderer, old.nodes, scene.renderer);
  }

  function tick() {
    if (scene && scene.renderer) scene.renderer.tick(clock());
    held.check(scene && scene.renderer);
  }

  /** The scene and the one held go. */
  function clear() {
    held.release();
    if (scene && scene.renderer) scene.renderer.destroy();
    scene = null;
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
      const renderer = scene && scene.renderer;
      if (renderer) renderer.retry(); // a description came: a host answers
      if (renderer && next.content) renderer.setTimeline(next.content.timeline);
      tick();
    },
    tick,
    layout,
    /** What is shown, read together with the host instant it is read at. */
    sample: () => sampleOf(scene, clock()),
    /** Frames shown and starts of videos since host instant `since` (see above). */
    sync: (since = 0) => ({ ...log.since(since), learned: learned() }),
    /** Build the picture anew (a receiver's "reset"). */
    reset() {
      clear();
      view.replaceChildren();
      if (state) screen.update(state);
    },
    destroy() {
      ticks.clear();
      clear();
      stage.remove();
    },
  };
  screen.update(description);
  return screen;
}
