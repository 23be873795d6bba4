// A video by URL (the stream source, sources.js).

import { locate, positionAt } from "./schedule.js";
import { prepare } from "./follow.js";
import { Deck } from "./deck.js";
import { framesOf, play } from "./playlist.js";

/**
 * A video by URL. A file (finite duration) loops on the timeline as a playlist of one
 * item, once its duration is known: each pass its own slot, pre-rolled and started on
 * its instant. A live stream just plays.
 */
export function stream(source, ctx) {
  const el = document.createElement("div");
  el.className = "source stream";
  let timeline = ctx.timeline;
  let items = null; // [the file] once its duration is known
  const media = new Deck(
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
    ...media.controls(el),
  };
}
