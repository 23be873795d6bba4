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
// Videos play to the timeline through follow.js: every start (the timeline's, the next
// item's, the next pass of a loop) is pre-rolled and made on its host instant. A playlist
// is played by slot (locate's key): the next slot's medium loads under the one shown
// PRELOAD_MS before it comes, a video paused at its first frame, and takes over on the
// slot's instant; a looping list of one video is two elements taking turns.
//
// Media never show broken or black where content should be: each image or video loads
// out of sight (under what is shown: each new one is stacked below the ones before; an
// image hidden until decoded), and the one on screen stays there (paused, if a video) until the one
// replacing it is decoded (an image's decode(), a video able to play at the timeline's
// position). One that fails (an error, or a video stalled without data while a probe
// finds no host; a slow host is waited for) is loaded again: at once when a host answers
// again, otherwise when a probe finds the file on the host (every quarter second while no
// host answers) or, with backoff, from a kept copy.

import { instantOf, locate, positionAt, slotStartMs, startOf } from "./schedule.js";
import { PREFETCH_HEADER } from "./prefetch.js";
import { drive, noteVsync, prepare } from "./follow.js";
import { live } from "./live.js";

const PRELOAD_MS = 3000; // the next item starts loading this long before its slot
const SHOW_ANYWAY_MS = 1000; // a video that can play is shown once on time (follow.js), or after this long
const RETRY_MIN_MS = 500; // a failed medium is loaded again after 0.5 s, 1 s, 2 s ... 10 s
const RETRY_MAX_MS = 10000;
const PROBE_MS = 250; // while no host answers, look for one this often
const PROBE_TIMEOUT_MS = 2000;
const HAVE_FUTURE_DATA = 3;
const FRAME_RECENT_MS = 250; // a playing video waiting to be shown has presented a frame this recently

function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
}

/**
 * Whether the host serves `url`: "ok", "missing" (it answers without it), "away" (no
 * answer); "unknown" for another origin's URL (the receiver page may not fetch those).
 */
async function probe(url) {
  let same = false;
  try {
    same = new URL(url, location.href).origin === location.origin;
  } catch {}
  if (!same) return "unknown";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const headers = { [PREFETCH_HEADER]: "1", range: "bytes=0-0" };
    const response = await fetch(url, { headers, cache: "no-store", signal: controller.signal });
    if (response.body) response.body.cancel().catch(() => {});
    return response.ok ? "ok" : "missing";
  } catch {
    return "away";
  } finally {
    clearTimeout(timer);
  }
}

let stacked = 0; // each new medium goes under the ones before (screen.css)
let raised = 0; // a video about to be shown goes over everything
const RAISE_WAIT_MS = 1000; // a raised video is shown after a frame drawn on top, or this long

/** One image or video loading out of sight; `failed` on error, showable once decoded. */
function piece(kind, url, ctx, setup) {
  const node = element(kind === "video" ? "video" : "img", "media");
  setup(node);
  node.style.zIndex = String(-++stacked);
  const p = { kind, url, node, decoded: false, failed: false, failedAt: 0, tries: 0, retryAt: 0, probing: false, readySince: null, dropped: false, stalled: false };
  const fail = () => {
    if (p.failed || p.dropped) return;
    p.failed = true;
    p.failedAt = performance.now();
    p.retryAt = p.failedAt + PROBE_MS;
  };
  p.fail = fail;
  node.addEventListener("error", fail);
  if (kind === "video") {
    // stalled: the browser gets no data; a failure if it has none to play on and no
    // host answers (the deck probes), else a slow host to wait for
    node.addEventListener("stalled", () => (p.stalled = node.readyState < HAVE_FUTURE_DATA));
    node.addEventListener("progress", () => (p.stalled = false));
    node.addEventListener("canplay", () => (p.stalled = false));
    // frames handed to the compositor (hidden videos too): shown only once there are
    if (typeof node.requestVideoFrameCallback === "function") {
      p.frameAt = null;
      const frame = (now, metadata) => {
        p.frameAt = performance.now();
        if (metadata) noteVsync(metadata.expectedDisplayTime);
        if (p.onFrame) p.onFrame(metadata);
        if (!p.dropped) node.requestVideoFrameCallback(frame);
      };
      node.requestVideoFrameCallback(frame);
    }
  }
  Promise.resolve(ctx.media ? ctx.media.src(url) : url).then((src) => {
    if (p.dropped) return;
    node.src = src;
    if (kind !== "video") {
      node.decode().then(() => {
        if (p.failed || p.dropped) return;
        p.decoded = true;
        node.classList.add("ready"); // visible, under what is shown
      }, fail);
    }
  });
  return p;
}

