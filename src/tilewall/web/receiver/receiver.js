// tilewall receiver: connects to the host, renders what it is told, follows the host clock.
// Protocol: docs/protocol.md (version 1).

import { render } from "./screen.js";
import { mediaStore } from "./prefetch.js";
import { chooseSeat } from "./seat.js";
import { hostClock } from "./host-clock.js";
import { VERSION as HOST_VERSION } from "/receiver/version.js"; // made by the host (types/)

const VERSION = 1;
const FIRMWARE = `tilewall-receiver/${HOST_VERSION}`;
const STATE_KEY = "tilewall.lastState";
const GROUP_KEY = "tilewall.group";
const KEY_PREFIX = "tilewall.key.";
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
const CLOSE_REPLACED = 4000;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 10000;
const TICK_MS = 100;
const STATUS_MS = 2000;
const CLOCK_MS = 5000;

/**
 * The page's element with this id (index.html has every one asked for).
 * @param {string} id
 * @returns {HTMLElement}
 */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the receiver page has no #${id}`);
  return el;
}
const query = new URLSearchParams(location.search);

// --- identity -------------------------------------------------------------------------

// One seat per tab (seat.js), chosen when the page starts; the state of a seat other
// than the browser's first is kept under its own name.
let seat = null;
let storeKey = STATE_KEY;
let keyName = null;

// The station key the host handed this screen when it was locked: shown in every hello,
// so that no other device can take the station. The kiosk agent passes it in the
// fragment (#key=...), which never goes over the network.
function adoptFragmentKey() {
  const given = new URLSearchParams(location.hash.slice(1)).get("key");
  if (given && KEY_PATTERN.test(given)) keepKey(given);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
}
function stationKey() {
  try {
    const key = localStorage.getItem(keyName);
    return key && KEY_PATTERN.test(key) ? key : null;
  } catch {
    return null;
  }
}
function keepKey(key) {
  try {
    if (key) localStorage.setItem(keyName, key);
    else localStorage.removeItem(keyName);
  } catch {}
  mediaKey(key);
}
// The host sends media (/media/...) and live streams (/live/...) only to a session or a
// locked station's key: the key goes with every such request as a cookie of this seat's
// own (img and video elements, and WebSockets, cannot send headers). It is set before
// the state that names them is applied.
const MEDIA_COOKIE_PREFIX = "tilewall_key_";
const KEYED_PATHS = ["/media", "/live"];
function mediaKey(key) {
  const name = MEDIA_COOKIE_PREFIX + String(seat).replace(/[^A-Za-z0-9_-]/g, "_");
  const secure = location.protocol === "https:" ? "; Secure" : "";
  const value = key && KEY_PATTERN.test(key) ? `${key}; max-age=31536000` : "; max-age=0";
  for (const path of KEYED_PATHS) document.cookie = `${name}=${value}; path=${path}; SameSite=Strict${secure}`;
}

// --- clock ----------------------------------------------------------------------------

const localNow = () => performance.timeOrigin + performance.now();
const clock = hostClock(); // host-clock.js
const hostNow = () => localNow() + clock.offset;

// --- screen ---------------------------------------------------------------------------

const screenEl = $("screen");
let state = null;
let rev = 0;
let picture = null; // the picture (screen.js), made on the first description

function layoutStage() {
  if (picture) picture.layout();
}

const LEVELS = { GREEN_LEVEL: "green", ORANGE_LEVEL: "orange", RED_LEVEL: "red" };

function applyOverlays(o) {
  const alert = $("alert");
  if (o.alert && o.alert.untilMs > hostNow()) {
    alert.textContent = o.alert.message;
    alert.className = `overlay alert ${LEVELS[o.alert.level] || "red"}`;
    alert.hidden = false;
  } else {
    alert.hidden = true;
  }
  const id = $("display-id");
  id.hidden = !o.displayId;
  id.textContent = o.displayId ? String(o.displayId.displayId) : "";
  $("dpms").hidden = !o.dpmsOff;
  applyShareCode(o.shareCode);
}

