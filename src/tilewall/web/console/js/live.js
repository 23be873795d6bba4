// The live picture of the host, read again each time the host says it changed (events.js),
// never on a timer: when its stream of changes drops it is read once (to tell a lost
// session or a host that does not answer), and the reopened stream's first event reads it
// again for what changed meanwhile. What it reads is kept in host-state.js and folded into
// what an operator switches by targets.js; this module hands out both.
// Render descriptions (GET /displays/{id}/render: what a receiver is told to show) are
// read for the displays on their own (their play state) and for the displays a tile
// draws; their answers also give the host clock.

import { get, seg } from "./api.js";
import { followHost } from "./events.js";
import { live, progress } from "./host-state.js";
import { mirrorOfDisplay, targets, zoneOfDisplay } from "./targets.js";
import { hostClock } from "/receiver/host-clock.js";

export { live } from "./host-state.js";
export * from "./targets.js";

const MEDIAINFO_BATCH = 24; // at most this many mediainfo calls per poll
const RENDER_BATCH = 24; // at most this many render descriptions per poll

const listeners = new Set();
/** @type {Set<() => void>} */
const hostChanged = new Set();
let running = false;
let inFlight = false;
let again = false; // a change was told while a poll was under way: poll once more
/** @type {(() => void) | null} */
let unfollow = null;
let mediaCursor = 0;
let controlRoomMissingUntil = 0;
let renderCursor = 0;
const watched = new Map(); // displayId -> number of watchers (tiles drawing it)

// ---- host clock -----------------------------------------------------------------------
// Render answers carry the host clock (X-Tilewall-Host-Ms); the sample with the shortest
// round trip of the last few gives the offset, as on a receiver (receiver/host-clock.js).
// Until one arrives, the Date header's second-resolution time is better than nothing.

const localNow = () => performance.timeOrigin + performance.now();
const clock = hostClock();

function clockSample(t0, response) {
  const t3 = localNow();
  const exact = Number(response.headers.get("X-Tilewall-Host-Ms"));
  if (Number.isFinite(exact) && exact > 0) {
    // one host instant for both ends of the exchange: the host read its clock once
    clock.add(t0, exact, exact, t3);
  } else {
    const date = Date.parse(response.headers.get("Date") || "");
    if (Number.isFinite(date)) clock.roughly(date + 500, (t0 + t3) / 2);
  }
}

/** Estimated host time now, in ms since the epoch. */
export function hostNow() {
  return localNow() + clock.offset;
}

/** Keep fetching the render description of `displayId`; returns the function that stops. */
export function watchRender(displayId) {
  watched.set(displayId, (watched.get(displayId) || 0) + 1);
  if (!live.renders.has(displayId) && !live.rendersMissing && live.loaded) {
    // draw at once rather than after the next poll
    fetchRender(displayId).then(() => live.renders.has(displayId) && emit());
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const n = (watched.get(displayId) || 1) - 1;
    if (n > 0) watched.set(displayId, n);
    else watched.delete(displayId);
  };
}

export function subscribe(fn) {
  listeners.add(fn);
  if (live.loaded) fn(live);
  return () => listeners.delete(fn);
}

/**
 * Call `fn` each time the host says it changed (see events.js); returns the function that
 * stops that.
 * @param {() => void} fn
 */
export function onHostChange(fn) {
  hostChanged.add(fn);
  return () => {
    hostChanged.delete(fn);
  };
}

function emit() {
  for (const fn of listeners) {
    try {
      fn(live);
    } catch (e) {
      console.error(e);
    }
  }
}

export function start() {
  if (running) return;
  running = true;
  unfollow = followHost(
    () => {
      for (const fn of hostChanged) fn();
      refresh();
    },
    (isUp) => {
      const lost = live.following && !isUp;
      live.following = isUp;
      if (lost) refresh();
      else emit();
    },
  );
  poll();
}

export function stop() {
  running = false;
  live.following = false;
  if (unfollow) unfollow();
  unfollow = null;
}

/** Read the host now (after a change made here) rather than when its event comes. */
export function refresh() {
  if (!running) return Promise.resolve();
  if (inFlight) {
    again = true;
    return Promise.resolve();
  }
  return poll();
}

