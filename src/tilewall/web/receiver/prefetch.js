// Media ahead of time: a receiver page keeps a copy of every media file of what it is
// told to show, so that a playlist plays on, item after item, while no host answers.
// docs/protocol.md, "Media ahead of time", is the rule; this is the code.
//
// Where copies are kept (media-copies.js):
//   "cache"  - Cache Storage (CACHE_NAME), when the browser has it (secure contexts:
//              HTTPS, or a host on localhost). The service worker (sw.js) serves media
//              elements from it, byte ranges included, whenever the host cannot be
//              reached. A page the service worker does not control yet plays copies
//              through object URLs.
//   "memory" - the page's own memory (Blobs, played through object URLs), when there is
//              no Cache Storage (plain HTTP to another machine). Lost with the page.
//
// Budget and eviction: the files of the current description are pinned; others are
// evicted least recently used first once the copies would take more than the budget.
// Pinned files are fetched in the order they will play, from the item playing now; one
// that would take the pinned files past the budget is not kept (it plays from the host
// while the host is there). plan() is that rule as a pure function.
//
// mediaStore({owner, budgetMB}) -> store
//   store.want(description, hostMs)   pin and fetch what `description` shows
//   store.src(url) -> Promise<url>     what a media element should load for `url`
//   store.holds(url) -> bool           a copy is kept
//   store.listen(fn)                   fn(path) after a copy was stored
//   store.status()                     what is kept, for tests and debugging
// status() (module export): the status of the page's store(s).

import { locate, positionAt } from "./schedule.js";
import { CacheBackend, MemoryBackend, readJson, writeJson } from "./media-copies.js";

export const BUDGET_MB = 512; // Cache Storage
export const MEMORY_BUDGET_MB = 128; // the page's own memory
export const PREFETCH_HEADER = "x-tilewall-prefetch"; // requests sw.js leaves to the network
const PINS_KEY = "tilewall.media.pins";
const PIN_TTL_MS = 60 * 60 * 1000; // another page's pins count for this long after it wrote them
const PIN_REFRESH_MS = 10 * 60 * 1000;
const REVALIDATE_MS = 5 * 60 * 1000; // a kept copy is checked with the host this often
const ANSWER_TIMEOUT_MS = 10 * 1000; // the host's answer to a fetch, and each piece of its body
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30 * 1000;
const MB = 1024 * 1024;

const stores = [];

/** The cache key of a media URL: its path when it is this origin's /media/, else null. */
export function mediaKey(url) {
  try {
    const u = new URL(url, location.href);
    if (u.origin !== location.origin || !u.pathname.startsWith("/media/")) return null;
    return u.pathname;
  } catch {
    return null;
  }
}

/**
 * The media files a render description shows (paths on this origin), in the order they
 * will be needed: each playlist from the item playing at host time `hostMs`.
 */
export function mediaUrls(description, hostMs) {
  const out = [];
  const content = description && description.content;
  if (!content || content.welcome || !content.source) return out;
  const add = (url) => {
    const key = mediaKey(url);
    if (key && !out.includes(key)) out.push(key);
  };
  const visit = (source) => {
    if (!source) return;
    if (source.type === "signage") {
      const items = source.items || [];
      let first = 0;
      if (content.timeline && items.length && Number.isFinite(hostMs)) {
        const slot = locate(items, positionAt(content.timeline, hostMs), content.timeline.repeat);
        if (slot) first = slot.index;
      }
      for (let i = 0; i < items.length; i++) add(items[(first + i) % items.length].url);
    } else if (source.type === "stream") {
      add(source.url);
    } else if (source.type === "layout") {
      for (const w of source.windows || []) visit(w.source);
    }
  };
  visit(content.source);
  return out;
}

/**
 * What to evict so that `incoming` more bytes fit in `budget` bytes.
 * entries: [{url, bytes, usedAt}]; pinned: urls never evicted. Unpinned entries go least
 * recently used first (ties: larger first, then by url). When the incoming bytes cannot
 * fit even with every unpinned entry gone, nothing is evicted: {evict: [], fits: false}.
 * With incoming 0 it trims to the budget as far as unpinned entries allow.
 */