/** The code a guest shares a screen here with, and where (docs/share.md). */
function applyShareCode(code) {
  const box = $("share-code");
  const shown = !!code && (!code.untilMs || code.untilMs > hostNow());
  box.hidden = !shown;
  if (!shown) return;
  const [how, number] = /** @type {HTMLElement[]} */ ([...box.children]);
  how.textContent = `Share your screen here: ${location.origin}/share/ · code`;
  number.textContent = `${code.code.slice(0, 3)} ${code.code.slice(3)}`;
}

function apply(next, nextRev) {
  state = next;
  rev = nextRev;
  try {
    localStorage.setItem(storeKey, JSON.stringify({ rev, state }));
  } catch {}
  if (!picture) {
    screenEl.replaceChildren();
    picture = render(screenEl, null, hostNow, { media: mediaStore({ owner: seat }) });
    picture.stage.id = "stage";
  }
  picture.update(next);
  applyOverlays(next.overlays);
  tick();
}

function tick() {
  if (!state) return;
  const now = hostNow();
  if (picture) picture.tick();
  if (state.overlays && state.overlays.alert && !$("alert").hidden && state.overlays.alert.untilMs <= now) {
    $("alert").hidden = true;
  }
  if (state.overlays && state.overlays.shareCode && !$("share-code").hidden) applyShareCode(state.overlays.shareCode);
}

/** What is shown, read together with the host instant it is read at (for sync checks). */
function sample() {
  if (picture) return picture.sample();
  return { showing: "nothing", item: null, positionMs: null, expectedMs: null, playing: false, hostMs: hostNow() };
}

// --- the host's group: which hosts to connect to ----------------------------------------
// A host of a group tells its members' addresses ("group" message); when the host is
// gone the page tries the active member first, then every member in turn, then the
// host it was loaded from, with backoff after each full round. A host that went silent
// (frozen: its sockets open, nothing said) is tried last for a while: its group replaces
// it, and a connection to it would only hang.
const SILENT_AVOID_MS = 15000;

/** @type {{members: string[], active: string | null, at: string | null, tried: number, welcomedBy: string | null, silent: string | null, silentUntil: number}} */
const group = { members: [], active: null, at: null, tried: 0, welcomedBy: null, silent: null, silentUntil: 0 };
try {
  const saved = JSON.parse(localStorage.getItem(GROUP_KEY) || "null");
  if (saved && Array.isArray(saved.members)) Object.assign(group, { members: saved.members, active: saved.active || null });
} catch {}

/** The hosts to try, in order: the group's active member first, each once. */
function candidates() {
  const seen = new Set();
  /** @type {(a: string | null) => a is string} */
  const usable = (a) => typeof a === "string" && /^https?:\/\//.test(a) && !seen.has(a) && !!seen.add(a);
  const list = [group.active, ...group.members, location.origin].filter(usable);
  const avoid = group.silent !== null && performance.now() < group.silentUntil;
  const others = list.filter((a) => a !== group.silent);
  return avoid && others.length > 0 ? [...others, ...list.filter((a) => a === group.silent)] : list;
}

/** @returns {string} */
function nextHost() {
  const list = candidates();
  const pick = list[group.tried % list.length];
  group.tried += 1;
  return pick;
}

function onGroup(m) {
  group.members = Array.isArray(m.members) ? m.members.filter((a) => typeof a === "string") : [];
  group.active = typeof m.active === "string" ? m.active : null;
  try {
    localStorage.setItem(GROUP_KEY, JSON.stringify({ members: group.members, active: group.active }));
  } catch {}
}

/** Media and other paths of a description resolve on the host it came from. */
function onHost(value) {
  if (!group.at || group.at === location.origin) return value;
  if (Array.isArray(value)) return value.map(onHost);
  if (!value || typeof value !== "object") return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "url" && typeof v === "string" && v.startsWith("/") && !v.startsWith("//") ? group.at + v : onHost(v);
  return out;
}

// --- connection -----------------------------------------------------------------------

let socket = null;
let backoff = BACKOFF_MIN_MS;
let connected = false;
let timers = [];
let lastRx = 0;
let silentAfterMs = 5000; // no message for this long: the link is dead, reconnect
let replaced = false; // another connection took the seat: no reconnecting by itself
let refused = null; // why the host gives this screen nothing (another device has the station)

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ v: VERSION, ...message }));
}

