// Who is logged in: the user, its role and scope (GET /api/session), read once per
// login; the page's body carries the role, which hides what the role cannot use.

import { get } from "./api.js";

/** @typedef {{userName: string, role: string, scope: object | null, scopedReads: boolean}} Me */

/** @type {Me | null} */
let me = null;

/** What each role may do beyond reading, as the host's permissions name it. */
const GRANTS = {
  viewer: [],
  operator: ["operate"],
  administrator: ["operate", "administer"],
};

/**
 * The logged-in user, asked of the host on first use after a login.
 * @returns {Promise<Me>}
 */
export async function whoami() {
  if (!me) {
    me = /** @type {Me} */ (await get("/session"));
    document.body.dataset.role = me.role;
  }
  return me;
}

/** Forget the user (logged out, or logging in as another). */
export function forget() {
  me = null;
  delete document.body.dataset.role;
}

/**
 * Whether the logged-in user's role has `permission` ("operate", "administer").
 * @param {string} permission
 */
export function may(permission) {
  return !!me && (GRANTS[me.role] || []).includes(permission);
}
