// A tile: one physical display in the overview. The frame (label, online dot, state
// badge, selection, drop target) is the tile's; what it shows inside comes from a
// content renderer that can be swapped. The default draws what the display's receiver
// is told to show with the receiver's own renderer, scaled down; a host without render
// descriptions gets stills of what plays instead.
//
// A renderer factory is `(container) => ({update(model), destroy()})`. `model` holds:
//   key, displayId, online, state ("playing" | "paused" | "welcome" | "stopped"),
//   source ({sourceId, sourceName, sourceType, params} or null), media ({filename,
//   total, current} or null), videolist (bool), crop ({x, y, w, h}: the part of the
//   group's picture this tile shows, as fractions), layout (control-room layout or null)

import { h, clear, fill, isImage, isVideo, mediaUrl } from "./ui.js";
import { render as renderScreen } from "/receiver/screen.js";
import * as live from "./live.js";

const TICK_MS = 200;

const TYPE_ICONS = {
  "Signage Player": "▦",
  "Web Browser": "◍",
  "Network Streamer": "▶",
  "Command and Control": "⊞",
};

function param(source, name) {
  const p = source && (source.params || []).find((x) => x.paramName === name);
  return p ? p.paramValue : "";
}

function fitOf(source) {
  const scaling = param(source, "Scaling");
  return scaling === "fill" ? "cover" : scaling === "stretch" ? "fill" : "contain";
}

/** The default renderer: a still of what plays, cropped to the tile's part of it. */
export function thumbnailRenderer(container) {
  let signature = "";
  const picture = h("div", { class: "picture" });
  container.append(picture);

  function place(crop) {
    const c = crop || { x: 0, y: 0, w: 1, h: 1 };
    picture.style.width = `${100 / c.w}%`;
    picture.style.height = `${100 / c.h}%`;
    picture.style.left = `${(-c.x / c.w) * 100}%`;
    picture.style.top = `${(-c.y / c.h) * 100}%`;
  }

  function mediaEl(url, fit, alt) {
    if (isImage(url)) return h("img", { src: url, alt, style: { objectFit: fit }, draggable: "false" });
    return h("video", { src: `${url}#t=0.5`, muted: true, preload: "metadata", "aria-label": alt, style: { objectFit: fit } });
  }

  function content(model) {
    const { state, source, media } = model;
    if (state === "welcome") return h("div", { class: "still welcome" }, h("span", {}, "Welcome screen"));
    if (state === "stopped") return h("div", { class: "still stopped" }, h("span", {}, "Nothing playing"));
    const file = media && media.filename;
    if (file && (isImage(file) || isVideo(file))) {
      return mediaEl(mediaUrl(file), fitOf(source), file);
    }
    if (source && source.sourceType === "Network Streamer") {
      const url = param(source, "URL");
      if (url.startsWith("/media/") && isVideo(url)) return mediaEl(url, "contain", source.sourceName);
      return h("div", { class: "still" }, h("span", { class: "glyph" }, TYPE_ICONS[source.sourceType]), h("span", {}, url));
    }
    if (source && source.sourceType === "Web Browser") {
      let hostName = param(source, "URL");
      try {
        hostName = new URL(hostName).host;
      } catch {
        /* keep as given */
      }
      return h("div", { class: "still web" }, h("span", { class: "glyph" }, TYPE_ICONS["Web Browser"]), h("span", {}, hostName));
    }
    if (source && source.sourceType === "Command and Control") {
      const layout = model.layout;
      if (layout && Array.isArray(layout.windows) && layout.windows.length) {
        return h(
          "div",
          { class: "still layout" },
          layout.windows.map((w) =>
            h("div", {
              class: "win",
              style: { left: `${w.x * 100}%`, top: `${w.y * 100}%`, width: `${w.width * 100}%`, height: `${w.height * 100}%` },
            }),
          ),
        );
      }
      return h("div", { class: "still" }, h("span", { class: "glyph" }, TYPE_ICONS[source.sourceType]), h("span", {}, layout && layout.name ? layout.name : "Control room"));
    }
    if (model.videolist) return h("div", { class: "still" }, h("span", {}, "Video list"));
    return h("div", { class: "still" }, h("span", { class: "glyph" }, source ? TYPE_ICONS[source.sourceType] || "■" : "■"));
  }

  return {
    update(model) {
      place(model.crop);
      const layoutSig = model.layout ? JSON.stringify(model.layout.windows || model.layout.name || "") : "";
      const sig = [model.state, model.source && model.source.sourceId, model.media && model.media.filename, layoutSig, model.videolist].join("|");
      if (sig === signature) return;
      signature = sig;
      fill(picture, content(model));
    },
    destroy() {
      picture.remove();
    },
  };
}

// the receiver pictures drawn in tiles, moved on together
const pictures = new Set();
let ticker = null;