function syncClock() {
  send({ type: "time", t0: localNow() });
}

function reportStatus() {
  const s = sample();
  send({
    type: "status",
    rev,
    showing: String(s.showing).slice(0, 256),
    item: s.item == null ? null : String(s.item).slice(0, 256),
    positionMs: Number.isFinite(s.positionMs) ? s.positionMs : null,
    hostMs: s.hostMs,
    playing: !!s.playing,
    offsetMs: clock.offset,
    rttMs: clock.rtt,
  });
}

// The page renders a stage of any size and scales it to the window, so besides the
// screen's own size it offers the usual display modes (landscape and portrait).
const MODES = [
  [3840, 2160], [2560, 1440], [1920, 1200], [1920, 1080], [1680, 1050], [1600, 900],
  [1366, 768], [1280, 1024], [1280, 800], [1280, 720], [1024, 768], [800, 600],
  [2160, 3840], [1440, 2560], [1200, 1920], [1080, 1920], [720, 1280],
];

function resolutions(own) {
  const seen = new Set();
  const list = [];
  for (const [width, height] of [[own.width, own.height], ...MODES]) {
    const key = `${width}x${height}`;
    if (!seen.has(key)) {
      seen.add(key);
      list.push({ width, height });
    }
  }
  return list;
}

function hello() {
  const dpr = devicePixelRatio || 1;
  const screenSize = { width: Math.max(1, Math.round(screen.width * dpr)), height: Math.max(1, Math.round(screen.height * dpr)) };
  const message = { type: "hello", seatId: seat, screen: screenSize, resolutions: resolutions(screenSize), model: navigator.userAgent.slice(0, 256), firmware: FIRMWARE, rev, features: ["content"] };
  const name = query.get("name");
  if (name) message.name = name.slice(0, 256);
  const key = stationKey();
  if (key) message.key = key;
  send(message);
}

function onMessage(event) {
  lastRx = localNow();
  let m;
  try {
    m = JSON.parse(event.data);
  } catch {
    return;
  }
  if (!m || m.v !== VERSION) return;
  switch (m.type) {
    case "welcome":
      connected = true;
      document.body.classList.remove("offline");
      backoff = BACKOFF_MIN_MS;
      group.tried = 0;
      if (group.welcomedBy !== group.at) clock.samples = []; // another host, another clock
      group.welcomedBy = group.at;
      clock.roughly(m.hostMs, localNow());
      silentAfterMs = Math.max(5000, 4 * (m.pingIntervalMs || 1000));
      refused = m.refused || null;
      notice(refused ? `Station ${seat} is locked to another screen: this one is given nothing. Re-pair it from the console (Receivers) to make this screen the station.` : null);
      for (let i = 0; i < 8; i++) timers.push(setTimeout(syncClock, i * 150));
      apply(onHost(m.state), m.rev);
      send({ type: "ack", rev: m.rev });
      break;
    case "state":
      apply(onHost(m.state), m.rev);
      send({ type: "ack", rev: m.rev });
      break;
    case "content": // the last state with its content replaced (the same text for a whole zone)
      if (!state) break;
      apply({ ...state, content: onHost(m.content) }, m.rev);
      send({ type: "ack", rev: m.rev });
      break;
    case "group":
      onGroup(m);
      break;
    case "time":
      clock.add(m.t0, m.t1, m.t2, localNow());
      break;
    case "ping":
      send({ type: "pong", id: m.id });
      break;
    case "reset":
      if (picture) picture.reset();
      if (state) apply(state, rev);
      break;
    case "reload":
      location.reload();
      break;
    case "key":
      keepKey(m.key);
      break;
  }
}

/** A message over the picture (null: none). */
function notice(text) {
  const el = $("notice");
  el.textContent = text || "";
  el.hidden = !text;
}

/** A newer connection for this seat replaced this page: say so and stay replaced; a
 * reload takes the seat back. */
function onReplaced() {
  replaced = true;
  connected = false;
  for (const t of timers) clearTimeout(t);
  timers = [];
  document.body.classList.add("offline");
  notice(`Another screen connected as station ${seat} and took it over. Reload this page to take it back.`);
}

