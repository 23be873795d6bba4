// The media of a renderer by key (a slot of a playlist, sources.js): the piece shown stays
// on screen until the one for the wanted key can be shown (piece.js), and one that fails
// is loaded again: at once when a host answers again, otherwise when a probe finds the
// file on the host (every quarter second while no host answers) or, with backoff, from a
// kept copy. A video stalled without data fails while a probe finds no host; a slow host
// is waited for.

import { PREFETCH_HEADER } from "./prefetch.js";
import { PROBE_MS, drop, piece, raise, risable, showable, stackUnder } from "./piece.js";

const SHOW_ANYWAY_MS = 1000; // a video that can play is shown once on time (follow.js), or after this long
const RAISE_WAIT_MS = 1000; // a raised video is shown after a frame drawn on top, or this long
const RETRY_MIN_MS = 500; // a failed medium is loaded again after 0.5 s, 1 s, 2 s ... 10 s
const RETRY_MAX_MS = 10000;
const PROBE_TIMEOUT_MS = 2000;

/**
 * Whether the host serves `url`: "ok", "missing" (it answers without it), "away" (no
 * answer); "unknown" for another origin's URL (the receiver page may not fetch those).
 * @param {string} url
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

/**
 * How a piece waiting to be shown comes to view now: "show" (it takes the screen), "raise"
 * (a video rises over the one shown first) or null (not yet). `close`: it is near enough
 * to the timeline.
 */
function handover(p, shown, close) {
  // over a piece shown, a video that has drawn once may rise (see-through until it
  // draws up there): a throttled page presents frames of hidden videos seldom
  if (!showable(p) && !(shown && p.raisedAt == null && close && risable(p))) return null;
  const now = performance.now();
  if (p.readySince == null) p.readySince = now;
  if (!close && now - p.readySince <= SHOW_ANYWAY_MS) return null;
  if (p.kind !== "video" || !shown || p.frameAt === undefined) return "show";
  if (p.raisedAt == null) return "raise";
  return p.drawnOnTop || now - p.raisedAt > RAISE_WAIT_MS ? "show" : null;
}

/**
 * The media of a renderer by key. describe(key) -> {kind, url, setup(node)};
 * onFrame(piece, metadata): a frame of a video on screen was presented (optional).
 */
export class Deck {
  /**
   * @param {HTMLElement} el
   * @param {{media?: any}} ctx
   * @param {(key: number) => {kind: string, url: string, setup: (node: any) => void}} describe
   * @param {((p: any, metadata: any) => void) | null} [onFrame]
   */
  constructor(el, ctx, describe, onFrame) {
    this.el = el;
    this.ctx = ctx;
    this.describe = describe;
    this.onFrame = onFrame || null;
    /** @type {any} the piece on screen */
    this.shown = null;
    /** @type {Map<number, any>} key -> piece loading out of sight */
    this.pending = new Map();
    this.force = false; // retry(): load failed pieces again now
  }

  /** Whether the frames `p` presents are the ones on screen. */
  onScreen(p) {
    if (p.raisedAt != null) return !!p.drawnOnTop;
    if (p !== this.shown) return false;
    for (const q of this.pending.values()) if (q.drawnOnTop) return false;
    return true;
  }

  /** @param {number} key @param {number} tries */
  load(key, tries) {
    const d = this.describe(key);
    const p = piece(d.kind, d.url, this.ctx, d.setup);
    p.key = key;
    p.tries = tries;
    const onFrame = this.onFrame;
    if (onFrame) p.onFrame = (metadata) => this.onScreen(p) && onFrame(p, metadata);
    this.el.appendChild(p.node);
    this.pending.set(key, p);
    return p;
  }

  /** `p` comes to view as the one over it goes. */
  show(p) {
    p.node.classList.add("shown"); // a mark for tests and debugging
    p.node.classList.remove("rising");
    if (this.pending.get(p.key) === p) this.pending.delete(p.key);
    const z = Number(p.node.style.zIndex);
    for (const q of this.pending.values()) if (Number(q.node.style.zIndex) > z) stackUnder(q.node);
    if (this.shown && this.shown !== p) drop(this.shown);
    this.shown = p;
  }

