// The station key of a seat: the key the host handed this screen when it was locked,
// shown in every hello so that no other device can take the station, and sent as a
// cookie of the seat's own with the media and live streams it names (docs/protocol.md).

const KEY_PREFIX = "tilewall.key.";
const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
// The host sends media (/media/...) and live streams (/live/...) only to a session or a
// locked station's key: the key goes with every such request as a cookie of this seat's
// own (img and video elements, and WebSockets, cannot send headers). It is set before
// the state that names them is applied.
const MEDIA_COOKIE_PREFIX = "tilewall_key_";
const KEYED_PATHS = ["/media", "/live"];

/**
 * The station key kept for `seat` (in localStorage) and its cookie.
 * @param {string} seat
 */
export function stationKeyOf(seat) {
  const keyName = KEY_PREFIX + seat;

  /** The kept key, or null. */
  function current() {
    try {
      const key = localStorage.getItem(keyName);
      return key && KEY_PATTERN.test(key) ? key : null;
    } catch {
      return null;
    }
  }

  /** Keep `key` (null: forget it) and send it with media from now on; whether the
   * key is kept now (what the host is told, so that it stops holding it).
   * @param {string | null} key */
  function keep(key) {
    cookie(key);
    try {
      if (key) localStorage.setItem(keyName, key);
      else localStorage.removeItem(keyName);
    } catch {
      return false;
    }
    return !!key && current() === key;
  }

  /** Send `key` (null: none) with media and live streams. */
  function cookie(key) {
    const name = MEDIA_COOKIE_PREFIX + String(seat).replace(/[^A-Za-z0-9_-]/g, "_");
    const secure = location.protocol === "https:" ? "; Secure" : "";
    const value = key && KEY_PATTERN.test(key) ? `${key}; max-age=31536000` : "; max-age=0";
    for (const path of KEYED_PATHS) document.cookie = `${name}=${value}; path=${path}; SameSite=Strict${secure}`;
  }

  /** The kiosk agent passes the key in the fragment (#key=...), which never goes over
   * the network: keep it, and take the fragment off the address. */
  function adoptFragment() {
    const given = new URLSearchParams(location.hash.slice(1)).get("key");
    if (given && KEY_PATTERN.test(given)) keep(given);
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  }

  return { current, keep, cookie, adoptFragment };
}