const CLOSE_STANDBY = 4002; // the host is a standby of its group: go to the active one

/** @param {CloseEvent} [event] @param {boolean} [soon] connect to the next host at once */
function scheduleReconnect(event, soon = false) {
  connected = false;
  for (const t of timers) clearTimeout(t);
  timers = [];
  document.body.classList.add("offline");
  if (soon) {
    setTimeout(connect, 50);
    return;
  }
  const avoided = group.active === group.silent && performance.now() < group.silentUntil;
  if (event && event.code === CLOSE_STANDBY && group.active && group.active !== group.at && !avoided) {
    group.tried = 0; // the active member first, at once
    setTimeout(connect, 50);
    return;
  }
  const round = candidates().length;
  const delay = group.tried % round === 0 ? backoff * (0.8 + Math.random() * 0.4) : 250;
  if (group.tried % round === 0) backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  setTimeout(connect, delay);
}

/** Give up on the current socket at once (a dead link may take long to report close). */
function drop() {
  abandon();
  scheduleReconnect();
}

function abandon() {
  const old = socket;
  old.onclose = old.onerror = old.onmessage = null;
  try {
    old.close();
  } catch {}
}

/** The host went silent (frozen, its sockets open): give up on it, and try another
 * member at once (the silent one goes last for a while; a standby holds the hello until
 * it has taken over), with no backoff: the silence was the wait. */
function leaveSilent() {
  group.silent = group.at;
  group.silentUntil = performance.now() + SILENT_AVOID_MS;
  group.tried = 0;
  abandon();
  scheduleReconnect(undefined, candidates().length > 1);
}

function connect() {
  const at = nextHost();
  group.at = at;
  const opening = new WebSocket(`${at.replace(/^http/, "ws")}/receiver/ws`);
  socket = opening;
  // a host that lost its power or network may never answer: try the next one
  setTimeout(() => socket === opening && opening.readyState === WebSocket.CONNECTING && drop(), 3000);
  socket.onopen = hello;
  socket.onmessage = onMessage;
  socket.onclose = (event) => (event.code === CLOSE_REPLACED ? onReplaced() : scheduleReconnect(event));
  socket.onerror = drop;
}

// --- start ----------------------------------------------------------------------------

async function start() {
  const chosen = await chooseSeat(query);
  seat = chosen.seat;
  storeKey = chosen.named || !chosen.first ? `${STATE_KEY}.${seat}` : STATE_KEY;
  keyName = KEY_PREFIX + seat;
  adoptFragmentKey();
  const known = stationKey();
  if (known) mediaKey(known);
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey) || "null");
    if (saved && saved.state) apply(saved.state, saved.rev || 0);
  } catch {}

  // Keeps the page and its images for starts while the host is away (secure contexts only).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/receiver/sw.js", { scope: "/receiver/" }).catch(() => {});

  addEventListener("resize", layoutStage);
  setInterval(tick, TICK_MS);
  setInterval(() => connected && reportStatus(), STATUS_MS);
  setInterval(() => connected && syncClock(), CLOCK_MS);
  setInterval(() => {
    if (!connected || localNow() - lastRx <= silentAfterMs) return;
    leaveSilent();
  }, 1000);
  connect();
}
start();

// the page's hooks for the kiosk agent and the tests
Object.defineProperty(window, "tilewall", { value: {
  get seatId() {
    return seat;
  },
  firmware: FIRMWARE,
  get connected() {
    return connected;
  },
  get host() {
    return group.at;
  },
  get members() {
    return group.members.slice();
  },
  get replaced() {
    return replaced;
  },
  get refused() {
    return refused;
  },
  get rev() {
    return rev;
  },
  get state() {
    return state;
  },
  get offsetMs() {
    return clock.offset;
  },
  get rttMs() {
    return clock.rtt;
  },
  hostNow,
  sample,
  /** Frames shown and starts of videos since host instant `since` (screen.js sync()). */
  sync: (since) => (picture ? picture.sync(since) : { frames: [], starts: [], learned: null }),
} });
