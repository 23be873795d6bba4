// tilewall receiver service worker: lets the page start, show its last picture and play
// its media while the host is away (docs/protocol.md, "Media ahead of time").
// Network first, always: with the host up, everything is fresh; only when it cannot be
// reached is the kept copy used. The page shell is kept here; media copies are put in
// MEDIA_CACHE by the page (prefetch.js), whole, and this worker answers byte ranges
// from them. Browsers run service workers only in secure contexts (HTTPS, or a host on
// localhost); elsewhere the page keeps its media in its own memory.

const CACHE = "tilewall-receiver-15";
const MEDIA_CACHE = "tilewall-media-1"; // media-copies.js CACHE_NAME
const SHELL = [
  "/receiver/",
  "/receiver/receiver.js",
  "/receiver/seat.js",
  "/receiver/station-key.js",
  "/receiver/host-group.js",
  "/receiver/overlays.js",
  "/receiver/modes.js",
  "/receiver/host-clock.js",
  "/receiver/screen.js",
  "/receiver/scene.js",
  "/receiver/sources.js",
  "/receiver/playlist.js",
  "/receiver/stream.js",
  "/receiver/deck.js",
  "/receiver/piece.js",
  "/receiver/live.js",
  "/receiver/live-canvas.js",
  "/receiver/live-decoder.js",
  "/receiver/live-link.js",
  "/receiver/live-margins.js",
  "/receiver/live-signal.js",
  "/receiver/live-mse.js",
  "/receiver/follow.js",
  "/receiver/schedule.js",
  "/receiver/wakes.js",
  "/receiver/prefetch.js",
  "/receiver/media-copies.js",
  "/receiver/version.js",
  "/receiver/screen.css",
  "/receiver/receiver.css",
];
const BYPASS = "x-tilewall-prefetch"; // the page's own fetches of media: to the network only
const NETWORK_TIMEOUT_MS = 5000;
const KEPT_TIMEOUT_MS = 2000; // media with a kept copy wait this long for the host's answer
// Once the host failed to answer, media with a kept copy are served from it at once,
// and a small request looks for the host (at most every PROBE_MS) until it answers:
// a host that hangs rather than refuses costs one timeout, not one per request.
const PROBE_MS = 2000;
let away = false;
let probedAt = 0;
// this script runs as a service worker: its global scope is the worker's
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .catch(() => {})
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tilewall-receiver-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

function fetchWithTimeout(request, timeoutMs = NETWORK_TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  return fetch(request, { signal: controller.signal }).finally(() => clearTimeout(timer));
}

// --- the page shell ----------------------------------------------------------------------

/** The shell's cache key of a request, or null. */
function shellKey(request, url) {
  if (request.mode === "navigate" && url.pathname.startsWith("/receiver/")) return "/receiver/";
  if (SHELL.includes(url.pathname)) return url.pathname;
  return null;
}

async function shell(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetchWithTimeout(request);
    if (response.status === 200 && !response.redirected) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

// --- media -------------------------------------------------------------------------------

/** The part of `blob` a Range header asks for, as a 206 (416 when out of range); null: all. */
function ranged(blob, header, type) {
  const match = /^bytes=(\d*)-(\d*)$/.exec((header || "").trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const size = blob.size;
  let start;
  let end;
  if (match[1] === "") {
    start = Math.max(size - Number(match[2]), 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    headers: {
      "Content-Type": type,
      "Content-Range": `bytes ${start}-${end}/${size}`,
      "Content-Length": String(end - start + 1),
      "Accept-Ranges": "bytes",
    },
  });
}

async function keptCopy(url) {
  const cache = await caches.open(MEDIA_CACHE);
  return cache.match(new URL(url.pathname, worker.location.origin).href);
}

/** `cached` (a whole file) as an answer to `request`: a range of it if asked. */
async function answer(request, cached) {
  const range = request.headers.get("range");
  if (!range) return cached;
  const blob = await cached.blob();
  return ranged(blob, range, cached.headers.get("content-type") || blob.type) || cached;
}

function lookForHost(url) {
  if (Date.now() - probedAt < PROBE_MS) return;
  probedAt = Date.now();
  fetchWithTimeout(new Request(url.href, { headers: { range: "bytes=0-0" } }), PROBE_MS).then(
    (response) => {
      away = false;
      if (response.body) response.body.cancel().catch(() => {});
    },
    () => {},
  );
}

async function media(request, url) {
  const cached = await keptCopy(url);
  if (cached && away) {
    lookForHost(url);
    return answer(request, cached);
  }
  try {
    const response = await fetchWithTimeout(request, cached ? KEPT_TIMEOUT_MS : NETWORK_TIMEOUT_MS);
    away = false;
    return response;
  } catch (error) {
    away = true;
    probedAt = Date.now();
    if (cached) return answer(request, cached);
    throw error;
  }
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  // live sources are now or never: no copy of them is kept or answered from
  if (url.pathname.startsWith("/live/")) return;
  if (url.pathname.startsWith("/media/")) {
    if (!request.headers.has(BYPASS)) event.respondWith(media(request, url));
    return;
  }
  if (request.headers.has("range")) return;
  const key = shellKey(request, url);
  if (key) event.respondWith(shell(request, key));
});