export function plan(entries, pinned, budget, incoming = 0) {
  const keep = pinned instanceof Set ? pinned : new Set(pinned);
  let total = incoming;
  let pinnedBytes = incoming;
  for (const e of entries) {
    total += e.bytes;
    if (keep.has(e.url)) pinnedBytes += e.bytes;
  }
  if (total <= budget) return { evict: [], fits: true };
  if (incoming > 0 && pinnedBytes > budget) return { evict: [], fits: false };
  const candidates = entries
    .filter((e) => !keep.has(e.url))
    .sort((a, b) => a.usedAt - b.usedAt || b.bytes - a.bytes || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const evict = [];
  for (const e of candidates) {
    if (total <= budget) break;
    evict.push(e.url);
    total -= e.bytes;
  }
  return { evict, fits: total <= budget };
}

/**
 * `response` with its body watched: `controller` aborts the fetch when no bytes came for
 * `idleMs` (a host that hangs halfway through a file does not hold the store forever).
 */
function watched(response, controller, idleMs) {
  if (!response.body || typeof TransformStream === "undefined") return response;
  let timer = setTimeout(() => controller.abort(), idleMs);
  const body = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, out) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), idleMs);
        out.enqueue(chunk);
      },
      flush() {
        clearTimeout(timer);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function budgetFromPage(fallbackMb) {
  const value = Number(new URLSearchParams(location.search).get("mediaBudgetMB"));
  return (Number.isFinite(value) && value > 0 ? value : fallbackMb) * MB;
}

class Store {
  constructor(options) {
    const cacheable = typeof caches !== "undefined" && !options.memory;
    this.backend = cacheable ? new CacheBackend() : new MemoryBackend();
    this.owner = options.owner || "page";
    this.budget = options.budgetMB > 0 ? options.budgetMB * MB : budgetFromPage(cacheable ? BUDGET_MB : MEMORY_BUDGET_MB);
    this.index = this.backend.loadIndex(); // path -> {bytes, usedAt, checkedAt, etag}
    this.wanted = []; // paths of the current description, in the order they will play
    this.skipped = new Set(); // wanted paths that do not fit the budget
    this.objectUrls = new Map(); // path -> object URL (memory copies, or cache copies without a service worker)
    this.listeners = [];
    this.running = null;
    this.again = false;
    this.failures = 0;
    this.retryTimer = null;
    this.lastError = null;
    this.passes = 0;
    if (cacheable) {
      this.clampToQuota();
      if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    }
    setInterval(() => this.writePins(), PIN_REFRESH_MS);
    setInterval(() => this.kick(), REVALIDATE_MS); // a file replaced under the same name
  }

  get mode() {
    return this.backend.mode;
  }

  async clampToQuota() {
    try {
      const { quota } = await navigator.storage.estimate();
      if (quota && quota > 0) this.budget = Math.min(this.budget, Math.floor(quota / 2));
    } catch {}
  }

  /** Paths no page may evict now: this page's, and (Cache Storage) other pages' recent pins. */
  pinned() {
    const pins = new Set(this.wanted);
    if (this.mode === "cache") {
      const all = readJson(PINS_KEY) || {};
      const now = Date.now();
      for (const [owner, pin] of Object.entries(all)) {
        if (owner !== this.owner && pin && now - pin.at < PIN_TTL_MS) for (const p of pin.urls || []) pins.add(p);
      }
    }
    return pins;
  }

  writePins() {
    if (this.mode !== "cache") return;
    const all = readJson(PINS_KEY) || {};
    const now = Date.now();
    for (const [owner, pin] of Object.entries(all)) if (!pin || now - pin.at >= PIN_TTL_MS) delete all[owner];
    all[this.owner] = { at: now, urls: this.wanted };
    writeJson(PINS_KEY, all);
  }

  /** Pin and fetch what `description` shows (called with every description). */
  want(description, hostMs) {
    const wanted = mediaUrls(description, hostMs);
    const same = wanted.length === this.wanted.length && wanted.every((p) => this.wanted.includes(p));
    if (!same) this.skipped.clear();
    this.wanted = wanted;
    this.writePins();
    this.failures = 0; // a description came: a host answers
    this.kick();
  }

  kick() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error) => (this.lastError = String(error)))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  entries() {
    return [...this.index].map(([url, e]) => ({ url, bytes: e.bytes, usedAt: e.usedAt }));
  }

  async evict(paths) {
    for (const path of paths) {
      this.index.delete(path);
      this.dropObjectUrl(path);
      await this.backend.delete(path);
    }
  }

  async pass() {
    this.passes++;
    const wanted = this.wanted;
    await this.backend.reconcile(this.index);
    const now = Date.now();
    for (const path of wanted) {
      const e = this.index.get(path);
      if (e) e.usedAt = now;
    }
    await this.evict(plan(this.entries(), this.pinned(), this.budget).evict);
    this.backend.saveIndex(this.index);
    for (const path of wanted) {
      if (this.wanted !== wanted) return; // a new description: the next pass takes over
      const kept = this.index.get(path);
      if (this.skipped.has(path) || (kept && Date.now() - kept.checkedAt < REVALIDATE_MS)) continue;
      let stored;
      try {
        stored = await this.fetchOne(path, kept);
      } catch (error) {
        // no host (or the link broke): try again later, or when a description comes
        this.lastError = String(error);
        this.failures++;
        const delay = Math.min(RETRY_MIN_MS * 2 ** (this.failures - 1), RETRY_MAX_MS);
        this.retryTimer = setTimeout(() => this.kick(), delay);
        this.backend.saveIndex(this.index);
        return;
      }
      this.failures = 0;
      this.backend.saveIndex(this.index);
      if (stored) for (const fn of this.listeners) fn(path);
    }
  }

  /** Fetch one file whole (or check the kept copy); true when a new copy was stored. */
  async fetchOne(path, kept) {
    const headers = { [PREFETCH_HEADER]: "1" };
    if (kept && kept.etag) headers["if-none-match"] = kept.etag;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ANSWER_TIMEOUT_MS);
    let response;
    try {
      response = await fetch(path, { headers, cache: "no-store", signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
    const now = Date.now();
    if (response.status === 304 && kept) {
      kept.checkedAt = now;
      return false;
    }
    if (response.status !== 200) {
      // the host answers but has no such file: keep what is kept, look again later
      controller.abort();
      if (kept) kept.checkedAt = now;
      return false;
    }
    const others = this.entries().filter((e) => e.url !== path);
    const length = Number(response.headers.get("content-length"));
    const pinned = this.pinned();
    if (response.headers.has("content-length") && Number.isFinite(length)) {
      const room = plan(others, pinned, this.budget, Math.max(length, 1));
      if (!room.fits) {
        controller.abort();
        this.skipped.add(path);
        if (kept) await this.evict([path]);
        return false;
      }
      await this.evict(room.evict);
    }
    const bytes = await this.backend.put(path, watched(response, controller, ANSWER_TIMEOUT_MS));
    const room = plan(others, pinned, this.budget, Math.max(bytes, 1));
    if (!room.fits) {
      this.skipped.add(path);
      await this.evict([path]);
      return false;
    }
    await this.evict(room.evict);
    this.dropObjectUrl(path);
    this.index.set(path, { bytes, usedAt: now, checkedAt: now, etag: response.headers.get("etag") });
    return true;
  }

  holds(url) {
    const path = mediaKey(url);
    return !!path && this.index.has(path);
  }

  /** What a media element should load for `url`: the URL itself, or a kept copy's object URL. */
  async src(url) {
    const path = mediaKey(url);
    if (!path || !this.index.has(path) || this.backend.served()) return url;
    const known = this.objectUrls.get(path);
    if (known) return known;
    try {
      const blob = await this.backend.blob(path);
      if (!blob) return url;
      const made = this.objectUrls.get(path) || URL.createObjectURL(blob);
      this.objectUrls.set(path, made);
      return made;
    } catch {
      return url;
    }
  }

  dropObjectUrl(path) {
    const known = this.objectUrls.get(path);
    if (known) {
      this.objectUrls.delete(path);
      // a little later: an element may have just been given it
      setTimeout(() => URL.revokeObjectURL(known), 60 * 1000);
    }
  }

  listen(fn) {
    this.listeners.push(fn);
  }

  status() {
    const pinned = this.pinned();
    const entries = [...this.index].map(([url, e]) => ({ url, bytes: e.bytes, usedAt: e.usedAt, pinned: pinned.has(url) }));
    return {
      mode: this.mode,
      owner: this.owner,
      served: this.backend.served(),
      budgetBytes: this.budget,
      usedBytes: entries.reduce((sum, e) => sum + e.bytes, 0),
      wanted: [...this.wanted],
      missing: this.wanted.filter((p) => !this.index.has(p) && !this.skipped.has(p)),
      skipped: [...this.skipped],
      entries,
      busy: !!this.running,
      passes: this.passes,
      lastError: this.lastError,
    };
  }
}

/** The page's media store. options: {owner (seat id), budgetMB, memory (force memory copies)}. */
export function mediaStore(options = {}) {
  const store = new Store(options);
  stores.push(store);
  return store;
}

/** Status of the page's stores (the first, or all with `all`). */
export function status(all = false) {
  const list = stores.map((s) => s.status());
  return all ? list : list[0] || null;
}
