// What the receiver page shows over the picture: the alert, the display's id, the code a
// guest shares a screen here with, the DPMS black and notices of its own.

const LEVELS = { GREEN_LEVEL: "green", ORANGE_LEVEL: "orange", RED_LEVEL: "red" };

/**
 * The page's element with this id (index.html has every one asked for).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the receiver page has no #${id}`);
  return el;
}

/**
 * The overlays of a description, on the host's clock.
 * @param {() => number} hostNow
 */
export function overlays(hostNow) {
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

  return {
    /** Show the overlays `o` of a description. */
    apply(o) {
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
    },
    /** Take down what ran out by `now` (host ms) of the overlays `o` shown. */
    tick(o, now) {
      if (o && o.alert && !$("alert").hidden && o.alert.untilMs <= now) {
        $("alert").hidden = true;
      }
      if (o && o.shareCode && !$("share-code").hidden) applyShareCode(o.shareCode);
    },
  };
}

/** A message over the picture (null: none). */
export function notice(text) {
  const el = $("notice");
  el.textContent = text || "";
  el.hidden = !text;
}
