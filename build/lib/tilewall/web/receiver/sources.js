// Renderers of the sources a receiver shows. Each fills its element and follows the
// host timeline: render(source, ctx) -> {el, setTimeline(t), tick(hostMs), sample(hostMs), destroy()}.
// sample(hostMs) reads what is shown now, with the position the timeline gives at hostMs.
// ctx: {timeline, muted}.

import { locate, positionAt } from "./schedule.js";

const SEEK_ABOVE_S = 0.5; // larger errors seek, smaller ones nudge playbackRate
const DEADBAND_S = 0.008; // half a frame at 60 Hz: a larger error starts a nudge
const SETTLED_S = 0.002; // a nudge goes on until the error is this small
const MAX_NUDGE = 0.1; // playbackRate within 1 +/- this

function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

/** Play `video` so that its currentTime follows `targetS`. */
export function syncVideo(video, targetS, playing) {
  if (!playing) {
    if (!video.paused) video.pause();
    video.playbackRate = 1;
    if (video.readyState >= 1 && !video.seeking && Math.abs(video.currentTime - targetS) > DEADBAND_S) {
      video.currentTime = targetS;
    }
    return;
  }
  if (video.paused && !video._tilewallStarting) {
    video._tilewallStarting = true;
    video
      .play()
      .catch(() => {
        // autoplay with sound refused: play muted rather than not at all
        video.muted = true;
        return video.play();
      })
      .catch(() => {})
      .finally(() => (video._tilewallStarting = false));
  }
  if (video.readyState < 2 || video.seeking) return;
  const error = video.currentTime - targetS; // > 0: ahead of the host
  // Hysteresis: nudging stops near zero rather than at the deadband's edge, so tiles
  // that catch up from either side end up together, not up to a frame apart.
  const nudging = video.playbackRate !== 1;
  if (Math.abs(error) > SEEK_ABOVE_S) {
    video.playbackRate = 1;
    video.currentTime = targetS;
  } else if (Math.abs(error) > (nudging ? SETTLED_S : DEADBAND_S)) {
    video.playbackRate = Math.min(1 + MAX_NUDGE, Math.max(1 - MAX_NUDGE, 1 - error));
  } else if (nudging) {
    video.playbackRate = 1;
  }
}

const FITS = { fit: "contain", fill: "cover", stretch: "fill" };

function signage(source, ctx) {
  const el = element("div", "source signage");
  const fit = FITS[source.scaling] || "contain";
  let timeline = ctx.timeline;
  let current = null; // {index, node}
  let next = null; // preloaded {index, node}
  let lastSample = { showing: "signage", item: null, positionMs: null, playing: false };

  function build(index) {
    const item = source.items[index];
    let node;
    if (item.kind === "video") {
      node = element("video", "media");
      node.muted = ctx.muted;
      node.playsInline = true;
      node.preload = "auto";
    } else {
      node = element("img", "media");
      node.decoding = "async";
      node.alt = "";
    }
    node.style.objectFit = fit;
    node.src = item.url;
    node.dataset.name = item.name;
    return { index, node };
  }

  function show(index) {
    const entry = next && next.index === index ? next : build(index);
    if (next === entry) next = null;
    entry.node.classList.add("shown");
    if (!entry.node.isConnected) el.appendChild(entry.node);
    if (current && current.node !== entry.node) {
      const old = current.node;
      if (old.tagName === "VIDEO") old.pause();
      old.remove();
    }
    current = entry;
  }

  function preload(index) {
    if (source.items.length < 2 || (next && next.index === index)) return;
    if (current && current.index === index) return;
    if (next) next.node.remove();
    next = build(index);
    next.node.classList.remove("shown");
    el.appendChild(next.node); // hidden until shown; lets the browser fetch and decode
  }

  /** What is shown and where it should be, both at host instant `hostMs` (now). */
  function measure(hostMs) {
    const slot = locate(source.items, positionAt(timeline, hostMs), timeline.repeat);
    if (!slot || !current) return null;
    const item = source.items[slot.index];
    const playing = timeline.state === "playing" && !slot.ended;
    let positionMs = slot.offsetMs;
    if (item.kind === "video") positionMs = current.index === slot.index ? current.node.currentTime * 1000 : null;
    return { showing: "signage", item: item.name, positionMs, expectedMs: slot.offsetMs, playing };
  }

  return {
    el,
    setTimeline(t) {
      timeline = t;
    },
    tick(hostMs) {
      const items = source.items;
      const slot = locate(items, positionAt(timeline, hostMs), timeline.repeat);
      if (!slot) return;
      if (!current || current.index !== slot.index) show(slot.index);
      const item = items[slot.index];
      const playing = timeline.state === "playing" && !slot.ended;
      if (item.kind === "video") syncVideo(current.node, slot.offsetMs / 1000, playing);
      if (item.durationMs - slot.offsetMs < 3000 && (timeline.repeat || slot.index + 1 < items.length)) {
        preload((slot.index + 1) % items.length);
      }
      lastSample = measure(hostMs) || lastSample;
    },
    sample: (hostMs) => (hostMs == null ? lastSample : measure(hostMs) || lastSample),
    destroy() {
      for (const v of el.querySelectorAll("video")) v.pause();
      el.remove();
    },
  };
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
    destroy() {
      if (timer) clearInterval(timer);
      el.remove();
    },
  };
}

function stream(source, ctx) {
  const el = element("div", "source stream");
  const video = element("video", "media");
  video.muted = source.muted || ctx.muted;
  video.playsInline = true;
  video.autoplay = true;
  video.src = source.url;
  el.appendChild(video);
  let timeline = ctx.timeline;
  return {
    el,
    setTimeline(t) {
      timeline = t;
    },
    tick(hostMs) {
      const playing = timeline.state === "playing";
      const duration = video.duration;
      if (Number.isFinite(duration) && duration > 0) {
        // a file: every display plays the same instant of it, looping
        const target = (((positionAt(timeline, hostMs) / 1000) % duration) + duration) % duration;
        syncVideo(video, target, playing);
      } else if (playing && video.paused) {
        video.play().catch(() => {});
      } else if (!playing && !video.paused) {
        video.pause();
      }
    },
    sample(hostMs) {
      const duration = video.duration;
      let expectedMs = null;
      if (hostMs != null && Number.isFinite(duration) && duration > 0) {
        const total = duration * 1000;
        expectedMs = ((positionAt(timeline, hostMs) % total) + total) % total;
      }
      return { showing: "stream", item: source.url, positionMs: video.currentTime * 1000, expectedMs, playing: !video.paused };
    },
    destroy() {
      video.pause();
      video.removeAttribute("src");
      video.load();
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
    destroy() {
      for (const w of windows) w.destroy();
      el.remove();
    },
  };
}

const RENDERERS = { signage, web, stream, layout, blank };

/** A renderer for a render-description source. */
export function render(source, ctx) {
  return (RENDERERS[source.type] || blank)(source, ctx);
}
