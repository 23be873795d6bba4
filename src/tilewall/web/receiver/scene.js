// What a render description puts on a receiver's screen (screen.js): a card (pairing,
// inactive, welcome), nothing (stopped), or a source's renderer (sources.js), in a tile's
// box when the screen is a tile of a wall; and the scene before, held under the new one
// until that shows something.

import { render as renderSource } from "./sources.js";

const HOLD_MAX_MS = 10000;

/**
 * @typedef {import("./sources.js").Renderer} Renderer
 * @typedef {{x: number, y: number, width: number, height: number, rotationDegrees: number}} Crop
 * @typedef {{crop: Crop, zoneBox: {width: number, height: number}}} Tile
 * @typedef {{key: string, renderer: Renderer | null, tile: Tile | null, box: HTMLElement | null, showing: string}} Scene
 * @typedef {{muted?: boolean, media?: any, clock: () => number, wake: (hostMs: number) => void, record: (entry: any) => void, preview?: boolean}} SceneContext
 */

/** @param {string} tag @param {string} [className] */
export function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

/** @param {string} className @param {[string, string][]} lines */
function card(className, lines) {
  const el = element("div", `card ${className}`);
  for (const [cls, value] of lines) {
    if (!value) continue;
    const line = element("div", cls);
    line.textContent = value;
    el.appendChild(line);
  }
  return el;
}

/** What tells one scene from another: a description with the same key shows the same. */
export function sceneKey(s) {
  const content = s.content;
  return JSON.stringify([s.role, s.pairing, s.tile, s.displayId, s.hostName, content && content.welcome, content && content.source]);
}

/**
 * The size and place of a tile's box on a stage of `stage` pixels: the zone scaled so that
 * the tile's crop fills the stage, turned by the crop's rotation about its centre.
 * @param {{w: number, h: number}} stage
 * @param {Tile} tile
 */
export function tileBox(stage, tile) {
  const { w, h } = stage;
  const { crop, zoneBox } = tile;
  const sx = w / crop.width;
  const sy = h / crop.height;
  return {
    width: `${zoneBox.width * sx}px`,
    height: `${zoneBox.height * sy}px`,
    transform:
      `translate(${w / 2}px, ${h / 2}px) rotate(${-crop.rotationDegrees}deg) ` +
      `translate(${-(crop.x + crop.width / 2) * sx}px, ${-(crop.y + crop.height / 2) * sy}px)`,
  };
}

/**
 * Build the scene of description `s` into `view`; `place(box, tile)` places a tile's box.
 * @param {HTMLElement} view
 * @param {any} s
 * @param {SceneContext} ctx
 * @param {(box: HTMLElement, tile: Tile) => void} place
 * @returns {Scene}
 */
export function buildScene(view, s, ctx, place) {
  const content = s.content;
  /** @type {Scene} */
  const scene = { key: sceneKey(s), renderer: null, tile: null, box: null, showing: s.role };
  const displayLine = s.displayId != null ? `display ${s.displayId}` : "";
  if (s.role === "pairing") {
    const p = s.pairing;
    /** @type {[string, string]} */
    const where = ["small", `station ${p.seatId}${p.ip ? " · " + p.ip : ""}`];
    view.appendChild(card("pairing", [["title", p.stationName], ["line", `Connect this screen on ${p.hostName} (${p.hostAddress})`], where]));
    return scene;
  }
  if (s.role === "inactive" || !content) {
    view.appendChild(card("inactive", [["small", displayLine]]));
    return scene;
  }
  let host = view;
  if (s.role === "tile" && s.tile) {
    host = element("div", "tilebox");
    view.appendChild(host);
    scene.tile = s.tile;
    scene.box = host;
    place(host, s.tile);
  }
  if (content.welcome) {
    scene.showing = "welcome";
    host.appendChild(card("welcome", [["title", "tilewall"], ["line", s.hostName], ["small", displayLine]]));
    return scene;
  }
  if (!content.source) {
    scene.showing = "stopped";
    return scene;
  }
  scene.showing = content.source.type;
  const muted = !!ctx.muted || s.role === "tile";
  const { media, clock, wake, record, preview } = ctx;
  scene.renderer = renderSource(content.source, { timeline: content.timeline, muted, media, clock, wake, record, preview });
  host.appendChild(scene.renderer.el);
  return scene;
}

/**
 * The scene before a new one, held (paused, over the new one's loading videos) until the
 * new one shows something, HOLD_MAX_MS at most.
 */
export function holdover() {
  /** @type {{renderer: Renderer, nodes: ChildNode[], since: number} | null} */
  let held = null;
  const release = () => {
    if (!held) return;
    held.renderer.destroy();
    for (const node of held.nodes) node.remove();
    held = null;
  };
  return {
    release,
    /**
     * The scene of `renderer` (its nodes: what `view` held) is replaced by one that shows
     * with `next`: held while `next` shows nothing yet, else gone at once.
     * @param {Renderer} renderer @param {ChildNode[]} nodes @param {Renderer | null} next
     */
    hold(renderer, nodes, next) {
      release();
      if (next && !next.ready()) {
        for (const node of nodes) if (node instanceof HTMLElement) node.style.zIndex = "2";
        held = { renderer, nodes, since: performance.now() };
      } else {
        renderer.destroy();
        for (const node of nodes) node.remove();
      }
    },
    /** The scene held goes once `next` shows something (or there is none), or after HOLD_MAX_MS. @param {Renderer | null} next */
    check(next) {
      if (held && (!next || next.ready() || performance.now() - held.since > HOLD_MAX_MS)) release();
    },
  };
}