function showable(p) {
  if (p.failed) return false;
  if (p.kind !== "video") return p.decoded;
  const video = p.node;
  if (video.readyState < HAVE_FUTURE_DATA || video.error) return false;
  if (p.frameAt === undefined) return true; // no requestVideoFrameCallback: canplay it is
  if (p.frameAt === null) return false;
  return video.paused || performance.now() - p.frameAt < FRAME_RECENT_MS;
}

function risable(p) {
  const video = p.node;
  return p.kind === "video" && !p.failed && !video.error && video.readyState >= HAVE_FUTURE_DATA && p.frameAt != null;
}

function drop(p) {
  p.dropped = true;
  const node = p.node;
  if (node.tagName === "VIDEO") {
    node.pause();
    node.removeAttribute("src");
    node.load(); // lets the decoder go
  }
  node.remove();
}

/**
 * The media of a renderer by key (a slot of a playlist): the piece shown stays on screen
 * until the one for the wanted key can be shown. describe(key) -> {kind, url, setup(node)}.
 * onFrame(piece, metadata): a frame of a video on screen was presented (optional).
 */
function deck(el, ctx, describe, onFrame) {
  let shown = null;
  const pending = new Map(); // key -> piece loading out of sight
  let force = false; // retry(): load failed pieces again now

  /** Whether the frames `p` presents are the ones on screen. */
  function onScreen(p) {
    if (p.raisedAt != null) return !!p.drawnOnTop;
    if (p !== shown) return false;
    for (const q of pending.values()) if (q.drawnOnTop) return false;
    return true;
  }

  function load(key, tries) {
    const d = describe(key);
    const p = piece(d.kind, d.url, ctx, d.setup);
    p.key = key;
    p.tries = tries;
    if (onFrame) p.onFrame = (metadata) => onScreen(p) && onFrame(p, metadata);
    el.appendChild(p.node);
    pending.set(key, p);
    return p;
  }

  /**
   * A video about to be shown goes on top, see-through where it has not drawn yet (a
   * video under others draws no frames): shown once it has drawn a frame up there.
   */
  function raise(p) {
    if (p.raisedAt != null) return;
    p.raisedAt = performance.now();
    p.node.classList.add("rising");
    p.node.style.zIndex = String(++raised);
    p.node.requestVideoFrameCallback(() => (p.drawnOnTop = true));
  }

  /** `p` comes to view as the one over it goes. */
  function show(p) {
    p.node.classList.add("shown"); // a mark for tests and debugging
    p.node.classList.remove("rising");
    if (pending.get(p.key) === p) pending.delete(p.key);
    const z = Number(p.node.style.zIndex);
    for (const q of pending.values()) if (Number(q.node.style.zIndex) > z) q.node.style.zIndex = String(-++stacked);
    if (shown && shown !== p) drop(shown);
    shown = p;
  }

  function again(p) {
    if (p !== shown) drop(p);
    load(p.key, p.tries + 1);
  }

  /** A stalled video fails if no host answers; a slow host is waited for. */
  function checkStalled(p) {
    if (!p.stalled || p.failed || p.probing || performance.now() < p.retryAt) return;
    p.probing = true;
    probe(p.url).then((answer) => {
      p.probing = false;
      p.retryAt = performance.now() + PROBE_MS;
      if (answer === "away" && p.stalled) p.fail(); // another origin's stream: waited for
    });
  }

  function retryDue(p) {
    if (force) return again(p);
    if (p.probing || performance.now() < p.retryAt) return;
    p.probing = true;
    probe(p.url).then((answer) => {
      p.probing = false;
      if (pending.get(p.key) !== p && shown !== p) return; // replaced meanwhile
      if (shown === p && pending.has(p.key)) return;
      const now = performance.now();
      const backoff = Math.min(RETRY_MIN_MS * 2 ** p.tries, RETRY_MAX_MS);
      const due = now - p.failedAt >= backoff;
      const later = answer === "missing" || answer === "unknown" || (ctx.media && ctx.media.holds(p.url));
      if (answer === "ok" || (due && later)) again(p);
      else p.retryAt = answer === "away" ? now + PROBE_MS : p.failedAt + backoff;
    });
  }

  return {
    get shown() {
      return shown;
    },
    /** The piece for `key` loading, or shown. */
    current(key) {
      return pending.get(key) || (shown && shown.key === key ? shown : null);
    },
    /**
     * Bring `key` on screen as soon as it can be. near(piece) moves a video waiting
     * to be shown towards the timeline and says whether it is close enough. The piece
     * for `key` is returned (shown or not).
     */
    want(key, near) {
      if (shown) checkStalled(shown);
      let p = shown && shown.key === key && !shown.failed ? shown : pending.get(key);
      if (!p) {
        if (shown && shown.key === key) {
          retryDue(shown); // shown but failed: its frame stays until the new one can be shown
          return shown;
        }
        p = load(key, 0);
      }
      if (p === shown) return p;
      checkStalled(p);
      if (p.failed) {
        retryDue(p);
        return p;
      }
      const close = near ? near(p) : true;
      // over a piece shown, a video that has drawn once may rise (see-through until it
      // draws up there): a throttled page presents frames of hidden videos seldom
      if (showable(p) || (shown && p.raisedAt == null && close && risable(p))) {
        const now = performance.now();
        if (p.readySince == null) p.readySince = now;
        if (close || now - p.readySince > SHOW_ANYWAY_MS) {
          if (p.kind !== "video" || !shown || p.frameAt === undefined) show(p);
          else if (p.raisedAt == null) raise(p);
          else if (p.drawnOnTop || now - p.raisedAt > RAISE_WAIT_MS) show(p);
        }
      }
      return p;
    },
    /** The piece loaded (or shown) for `from` stands for `to` from now on. */
    rekey(from, to) {
      const p = pending.get(from);
      if (p) {
        pending.delete(from);
        pending.set(to, p);
        p.key = to;
      } else if (shown && shown.key === from) {
        shown.key = to;
      }
    },
    /** Start loading `key` out of sight. */
    preload(key) {
      if (shown && shown.key === key && !shown.failed) return;
      const p = pending.get(key);
      if (!p) load(key, 0);
      else if (p.failed) retryDue(p);
    },
    /** Stop loading what is not in `keep`. */
    prune(keep) {
      for (const [key, p] of pending) {
        if (!keep.has(key)) {
          pending.delete(key);
          drop(p);
        }
      }
    },
    retry() {
      force = true;
    },
    endTick() {
      force = false;
    },
    freeze() {
      for (const v of el.querySelectorAll("video")) v.pause();
    },
    destroy() {
      for (const p of pending.values()) drop(p);
      pending.clear();
      if (shown) drop(shown);
      shown = null;
    },
  };
}

