// The live picture of the host, read again each time the host says it changed (events.js),
// never on a timer: when its stream of changes drops it is read once (to tell a lost
// session or a host that does not answer), and the reopened stream's first event reads it
// again for what changed meanwhile. Raw answers of the interface are folded into "targets": what an operator switches
// (a zone, a mirror group, a display on its own), each with its state and what it shows.
// Render descriptions (GET /displays/{id}/render: what a receiver is told to show) are
// read for the displays on their own (their play state) and for the displays a tile
// draws; their answers also give the host clock.

import { get, seg } from "./api.js";
import { followHost } from "./events.js";

const MEDIAINFO_BATCH = 24; // at most this many mediainfo calls per poll
const RENDER_BATCH = 24; // at most this many render descriptions per poll
const CLOCK_SAMPLES = 16;

// The interface's answers as the console reads them (docs/SPEC): the fields named here
// are the ones it uses; the rest pass through.
/** @typedef {{displayId: number, isOnline?: boolean, playingSourceId?: string, isShowingWelcomeScreen?: boolean, [field: string]: any}} Display */
/** @typedef {{zoneId: string, zoneName: string, zoneDisplays?: {displayId: number, isSelected: boolean}[], playingSourceId?: string, isShowingWelcomeScreen?: boolean, isPlaying?: boolean, videowallId?: string, [field: string]: any}} Zone */
/** @typedef {{id: string, name: string, displayIds: number[], isPlaying: boolean, playingSourceId: string, isShowingWelcomeScreen: boolean, [field: string]: any}} Mirror */
/** @typedef {{id: string, name: string, monitors?: {displayId: number, [field: string]: any}[], [field: string]: any}} Wall */
/** @typedef {{sourceId: string, sourceName: string, sourceType: string, [field: string]: any}} Source */
/** @typedef {{displayId: number, name?: string, devices?: {type: string, model?: string}[], [field: string]: any}} Station */
/** @typedef {{filename: string, total: number, current: number, at: number}} MediaPosition */
/** @typedef {{description: any, sig: string, at: number}} RenderEntry */

export const live = {
  /** @type {Display[]} */
  displays: [],
  /** @type {Zone[]} */
  zones: [],
  /** @type {Mirror[]} */
  mirrors: [],
  /** @type {Wall[]} */
  walls: [],
  /** @type {Source[]} */
  sources: [],
  /** @type {Station[]} */
  network: [],
  /** @type {Map<string, MediaPosition>} target key -> where its media is */
  media: new Map(),
  /** @type {Map<string, any>} zone name -> current layout (control room), when the host offers it */
  layouts: new Map(),
  /** @type {Map<number, RenderEntry>} displayId -> what its receiver is told to show */
  renders: new Map(),
  rendersMissing: false, // the host does not offer render descriptions
  /** @type {import("./api.js").ApiError | null} */
  error: null,
  lastOk: 0,
  loaded: false,
  following: false, // the host's stream of changes is open
};

const listeners = new Set();
/** @type {Set<() => void>} */
const hostChanged = new Set();
let running = false;
let inFlight = false;
let again = false; // a change was told while a poll was under way: poll once more
/** @type {(() => void) | null} */
let unfollow = null;
let mediaCursor = 0;
const progress = new Map(); // display key -> {current, at, advancing}
let controlRoomMissingUntil = 0;
let renderCursor = 0;
const watched = new Map(); // displayId -> number of watchers (tiles drawing it)

// ---- host clock -----------------------------------------------------------------------
// Render answers carry the host clock (X-Tilewall-Host-Ms); the sample with the shortest
// round trip of the last few gives the offset. Until one arrives, the Date header's
// second-resolution time is better than nothing.

const localNow = () => performance.timeOrigin + performance.now();
const clock = {
  /** @type {{rtt: number, offset: number}[]} */
  samples: [],
  offset: 0,
  exact: false,
};

function clockSample(t0, response) {
  const t3 = localNow();
  const exact = Number(response.headers.get("X-Tilewall-Host-Ms"));
  if (Number.isFinite(exact) && exact > 0) {
    clock.samples.push({ rtt: t3 - t0, offset: exact - (t0 + t3) / 2 });
    if (clock.samples.length > CLOCK_SAMPLES) clock.samples.shift();
    clock.offset = clock.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a)).offset;
    clock.exact = true;
    return;
  }
  const date = Date.parse(response.headers.get("Date") || "");
  if (!clock.exact && Number.isFinite(date)) clock.offset = date + 500 - (t0 + t3) / 2;
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

// ---- derived views of the raw answers -------------------------------------------

export function sourceById(id) {
  return live.sources.find((s) => s.sourceId === id) || null;
}

export function stationOf(displayId) {
  return live.network.find((n) => n.displayId === displayId) || null;
}

export function displayById(displayId) {
  return live.displays.find((d) => d.displayId === displayId) || null;
}

export function displayName(displayId) {
  const station = stationOf(displayId);
  return station && station.name ? `${station.name} (#${displayId})` : `Display ${displayId}`;
}

