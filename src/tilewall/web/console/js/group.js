// The group of hosts this console's host belongs to: a banner while it is a standby.

import { get } from "./api.js";
import * as live from "./live.js";
import { byId, h } from "./ui.js";

const ROLE_MS = 60000;

/** @type {ReturnType<typeof setInterval> | undefined} */
let timer;
/** @type {(() => void) | null} */
let unsubscribe = null;
let banner = null;

function show(group) {
  const standby = group && group.role === "standby";
  if (!banner) {
    banner = h("div", { class: "standby-banner", id: "standby-banner", role: "status", hidden: true });
    byId("topbar").after(banner);
  }
  banner.hidden = !standby;
  if (!standby) return;
  const active = group.activeAddress;
  banner.replaceChildren(
    h("strong", {}, "This host is a standby of its group. "),
    active
      ? h("span", {}, "It shows what the active host commits; changes made here are forwarded to the active host, ", h("a", { href: `${active}/` }, active), ".")
      : h("span", {}, "No host of the group is active just now; changes cannot be made until one is."),
  );
}

async function poll() {
  try {
    show(await get("/group"));
  } catch {
    /* the live indicator says when the host does not answer */
  }
}

/**
 * Check the host's role now, after each change the host tells (live.js), and every
 * ROLE_MS: a member's role can change without a change of its state (the active member
 * went away).
 */
export function watchGroup() {
  if (timer) return;
  poll();
  timer = setInterval(poll, ROLE_MS);
  unsubscribe = live.onHostChange(poll);
}

export function stopWatchingGroup() {
  clearInterval(timer);
  timer = undefined;
  if (unsubscribe) unsubscribe();
  unsubscribe = null;
  if (banner) banner.hidden = true;
}
