// tilewall receiver service worker: lets the page start, and show its last picture,
// while the host is away (a receiver that reboots or reloads before the host is back).
// Network first, always: with the host up, everything is fresh; only when it cannot be
// reached is the last copy used. Browsers run service workers only in secure contexts
// (HTTPS, or a host on localhost); elsewhere the page works without one.

const CACHE = "tilewall-receiver-3";
const SHELL = ["/receiver/", "/receiver/receiver.js", "/receiver/seat.js", "/receiver/screen.js", "/receiver/sources.js", "/receiver/schedule.js", "/receiver/screen.css", "/receiver/receiver.css"];
const MAX_MEDIA = 32; // images kept for offline starts, most recent first
const NETWORK_TIMEOUT_MS = 5000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .catch(() => {})
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tilewall-receiver-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The cache key of a request we keep, or null: the page shell and whole images. */
function keyOf(request) {
  if (request.method !== "GET" || request.headers.has("range")) return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (request.mode === "navigate" && url.pathname.startsWith("/receiver/")) return "/receiver/";
  if (SHELL.includes(url.pathname)) return url.pathname;
  if (url.pathname.startsWith("/media/") && request.destination === "image") return url.pathname;
  return null;
}

function fetchWithTimeout(request) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NETWORK_TIMEOUT_MS);
  return fetch(request, { signal: controller.signal }).finally(() => clearTimeout(timer));
}

async function prune(cache) {
  const media = (await cache.keys()).filter((r) => new URL(r.url).pathname.startsWith("/media/"));
  for (const old of media.slice(0, Math.max(media.length - MAX_MEDIA, 0))) await cache.delete(old);
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetchWithTimeout(request);
    if (response.status === 200 && !response.redirected) {
      await cache.delete(key); // re-added last: keys() lists the most recent at the end
      await cache.put(key, response.clone());
      if (key.startsWith("/media/")) await prune(cache);
    }
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const key = keyOf(event.request);
  if (key) event.respondWith(networkFirst(event.request, key));
});
