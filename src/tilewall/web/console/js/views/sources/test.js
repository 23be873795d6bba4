// The "Test" of a live source in the source editor: the host's status of the stream
// (GET /api/sources/{id}/status: state, the reason in words, codec, size, viewers) and
// a small live picture drawn by the receiver's own renderer, as a display would show it.

import { get, seg } from "../../api.js";
import { hostNow } from "../../live.js";
import { h, fill, errorText } from "../../ui.js";
import { render as renderScreen } from "/receiver/screen.js";

const LIVE_TYPES = new Set(["Network Streamer", "RTSP Streamer", "Desktop Streamer (VNC)", "Capture", "Screen share"]);
const TICK_MS = 100;

/** Whether a source of `sourceType` may be a live stream the host relays. */
export function testable(sourceType) {
  return LIVE_TYPES.has(sourceType);
}

/** One line of the status answer: "live · avc1.64001F 1920×1080 30 fps · 2 viewers". */
function describeStatus(s) {
  const parts = [s.state || "unknown"];
  const format = [s.codec, s.width && s.height ? `${s.width}×${s.height}` : null, s.fps ? `${Math.round(s.fps)} fps` : null].filter(Boolean).join(" ");
  if (format) parts.push(format);
  if (Number.isFinite(s.viewers)) parts.push(`${s.viewers} viewer${s.viewers === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

/** The live source `source` (saved) drawn as a display on its own would draw it. */
function preview(box, source) {
  const description = {
    role: "standalone",
    hostName: "",
    resolution: { width: 1280, height: 720 },
    content: {
      welcome: false,
      timeline: { state: "playing", anchorMs: hostNow(), anchorPositionMs: 0, repeat: true, startMs: hostNow() },
      source: { type: "live", sourceId: source.sourceId, name: source.sourceName, url: `/live/${encodeURIComponent(source.sourceId)}`, muted: true },
    },
    overlays: { alert: null, displayId: null, dpmsOff: false },
  };
  const picture = renderScreen(box, description, hostNow, { muted: true, preview: true });
  const timer = setInterval(() => {
    if (!box.isConnected) stop();
    else picture.tick();
  }, TICK_MS);
  function stop() {
    clearInterval(timer);
    picture.destroy();
  }
  return stop;
}

/** The Test button of the saved source `source`, with its result under it. */
export function sourceTest(source) {
  const result = h("div", { class: "source-test-result small", role: "status", "aria-live": "polite" });
  const box = h("div", { class: "source-test-picture", hidden: true, "aria-label": "Live picture" });
  const button = h("button", { type: "button", "aria-label": `Test ${source.sourceName}` }, "Test");
  let stopPreview = null;

  async function test() {
    button.disabled = true;
    fill(result, h("span", { class: "muted" }, "Asking the host…"));
    try {
      const status = await get(`/sources/${seg(source.sourceId)}/status`);
      const line = h("strong", { class: `state-${status.state}` }, describeStatus(status));
      fill(result, line, status.message ? h("div", {}, status.message) : null);
      result.dataset.state = status.state || "";
      if (stopPreview) stopPreview();
      box.hidden = false;
      stopPreview = preview(box, source);
    } catch (e) {
      result.dataset.state = "error";
      fill(result, h("span", { class: "field-error" }, errorText(e)));
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener("click", test);
  return { button, el: h("div", { class: "source-test" }, result, box) };
}
