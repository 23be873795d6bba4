// tilewall receiver: connects to the host, renders what it is told, follows the host clock.
// Protocol: docs/protocol.md (version 1).

import { render } from "./screen.js";
import { mediaStore } from "./prefetch.js";
import { chooseSeat } from "./seat.js";
import { hostClock } from "./host-clock.js";
import { stationKeyOf } from "./station-key.js";
import { candidates, group, markSilent, nextHost, onGroup, onHost } from "./host-group.js";
import { $, notice, overlays as pageOverlays } from "./overlays.js";
import { screenModes } from "./modes.js";
import { VERSION as HOST_VERSION } from "/receiver/version.js"; // made by the host (types/)

const VERSION = 1;
const FIRMWARE = `tilewall-receiver/${HOST_VERSION}`;
const STATE_KEY = "tilewall.lastState";
const CLOSE_REPLACED = 4000;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 10000;
const TICK_MS = 100;
const STATUS_MS = 2000;
const CLOCK_MS = 5000;

const query = new URLSearchParams(location.search);

// --- identity -------------------------------------------------------------------------

// One seat per tab (seat.js), chosen when the page starts; the state of a seat other
// than the browser's first is kept under its own name.
let seat = null;
let storeKey = STATE_KEY;
/** @type {ReturnType<typeof stationKeyOf> | null} the seat's station key (station-key.js) */
let keys = null;

// --- clock ----------------------------------------------------------------------------

const localNow = () => performance.timeOrigin + performance.now();
const clock = hostClock(); // host-clock.js
const hostNow = () => localNow() + clock.offset;
const overlays = pageOverlays(hostNow);

// --- screen ---------------------------------------------------------------------------

const screenEl = $("screen");
let state = null;
let rev = 0;
let picture = null; // the picture (screen.js), made on the first description

function layoutStage() {
  if (picture) picture.layout();
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
  overlays.apply(next.overlays);
  tick();
}

function tick() {
  if (!state) return;
  const now = hostNow();
  if (picture) picture.tick();
  overlays.tick(state.overlays, now);
}

/** What is shown, read together with the host instant it is read at (for sync checks). */
function sample() {
  if (picture) return picture.sample();
  return { showing: "nothing", item: null, positionMs: null, expectedMs: null, playing: false, hostMs: hostNow() };
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

function hello() {
  const modes = screenModes();
  const message = { type: "hello", seatId: seat, screen: modes.screen, resolutions: modes.resolutions, model: navigator.userAgent.slice(0, 256), firmware: FIRMWARE, rev, features: ["content", "keyStored"] };
  const name = query.get("name");
  if (name) message.name = name.slice(0, 256);
  const key = keys && keys.current();
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
      // said once kept, as a page may go (reload, power) with the key on its way: the
      // host holds it for the seat's next connection until then
      if (keys && keys.keep(m.key)) send({ type: "keyStored", key: m.key });
      break;
  }
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
  markSilent();
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
  keys = stationKeyOf(seat);
  keys.adoptFragment();
  const known = keys.current();
  if (known) keys.cookie(known);
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