async function poll() {
  if (inFlight) return;
  inFlight = true;
  try {
    const [displays, zones, mirrorList, walls, sources, network] = await Promise.all([
      get("/displays"),
      get("/zones"),
      get("/mirrorgroups"),
      get("/videowalls"),
      get("/sources"),
      get("/network"),
    ]);
    live.displays = displays.displays || [];
    live.zones = zones.zones || [];
    live.walls = walls.videowalls || [];
    live.sources = sources.sources || [];
    live.network = network.network || [];
    const refs = mirrorList.mirrorgroups || [];
    live.mirrors = (
      await Promise.all(
        refs.map((ref) =>
          get(`/mirrorgroups/${seg(ref.id)}`).catch(() => ({
            id: ref.id,
            name: ref.name,
            displayIds: [],
            isPlaying: false,
            playingSourceId: "",
            isShowingWelcomeScreen: false,
          })),
        ),
      )
    ).map((m) => ({ ...m, displayIds: m.displayIds || [] }));
    await Promise.all([pollMedia(), pollRenders()]);
    await pollLayouts();
    live.error = null;
    live.lastOk = Date.now();
    live.loaded = true;
  } catch (error) {
    live.error = error;
  } finally {
    inFlight = false;
  }
  emit();
  if (again && running) {
    again = false;
    return poll();
  }
}

async function pollMedia() {
  const all = targets().filter((t) => t.kind !== "display" || t.online);
  let batch = all;
  if (all.length > MEDIAINFO_BATCH) {
    batch = [];
    for (let i = 0; i < MEDIAINFO_BATCH; i++) batch.push(all[(mediaCursor + i) % all.length]);
    mediaCursor = (mediaCursor + MEDIAINFO_BATCH) % all.length;
  }
  const now = Date.now();
  const answers = await Promise.all(
    batch.map((t) =>
      get(`${t.path}/mediainfo`)
        .then((info) => [t, info])
        .catch(() => [t, null]),
    ),
  );
  const seen = new Set(all.map((t) => t.key));
  for (const key of [...live.media.keys()]) if (!seen.has(key)) live.media.delete(key);
  for (const [t, info] of answers) {
    if (!info) continue;
    const entry = {
      filename: info.filename || "",
      total: info.totalDurationInMillliseconds ?? info.totalDurationInMilliseconds ?? 0,
      current: info.currentTimeInMilliseconds ?? 0,
      at: now,
    };
    // a display has no isPlaying in the interface: it plays when its position moves
    const before = progress.get(t.key);
    if (before && now - before.at > 300) {
      const moved = entry.current !== before.current;
      progress.set(t.key, { current: entry.current, at: now, advancing: moved });
    } else if (!before) {
      progress.set(t.key, { current: entry.current, at: now, advancing: null });
    }
    live.media.set(t.key, entry);
  }
}

async function pollRenders() {
  if (live.rendersMissing) return;
  const known = new Set(live.displays.map((d) => d.displayId));
  for (const id of [...live.renders.keys()]) if (!known.has(id)) live.renders.delete(id);
  const wanted = live.displays
    .map((d) => d.displayId)
    .filter((id) => watched.has(id) || (!mirrorOfDisplay(id) && !zoneOfDisplay(id)));
  let batch = wanted;
  if (wanted.length > RENDER_BATCH) {
    batch = [];
    for (let i = 0; i < RENDER_BATCH; i++) batch.push(wanted[(renderCursor + i) % wanted.length]);
    renderCursor = (renderCursor + RENDER_BATCH) % wanted.length;
  }
  await Promise.all(batch.map(fetchRender));
}

/** Fetch the render description of one display into live.renders. */
async function fetchRender(displayId) {
  const t0 = localNow();
  try {
    const description = await get(`/displays/${seg(displayId)}/render`, { onResponse: (r) => clockSample(t0, r) });
    const sig = JSON.stringify(description);
    const before = live.renders.get(displayId);
    // an unchanged description stays the same object: drawers compare by identity
    live.renders.set(displayId, { description: before && before.sig === sig ? before.description : description, sig, at: Date.now() });
  } catch (e) {
    if (e.missing) live.rendersMissing = true;
  }
}

async function pollLayouts() {
  if (Date.now() < controlRoomMissingUntil) return;
  const wanted = targets().filter((t) => t.kind === "zone" && t.source && t.source.sourceType === "Command and Control");
  for (const t of wanted) {
    try {
      const layout = await get(`/controlroom/${seg(t.name)}/currentlayout`);
      live.layouts.set(t.name, layout);
    } catch (e) {
      if (e.status === 404) {
        controlRoomMissingUntil = Date.now() + 30000;
        return;
      }
    }
  }
}