const FITS = { fit: "contain", fill: "cover", stretch: "fill" };

/** Calls of ctx.wake and ctx.record when the screen gives none (a bare renderer). */
const nowhere = () => {};

/**
 * The targets of the slots of a playlist (see follow.js drive): for slot `key`, the
 * position in its medium at host instant h, whether the timeline moves it then, and
 * the instant it starts moving at (the timeline's start, or the slot's).
 */
function slotTarget(items, timeline, key) {
  const item = items[key % items.length];
  const start = slotStartMs(items, key);
  const duration = Math.max(item.durationMs, 0);
  const playing = timeline.state === "playing";
  const begins = playing ? instantOf(timeline, start) : null; // host instant the slot starts
  return (h) => {
    const into = positionAt(timeline, h) - start;
    const s = Math.min(Math.max(into, 0), duration) / 1000;
    if (!playing || begins === null || into >= duration) return { s, moving: false, startsAt: null, from: null };
    const from = Math.max(begins, startOf(timeline));
    return h < from ? { s, moving: false, startsAt: from, from } : { s, moving: true, startsAt: null, from };
  };
}

/**
 * Bring the slot of `items` the timeline gives at `hostMs` on screen, playing to the
 * timeline; the next slot loads before it comes (a video pre-rolled, cued on its slot's
 * start) and the change is made on its instant (ctx.wake), not at the next tick.
 */