  again(p) {
    if (p !== this.shown) drop(p);
    this.load(p.key, p.tries + 1);
  }

  /** A stalled video fails if no host answers; a slow host is waited for. */
  checkStalled(p) {
    if (!p.stalled || p.failed || p.probing || performance.now() < p.retryAt) return;
    p.probing = true;
    probe(p.url).then((answer) => {
      p.probing = false;
      p.retryAt = performance.now() + PROBE_MS;
      if (answer === "away" && p.stalled) p.fail(); // another origin's stream: waited for
    });
  }

  /** A failed piece is loaded again once a probe says it is time. */
  retryDue(p) {
    if (this.force) return this.again(p);
    if (p.probing || performance.now() < p.retryAt) return;
    p.probing = true;
    probe(p.url).then((answer) => {
      p.probing = false;
      if (this.pending.get(p.key) !== p && this.shown !== p) return; // replaced meanwhile
      if (this.shown === p && this.pending.has(p.key)) return;
      const now = performance.now();
      const backoff = Math.min(RETRY_MIN_MS * 2 ** p.tries, RETRY_MAX_MS);
      const due = now - p.failedAt >= backoff;
      const later = answer === "missing" || answer === "unknown" || (this.ctx.media && this.ctx.media.holds(p.url));
      if (answer === "ok" || (due && later)) this.again(p);
      else p.retryAt = answer === "away" ? now + PROBE_MS : p.failedAt + backoff;
    });
  }

  /** The piece for `key` loading, or shown. @param {number} key */
  current(key) {
    const shown = this.shown;
    return this.pending.get(key) || (shown && shown.key === key ? shown : null);
  }

  /**
   * Bring `key` on screen as soon as it can be. near(piece) moves a video waiting to be
   * shown towards the timeline and says whether it is close enough. The piece for `key`
   * is returned (shown or not).
   * @param {number} key @param {((p: any) => boolean) | null} [near]
   */
  want(key, near) {
    const shown = this.shown;
    if (shown) this.checkStalled(shown);
    let p = shown && shown.key === key && !shown.failed ? shown : this.pending.get(key);
    if (!p) {
      if (shown && shown.key === key) {
        this.retryDue(shown); // shown but failed: its frame stays until the new one can be shown
        return shown;
      }
      p = this.load(key, 0);
    }
    if (p === shown) return p;
    this.checkStalled(p);
    if (p.failed) {
      this.retryDue(p);
      return p;
    }
    const how = handover(p, shown, near ? near(p) : true);
    if (how === "show") this.show(p);
    else if (how === "raise") raise(p);
    return p;
  }

  /** The piece loaded (or shown) for `from` stands for `to` from now on. @param {number} from @param {number} to */
  rekey(from, to) {
    const p = this.pending.get(from);
    if (p) {
      this.pending.delete(from);
      this.pending.set(to, p);
      p.key = to;
    } else if (this.shown && this.shown.key === from) {
      this.shown.key = to;
    }
  }

  /** Start loading `key` out of sight. @param {number} key */
  preload(key) {
    if (this.shown && this.shown.key === key && !this.shown.failed) return;
    const p = this.pending.get(key);
    if (!p) this.load(key, 0);
    else if (p.failed) this.retryDue(p);
  }

  /** Stop loading what is not in `keep`. @param {Set<number | null>} keep */
  prune(keep) {
    for (const [key, p] of this.pending) {
      if (!keep.has(key)) {
        this.pending.delete(key);
        drop(p);
      }
    }
  }

  retry() {
    this.force = true;
  }

  endTick() {
    this.force = false;
  }

  freeze() {
    for (const v of this.el.querySelectorAll("video")) v.pause();
  }

  /**
   * What a renderer that shows this deck in `el` answers from it: ready (something is
   * shown), retry, freeze, and destroy (the deck and `el` go).
   * @param {HTMLElement} el
   */
  controls(el) {
    return {
      ready: () => !!this.shown,
      retry: () => this.retry(),
      freeze: () => this.freeze(),
      destroy: () => {
        this.destroy();
        el.remove();
      },
    };
  }

  destroy() {
    for (const p of this.pending.values()) drop(p);
    this.pending.clear();
    if (this.shown) drop(this.shown);
    this.shown = null;
  }
}
