// Where a receiver page keeps its media copies (prefetch.js): Cache Storage, which the
// service worker (sw.js) serves media elements from, or the page's own memory. Both keep
// whole files by path and answer the same calls; the index of the copies (sizes, last use,
// validators) is the store's, kept in localStorage beside Cache Storage.

export const CACHE_NAME = "tilewall-media-1"; // sw.js reads the same cache
const INDEX_KEY = "tilewall.media.index";

/** The value kept in localStorage under `key`, or null. @param {string} key */
export function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

/** Keep `value` in localStorage under `key` (a refusal changes nothing). @param {string} key @param {any} value */
export function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {}
}

/** Copies in Cache Storage; the index (sizes, last use, validators) in localStorage. */
export class CacheBackend {
  constructor() {
    this.mode = "cache";
    this.cache = null;
  }
  async open() {
    if (!this.cache) this.cache = await caches.open(CACHE_NAME);
    return this.cache;
  }
  loadIndex() {
    const saved = readJson(INDEX_KEY);
    return new Map(saved && typeof saved === "object" ? Object.entries(saved) : []);
  }
  saveIndex(index) {
    writeJson(INDEX_KEY, Object.fromEntries(index));
  }
  /** Make the index agree with the cache (another page may have changed either). */
  async reconcile(index) {
    const cache = await this.open();
    const present = new Set();
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname;
      present.add(path);
      if (!index.has(path)) {
        const response = await cache.match(request);
        if (!response) continue;
        index.set(path, {
          bytes: Number(response.headers.get("content-length")) || 0,
          usedAt: 0,
          checkedAt: 0,
          etag: response.headers.get("etag"),
        });
      }
    }
    for (const path of [...index.keys()]) if (!present.has(path)) index.delete(path);
  }
  /** Store a 200 response whole; the number of bytes kept. */
  async put(path, response) {
    const cache = await this.open();
    const length = Number(response.headers.get("content-length"));
    if (Number.isFinite(length) && length >= 0 && response.headers.has("content-length")) {
      await cache.put(new URL(path, location.origin).href, response);
      return length;
    }
    const blob = await response.blob();
    const headers = new Headers(response.headers);
    headers.set("content-length", String(blob.size));
    await cache.put(new URL(path, location.origin).href, new Response(blob, { status: 200, headers }));
    return blob.size;
  }
  async blob(path) {
    const cache = await this.open();
    const response = await cache.match(new URL(path, location.origin).href);
    return response ? response.blob() : null;
  }
  async delete(path) {
    const cache = await this.open();
    await cache.delete(new URL(path, location.origin).href);
  }
  /** Media elements can load the plain URL: the service worker serves the copy. */
  served() {
    return !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  }
}

/** Copies as Blobs in this page's memory. */
export class MemoryBackend {
  constructor() {
    this.mode = "memory";
    this.blobs = new Map();
  }
  loadIndex() {
    return new Map();
  }
  saveIndex() {}
  async reconcile(index) {
    for (const path of [...index.keys()]) if (!this.blobs.has(path)) index.delete(path);
  }
  async put(path, response) {
    const blob = await response.blob();
    this.blobs.set(path, blob);
    return blob.size;
  }
  async blob(path) {
    return this.blobs.get(path) || null;
  }
  async delete(path) {
    this.blobs.delete(path);
  }
  served() {
    return false;
  }
}