/** Screen size of a display's receiver, from its DISPLAY device ("1920x1080"). */
export function screenOf(displayId) {
  const station = stationOf(displayId);
  const device = station && (station.devices || []).find((d) => d.type === "DISPLAY");
  const m = device && /^(\d+)\s*x\s*(\d+)$/i.exec(device.model || "");
  return m ? { width: Number(m[1]), height: Number(m[2]) } : { width: 1920, height: 1080 };
}

export function wallOf(displayId) {
  return live.walls.find((w) => (w.monitors || []).some((m) => m.displayId === displayId)) || null;
}

export function zoneOfDisplay(displayId) {
  return live.zones.find((z) => (z.zoneDisplays || []).some((d) => d.displayId === displayId && d.isSelected)) || null;
}

export function mirrorOfDisplay(displayId) {
  return live.mirrors.find((m) => m.displayIds.includes(displayId)) || null;
}

/** The play state a display's receiver is told ("playing", "paused", "stopped", "welcome"),
 *  from its render description; null when there is none (yet) or it shows no content. */
export function renderedState(displayId) {
  const entry = live.renders.get(displayId);
  const content = entry && entry.description && entry.description.content;
  if (!content) return null;
  if (content.welcome) return "welcome";
  if (!content.source) return "stopped";
  return content.timeline.state;
}

function stateOf({ welcome, isPlaying, sourceId, filename, advancing, rendered }) {
  if (rendered) return rendered;
  if (welcome) return "welcome";
  if (isPlaying === true) return "playing";
  if (isPlaying === false) return sourceId || filename ? "paused" : "stopped";
  // displays without a render description: guess from the position moving
  if (!sourceId && !filename) return "stopped";
  if (advancing === false) return "paused";
  return "playing";
}

/** Everything an operator can switch, keyed "zone:<id>", "mirror:<id>", "display:<id>". */
export function targets() {
  const out = [];
  for (const z of live.zones) {
    const ids = (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId);
    out.push(
      makeTarget({
        kind: "zone",
        id: z.zoneId,
        name: z.zoneName,
        path: `/zones/${seg(z.zoneId)}`,
        displayIds: ids,
        sourceId: z.playingSourceId,
        welcome: z.isShowingWelcomeScreen,
        isPlaying: z.isPlaying,
        wallId: z.videowallId,
      }),
    );
  }
  for (const m of live.mirrors) {
    out.push(
      makeTarget({
        kind: "mirror",
        id: m.id,
        name: m.name,
        path: `/mirrorgroups/${seg(m.id)}`,
        displayIds: m.displayIds,
        sourceId: m.playingSourceId,
        welcome: m.isShowingWelcomeScreen,
        isPlaying: m.isPlaying,
      }),
    );
  }
  for (const d of live.displays) {
    if (mirrorOfDisplay(d.displayId) || zoneOfDisplay(d.displayId)) continue;
    const rendered = renderedState(d.displayId);
    out.push(
      makeTarget({
        kind: "display",
        id: String(d.displayId),
        name: displayName(d.displayId),
        path: `/displays/${seg(d.displayId)}`,
        displayIds: [d.displayId],
        sourceId: d.playingSourceId,
        welcome: d.isShowingWelcomeScreen,
        isPlaying: rendered && rendered !== "welcome" ? rendered === "playing" : undefined,
        rendered,
        wallId: (wallOf(d.displayId) || {}).id,
      }),
    );
  }
  return out;
}

function makeTarget(t) {
  const key = `${t.kind}:${t.id}`;
  const media = live.media.get(key) || null;
  const prog = progress.get(key);
  const online = t.displayIds.length > 0 && t.displayIds.every((id) => (displayById(id) || {}).isOnline);
  const someOnline = t.displayIds.some((id) => (displayById(id) || {}).isOnline);
  const source = t.sourceId ? sourceById(t.sourceId) : null;
  const state = stateOf({
    welcome: t.welcome,
    isPlaying: t.isPlaying,
    sourceId: t.sourceId,
    filename: media && media.filename,
    advancing: prog ? prog.advancing : null,
    rendered: t.rendered || null,
  });
  return {
    ...t,
    key,
    media,
    source,
    online,
    someOnline,
    state,
    videolist: !t.sourceId && !!(media && media.filename) && state !== "welcome",
  };
}

export function targetByKey(key) {
  return targets().find((t) => t.key === key) || null;
}

export function targetOfDisplay(displayId) {
  const m = mirrorOfDisplay(displayId);
  if (m) return `mirror:${m.id}`;
  const z = zoneOfDisplay(displayId);
  if (z) return `zone:${z.zoneId}`;
  return `display:${displayId}`;
}

/** Estimated media position now, between polls. */
export function positionNow(target) {
  const m = target && target.media;
  if (!m) return 0;
  if (target.state !== "playing") return m.current;
  const now = m.current + (Date.now() - m.at);
  return m.total > 0 ? Math.min(now, m.total) : now;
}