function play(media, items, timeline, hostMs, ctx) {
  const wake = ctx.wake || nowhere;
  const record = ctx.record || nowhere;
  const slot = locate(items, positionAt(timeline, hostMs), timeline.repeat);
  if (!slot) return; // an empty list shows nothing
  const item = items[slot.index];
  const target = slotTarget(items, timeline, slot.key);
  const follow = (p) => p.node.readyState >= 1 && drive(p.node, hostMs, target, wake, record);
  const wanted = media.want(slot.key, item.kind === "video" ? follow : null);
  const shown = media.shown;
  if (shown && shown === wanted) {
    if (item.kind === "video") follow(shown);
  } else if (shown && shown.kind === "video" && !shown.node.paused) {
    shown.node.pause(); // held until the wanted item can be shown: its frame, not its sound
  }
  let next = null;
  const last = !timeline.repeat && slot.index + 1 >= items.length;
  if (timeline.state === "playing" && !slot.ended && !last && item.durationMs - slot.offsetMs < PRELOAD_MS) {
    next = slot.key + 1;
    media.preload(next);
    const p = media.current(next);
    if (p && !p.failed && p.kind === "video" && p.node.readyState >= 1) drive(p.node, hostMs, slotTarget(items, timeline, next), wake, record);
    wake(instantOf(timeline, slotStartMs(items, next)));
  }
  media.prune(new Set([slot.key, next]));
  media.endTick();
}

/** A recorder of the frames on screen of a playlist's slots (ctx.record). */
function framesOf(items, ctx, timeline) {
  return (p, metadata) => {
    const list = items();
    if (!list || !ctx.clock || !ctx.record || !metadata) return;
    const hostMs = ctx.clock() - (performance.now() - metadata.presentationTime);
    const item = list[p.key % list.length];
    const expectedMs = positionAt(timeline(), hostMs) - slotStartMs(list, p.key);
    ctx.record({ hostMs, mediaMs: metadata.mediaTime * 1000, expectedMs, item: item.name, key: p.key });
  };
}

