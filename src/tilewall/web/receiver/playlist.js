// A playlist on screen (the signage source, sources.js), and the timeline arithmetic of
// its slots that a looping video (stream.js) shares. Videos play to the timeline through
// follow.js: every start (the timeline's, the next item's, the next pass of a loop) is
// pre-rolled and made on its host instant. A playlist is played by slot (locate's key):
// the next slot's medium loads under the one shown PRELOAD_MS before it comes, a video
// paused at its first frame, and takes over on the slot's instant; a looping list of one
// video is two elements taking turns.

import { instantOf, locate, positionAt, slotStartMs, startOf } from "./schedule.js";
import { drive, prepare } from "./follow.js";
import { Deck } from "./deck.js";

const PRELOAD_MS = 3000; // the next item starts loading this long before its slot

/** @param {string} tag @param {string} [className] */
function element(tag, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return el;
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
export function play(media, items, timeline, hostMs, ctx) {
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
export function framesOf(items, ctx, timeline) {
  return (p, metadata) => {
    const list = items();
    if (!list || !ctx.clock || !ctx.record || !metadata) return;
    const hostMs = ctx.clock() - (performance.now() - metadata.presentationTime);
    const item = list[p.key % list.length];
    const expectedMs = positionAt(timeline(), hostMs) - slotStartMs(list, p.key);
    ctx.record({ hostMs, mediaMs: metadata.mediaTime * 1000, expectedMs, item: item.name, key: p.key });
  };
}

export function signage(source, ctx) {
  const el = element("div", "source signage");
  const fit = FITS[source.scaling] || "contain";
  const items = source.items;
  let timeline = ctx.timeline;
  /** @type {import("./sources.js").Sample} */
  let lastSample = { showing: "signage", item: null, positionMs: null, playing: false };
  const itemOf = (key) => items[key % items.length];

  const media = new Deck(
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
    /** @type {import("./sources.js").Sample} */
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
    ...media.controls(el),
  };
}
