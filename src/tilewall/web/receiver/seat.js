// Which station this tab is. One station, one screen: two tabs of one browser share the
// browser's storage, so without care they would both say hello as the stored seat id
// and take the seat from each other. Each tab claims its seat over a BroadcastChannel
// (which, unlike Web Locks, also works over plain HTTP): a tab asks who holds a seat,
// tabs holding it answer, tabs asking for it at the same moment answer too and the
// smaller tab id wins. A tab that finds its seat held takes the next seat this browser
// has used before, or a new one; the browser remembers them all, so after a restart the
// same tabs come back as the same stations. A tab keeps its seat across reloads
// (sessionStorage). `?seat=NAME` names the seat outright and claims nothing.

const SEAT_KEY = "tilewall.seatId"; // the browser's first seat (kept from before tabs)
const SEATS_KEY = "tilewall.seats"; // every seat of this browser, first included
const TAB_SEAT_KEY = "tilewall.tabSeat"; // this tab's seat (sessionStorage)
const CHANNEL = "tilewall.seats";
const ASK_MS = 250;
export const SEAT_PATTERN = /^[A-Za-z0-9_.~-]{1,64}$/;

const tab = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
let held = null;
const asking = new Set();
const heard = new Map(); // seat -> {mine, contenders:Set}

function newSeat() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return "rx-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function read(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function write(storage, key, value) {
  try {
    storage.setItem(key, value);
  } catch {}
}

function knownSeats() {
  let list = [];
  try {
    list = JSON.parse(read(localStorage, SEATS_KEY) || "[]");
  } catch {}
  const first = read(localStorage, SEAT_KEY);
  if (first && !list.includes(first)) list.unshift(first);
  return list.filter((s) => typeof s === "string" && SEAT_PATTERN.test(s));
}

function remember(seat) {
  const list = knownSeats();
  if (!list.includes(seat)) list.push(seat);
  write(localStorage, SEATS_KEY, JSON.stringify(list.slice(0, 64)));
  if (!read(localStorage, SEAT_KEY)) write(localStorage, SEAT_KEY, seat);
}

let channel = null;
try {
  channel = new BroadcastChannel(CHANNEL);
} catch {}

if (channel) {
  channel.onmessage = (event) => {
    const m = event.data || {};
    if (!m.seat || m.tab === tab) return;
    if (m.t === "who") {
      if (held === m.seat) channel.postMessage({ t: "mine", seat: m.seat, tab });
      else if (asking.has(m.seat)) channel.postMessage({ t: "asking", seat: m.seat, tab });
    }
    const seen = heard.get(m.seat);
    if (!seen) return;
    if (m.t === "mine") seen.mine = true;
    if (m.t === "who" || m.t === "asking") seen.contenders.add(m.tab);
  };
}

/** Whether this tab may have `seat`: nobody holds it, and of those asking now, we win. */
async function claim(seat) {
  if (!channel) return true;
  const seen = { mine: false, contenders: new Set() };
  heard.set(seat, seen);
  asking.add(seat);
  channel.postMessage({ t: "who", seat, tab });
  await new Promise((resolve) => {
    setTimeout(resolve, ASK_MS);
  });
  asking.delete(seat);
  heard.delete(seat);
  if (seen.mine) return false;
  for (const other of seen.contenders) if (other < tab) return false;
  held = seat;
  return true;
}

/** This tab's seat: named by `?seat=`, else claimed among the tabs of this browser. */
export async function chooseSeat(query) {
  const named = query.get("seat");
  if (named && SEAT_PATTERN.test(named)) return { seat: named, named: true };
  const own = read(sessionStorage, TAB_SEAT_KEY);
  const candidates = [own, ...knownSeats()].filter((s, i, all) => s && SEAT_PATTERN.test(s) && all.indexOf(s) === i);
  for (const seat of candidates) {
    if (await claim(seat)) return adopt(seat);
  }
  let seat = newSeat();
  while (!(await claim(seat))) seat = newSeat();
  return adopt(seat);
}

function adopt(seat) {
  remember(seat);
  write(sessionStorage, TAB_SEAT_KEY, seat);
  return { seat, named: false, first: read(localStorage, SEAT_KEY) === seat };
}