function signage(source, ctx) {
  const el = element("div", "source signage");
  const fit = FITS[source.scaling] || "contain";
  const items = source.items;
  let timeline = ctx.timeline;
  /** @type {Sample} */
  let lastSample = { showing: "signage", item: null, positionMs: null, playing: false };
  const itemOf = (key) => items[key % items.length];

  const media = deck(
    el,
    ctx,
    (key) => {
      const item = itemOf(key);
      const video = item.kind === "video";
      return {
        kind: video ? "video" : "image",
        url: item.url,
        setup(node) {
          if (video) {
            node.muted = ctx.muted;
            node.playsInline = true;
            node.preload = "auto";
            prepare(node);
          } else {
            node.decoding = "async";
            node.alt = "";
          }
          node.style.objectFit = fit;
          node.dataset.name = item.name;
        },
      };
    },
    framesOf(() => items, ctx, () => timeline),
  );

  const slotAt = (hostMs) => locate(items, positionAt(timeline, hostMs), timeline.repeat);

  /** What is shown and where it should be, both at host instant `hostMs` (now). */
  function measure(hostMs) {
    const slot = slotAt(hostMs);
    const shown = media.shown;
    if (!slot || !shown) return null;
    const item = itemOf(shown.key);
    const onTime = shown.key === slot.key && !shown.failed;
    const playing = onTime && timeline.state === "playing" && !slot.ended && hostMs >= startOf(timeline);
    let positionMs = onTime ? slot.offsetMs : null;
    if (item.kind === "video") positionMs = onTime ? shown.node.currentTime * 1000 : null;
    /** @type {Sample} */
    const s = { showing: "signage", item: item.name, positionMs, expectedMs: slot.offsetMs, playing };
    if (!onTime) s.waiting = items[slot.index].name; // holding the last item shown meanwhile
    return s;
  }

  return {
    el,
    setTimeline(t) {
      timeline = t;
    },
    tick(hostMs) {
      if (!items.length) return;
      play(media, items, timeline, hostMs, ctx);
      lastSample = measure(hostMs) || lastSample;
    },
    sample: (hostMs) => (hostMs == null ? lastSample : measure(hostMs) || lastSample),
    ready: () => !!media.shown,
    retry: () => media.retry(),
    freeze: () => media.freeze(),
    destroy() {
      media.destroy();
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
    ready: () => true,
    retry() {},
    freeze() {},
    destroy() {
      if (timer) clearInterval(timer);
      el.remove();
    },
  };
}

/**
 * A video by URL. A file (finite duration) loops on the timeline as a playlist of one
 * item, once its duration is known: each pass its own slot, pre-rolled and started on
 * its instant. A live stream just plays.
 */
function stream(source, ctx) {
  const el = element("div", "source stream");
  let timeline = ctx.timeline;
  let items = null; // [the file] once its duration is known
  const media = deck(
    el,
    ctx,
    () => ({
      kind: "video",
      url: source.url,
      setup(video) {
        video.muted = source.muted || ctx.muted;
        video.playsInline = true;
        video.preload = "auto";
        prepare(video);
      },
    }),
    framesOf(() => items, ctx, () => timeline),
  );

  function keepPlaying(video) {
    const playing = timeline.state === "playing";
    if (playing && video.paused) video.play().catch(() => {});
    else if (!playing && !video.paused) video.pause();
    return true;
  }

  /** The file's duration, once known, makes it a playlist of one (its piece re-keyed). */
  function learn(hostMs) {
    const p = media.current(0);
    const duration = p ? p.node.duration : NaN;
    if (!(Number.isFinite(duration) && duration > 0)) return;
    items = [{ name: source.url, url: source.url, kind: "video", durationMs: duration * 1000 }];
    const slot = locate(items, positionAt(timeline, hostMs), true);
    if (slot) media.rekey(0, slot.key);
  }

  return {
    el,
    setTimeline(t) {
      timeline = t;
    },
    tick(hostMs) {
      if (!items) learn(hostMs);
      if (items) return play(media, items, { ...timeline, repeat: true }, hostMs, ctx);
      const wanted = media.want(0, (p) => p.node.readyState >= 1 && keepPlaying(p.node));
      if (media.shown && media.shown === wanted) keepPlaying(media.shown.node);
      else if (media.shown && !media.shown.node.paused) media.shown.node.pause();
      media.endTick();
    },
    sample(hostMs) {
      const shown = media.shown;
      let expectedMs = null;
      if (hostMs != null && items) {
        const total = items[0].durationMs;
        expectedMs = ((positionAt(timeline, hostMs) % total) + total) % total;
      }
      const video = shown ? shown.node : null;
      return { showing: "stream", item: source.url, positionMs: video ? video.currentTime * 1000 : null, expectedMs, playing: !!video && !video.paused };
    },
    ready: () => !!media.shown,
    retry: () => media.retry(),
    freeze: () => media.freeze(),
    destroy() {
      media.destroy();
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
