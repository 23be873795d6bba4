// The host's group: which hosts a receiver connects to. A host of a group tells its
// members' addresses ("group" message); when the host is gone the page tries the active
// member first, then every member in turn, then the host it was loaded from, with backoff
// after each full round (receiver.js). A host that went silent (frozen: its sockets open,
// nothing said) is tried last for a while: its group replaces it, and a connection to it
// would only hang.

const GROUP_KEY = "tilewall.group";
const SILENT_AVOID_MS = 15000;

/** @type {{members: string[], active: string | null, at: string | null, tried: number, welcomedBy: string | null, silent: string | null, silentUntil: number}} */
export const group = { members: [], active: null, at: null, tried: 0, welcomedBy: null, silent: null, silentUntil: 0 };
try {
  const saved = JSON.parse(localStorage.getItem(GROUP_KEY) || "null");
  if (saved && Array.isArray(saved.members)) Object.assign(group, { members: saved.members, active: saved.active || null });
} catch {}

/** The hosts to try, in order: the group's active member first, each once. */
export function candidates() {
  const seen = new Set();
  /** @type {(a: string | null) => a is string} */
  const usable = (a) => typeof a === "string" && /^https?:\/\//.test(a) && !seen.has(a) && !!seen.add(a);
  const list = [group.active, ...group.members, location.origin].filter(usable);
  const avoid = group.silent !== null && performance.now() < group.silentUntil;
  const others = list.filter((a) => a !== group.silent);
  return avoid && others.length > 0 ? [...others, ...list.filter((a) => a === group.silent)] : list;
}

/** @returns {string} */
export function nextHost() {
  const list = candidates();
  const pick = list[group.tried % list.length];
  group.tried += 1;
  return pick;
}

/** The host connected to went silent: try it last for a while, and the others from the start. */
export function markSilent() {
  group.silent = group.at;
  group.silentUntil = performance.now() + SILENT_AVOID_MS;
  group.tried = 0;
}

/** A "group" message: the members and the active one, kept for the next start. */
export function onGroup(m) {
  group.members = Array.isArray(m.members) ? m.members.filter((a) => typeof a === "string") : [];
  group.active = typeof m.active === "string" ? m.active : null;
  try {
    localStorage.setItem(GROUP_KEY, JSON.stringify({ members: group.members, active: group.active }));
  } catch {}
}

/** Media and other paths of a description resolve on the host it came from. */
export function onHost(value) {
  if (!group.at || group.at === location.origin) return value;
  if (Array.isArray(value)) return value.map(onHost);
  if (!value || typeof value !== "object") return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "url" && typeof v === "string" && v.startsWith("/") && !v.startsWith("//") ? group.at + v : onHost(v);
  return out;
}