function ticking(picture, on) {
  if (on) pictures.add(picture);
  else pictures.delete(picture);
  if (pictures.size && !ticker) {
    ticker = setInterval(() => {
      for (const p of pictures) p.tick();
    }, TICK_MS);
  } else if (!pictures.size && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

/** The receiver's own renderer, scaled into the tile, following the host clock. */
export function receiverRenderer(container) {
  const box = h("div", { class: "screen-box", "aria-hidden": "true" });
  container.append(box);
  const picture = renderScreen(box, null, live.hostNow, { muted: true, preview: true });
  let fallback = null;
  let unwatch = null;
  let displayId = null;
  let shown = null; // the description drawn
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => picture.layout()) : null;
  if (resize) resize.observe(box);
  ticking(picture, true);

  return {
    update(model) {
      if (model.displayId !== displayId) {
        if (unwatch) unwatch();
        displayId = model.displayId;
        unwatch = live.watchRender(displayId);
        shown = null;
      }
      if (live.live.rendersMissing) {
        if (!fallback) {
          box.hidden = true;
          fallback = thumbnailRenderer(container);
        }
        fallback.update(model);
        return;
      }
      const entry = live.live.renders.get(displayId);
      box.dataset.showing = picture.showing;
      if (!entry || entry.description === shown) return;
      shown = entry.description;
      picture.update(shown);
      box.dataset.showing = picture.showing;
    },
    destroy() {
      ticking(picture, false);
      if (resize) resize.disconnect();
      if (unwatch) unwatch();
      picture.destroy();
      box.remove();
      if (fallback) fallback.destroy();
    },
  };
}

let rendererFactory = receiverRenderer;
const tiles = new Set();

/** Swap the content renderer of every tile (now and later). */
export function setTileRenderer(factory) {
  rendererFactory = factory || receiverRenderer;
  for (const tile of tiles) tile.resetRenderer();
}

const STATE_LABEL = { playing: "Playing", paused: "Paused", welcome: "Welcome", stopped: "Stopped" };

/**
 * A tile. `options.onActivate()` when clicked or Enter/Space; `options.onDropSource(id)`
 * when a source is dropped on it. The tile is a button for keyboard and screen readers.
 */
/** @param {{onActivate?: () => void, onDropSource?: (sourceId: string) => void}} [options] */
export function createTile({ onActivate, onDropSource } = {}) {
  const body = h("div", { class: "tile-body" });
  const label = h("span", { class: "tile-label" });
  const dot = h("span", { class: "dot", "aria-hidden": "true" });
  const badge = h("span", { class: "badge" });
  const caption = h("span", { class: "tile-caption" });
  const el = h(
    "div",
    { class: "tile", role: "button", tabindex: "0" },
    body,
    h("div", { class: "tile-top" }, dot, label, badge),
    caption,
  );
  let renderer = null;
  let lastModel = null;

  const tile = {
    el,
    update(model) {
      lastModel = model;
      if (!renderer) renderer = rendererFactory(body);
      el.classList.toggle("offline", !model.online);
      el.classList.toggle("selected", !!model.selected);
      el.dataset.state = model.state;
      el.dataset.displayId = model.displayId;
      if (model.color) el.style.setProperty("--zone", model.color);
      label.textContent = model.label;
      badge.textContent = model.online ? STATE_LABEL[model.state] : "Offline";
      badge.className = `badge ${model.online ? model.state : "offline"}`;
      dot.className = `dot ${model.online ? "on" : "off"}`;
      const what = model.source ? model.source.sourceName : model.videolist ? "Video list" : model.state === "welcome" ? "Welcome screen" : "—";
      caption.textContent = what;
      el.setAttribute(
        "aria-label",
        `${model.label}${model.group ? `, ${model.group}` : ""}: ${model.online ? "online" : "offline"}, ${STATE_LABEL[model.state]}, ${what}`,
      );
      el.setAttribute("aria-pressed", model.selected ? "true" : "false");
      renderer.update(model);
    },
    resetRenderer() {
      if (renderer) renderer.destroy();
      renderer = null;
      clear(body);
      if (lastModel) tile.update(lastModel);
    },
    destroy() {
      if (renderer) renderer.destroy();
      tiles.delete(tile);
      el.remove();
    },
  };
  tiles.add(tile);

  el.addEventListener("click", () => onActivate && onActivate());
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onActivate && onActivate();
    }
  });
  if (onDropSource) makeDropTarget(el, onDropSource);
  return tile;
}

export const SOURCE_MIME = "application/x-tilewall-source";

/** Accept a source dragged from the palette. */
export function makeDropTarget(el, onDropSource) {
  el.addEventListener("dragover", (e) => {
    if ([...e.dataTransfer.types].includes(SOURCE_MIME) || [...e.dataTransfer.types].includes("text/plain")) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      el.classList.add("drop-hover");
    }
  });
  el.addEventListener("dragleave", () => el.classList.remove("drop-hover"));
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    e.stopPropagation();
    el.classList.remove("drop-hover");
    const id = e.dataTransfer.getData(SOURCE_MIME) || e.dataTransfer.getData("text/plain");
    if (id) onDropSource(id);
  });
}
