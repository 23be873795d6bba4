// The group of hosts this console's host belongs to: a banner while it is a standby.

import { get } from "./api.js";
import * as live from "./live.js";
import { byId, h } from "./ui.js";

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

async function readGroup() {
  try {
    show(await get("/group"));
  } catch {
    /* the live indicator says when the host does not answer */
  }
}

/**
 * Check the host's role after each change the host tells (live.js), the first as its
 * stream of changes opens; the host tells a change of its group (its members, the active
 * one, its own role) like any other.
 */
export function watchGroup() {
  if (unsubscribe) return;
  unsubscribe = live.onHostChange(readGroup);
}

export function stopWatchingGroup() {
  if (unsubscribe) unsubscribe();
  unsubscribe = null;
  if (banner) banner.hidden = true;
}
