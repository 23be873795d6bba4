// Alerts and power: broadcast an alert, show display ids, DPMS sleep and wake.

import { get, put } from "../api.js";
import * as live from "../live.js";
import { h, fill, act, field, errorBox, showError, pageHeader, section, nextId } from "../ui.js";

const LEVELS = [
  ["GREEN_LEVEL", "Information (green)"],
  ["ORANGE_LEVEL", "Warning (orange)"],
  ["RED_LEVEL", "Emergency (red)"],
];

/** What `body` (GET /system/broadcast) says, `elapsedMs` after it was read. */
function describeStatus(body, elapsedMs = 0) {
  if (body === null || body === undefined || body === "") return "No status reported.";
  if (typeof body !== "object") return String(body);
  const on = body.displayed ?? body.isDisplayed ?? body.active ?? body.on ?? body.broadcasting;
  const remaining = body.remainingMillisec === undefined ? undefined : body.remainingMillisec - elapsedMs;
  // the alert ran out since: the host tells no change for that, the receivers end it by the clock too
  if (on && remaining !== undefined && remaining <= 0) return "No alert is showing";
  const parts = [];
  if (on !== undefined) parts.push(on ? "An alert is showing" : "No alert is showing");
  if (body.message) parts.push(`“${body.message}”`);
  if (body.alertLevel) parts.push(LEVELS.find((l) => l[0] === body.alertLevel)?.[1] || body.alertLevel);
  if (remaining !== undefined && on !== false) parts.push(`${Math.ceil(remaining / 1000)} s left`);
  return parts.length ? parts.join(" · ") : Object.entries(body).map(([k, v]) => `${k}: ${v}`).join(", ");
}

function displayOptions(select, allLabel) {
  const keep = select.value;
  const ids = live.live.displays.map((d) => d.displayId);
  const sig = ids.join(",");
  if (select.dataset.sig === sig) return;
  select.dataset.sig = sig;
  fill(select, h("option", { value: "" }, allLabel), ...ids.map((id) => h("option", { value: String(id) }, live.displayName(id))));
  select.value = keep;
}

export function renderAlerts(root) {
  const broadcast = broadcastSection();
  const ids = displayIdsSection();
  const power = powerSection();
  const unsubscribe = live.subscribe(() => {
    displayOptions(ids.select, "All displays");
    displayOptions(power.select, "All displays");
  });
  root.append(
    pageHeader("Alerts and power"),
    h("div", { class: "two-col" }, broadcast.section, h("div", {}, ids.section, power.section)),
  );
  return () => {
    broadcast.stop();
    unsubscribe();
  };
}

const ALERT_TICK_MS = 1000; // the time left of a showing alert counts down by the local clock

/** Broadcast an alert; its status read again when the host tells a change. */
function broadcastSection() {
  const bError = errorBox();
  const message = h("textarea", { name: "message", required: true, maxlength: 500, rows: 3 });
  const levelName = nextId("level");
  const levels = h(
    "fieldset",
    {},
    h("legend", {}, "Level"),
    LEVELS.map(([value, label], i) =>
      h("label", { class: "check" }, h("input", { type: "radio", name: levelName, value, checked: i === 0 }), h("span", { class: `level ${value}`, "aria-hidden": "true" }), label),
    ),
  );
  const seconds = h("input", { type: "number", name: "seconds", min: 1, max: 86400, value: 30, class: "num" });
  const startBtn = h("button", { type: "submit", class: "primary", dataset: { needs: "operate" } }, "Broadcast alert");
  const stopBtn = h("button", { type: "button", dataset: { needs: "operate" } }, "Stop alert");
  const bStatus = h("p", { class: "muted", role: "status" }, "");
  const bForm = h("form", {}, field("Message", message, { wide: true }), levels, field("Show for (seconds)", seconds), bError, h("div", { class: "row wrap" }, startBtn, stopBtn), bStatus);

  /** @type {{body: any, at: number} | null} the last answer and when it came */
  let read = null;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ticker;
  const paint = () => {
    if (!read) return;
    const elapsed = performance.now() - read.at;
    bStatus.textContent = describeStatus(read.body, elapsed);
    const showing = read.body && read.body.isDisplayed && read.body.remainingMillisec > elapsed;
    if (showing && ticker === undefined) ticker = setInterval(paint, ALERT_TICK_MS);
    if (!showing && ticker !== undefined) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
  async function broadcastStatus() {
    try {
      read = { body: await get("/system/broadcast"), at: performance.now() };
      paint();
    } catch (e) {
      bStatus.textContent = e.status === 401 ? "" : `Status unavailable: ${e.message}`;
    }
  }

  bForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = message.value.trim();
    const secs = Number(seconds.value);
    if (!text) return showError(bError, new Error("Write the message to show."));
    if (!(secs > 0)) return showError(bError, new Error("The length must be at least one second."));
    const level = bForm.querySelector(`input[name="${levelName}"]:checked`).value;
    act(startBtn, async () => { await put("/system/broadcast/start", { message: text, alertLevel: level, lengthMillisec: Math.round(secs * 1000) }); await broadcastStatus(); }, {
      errorBox: bError,
      success: "Alert broadcast to every display",
    });
  });
  stopBtn.addEventListener("click", () => act(stopBtn, async () => { await put("/system/broadcast/stop"); await broadcastStatus(); }, { errorBox: bError, success: "Alert stopped" }));

  broadcastStatus();
  const unfollow = live.onHostChange(broadcastStatus);
  const stop = () => {
    unfollow();
    clearInterval(ticker);
  };
  return { section: section("Broadcast an alert", h("p", { class: "muted" }, "Shown over what plays on every display, for the time you set."), bForm), stop };
}

/** Show or hide the displays' ids on their screens. */
function displayIdsSection() {
  const iError = errorBox();
  const select = h("select", { name: "displayId" });
  const idStart = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "Show display ids");
  const idStop = h("button", { type: "button", dataset: { needs: "operate" } }, "Hide display ids");
  const idQuery = () => (select.value ? { displayId: select.value } : undefined);
  idStart.addEventListener("click", () => act(idStart, () => put("/system/showDisplayIds/start", undefined, { query: idQuery() }), { errorBox: iError, success: "Display ids shown" }));
  idStop.addEventListener("click", () => act(idStop, () => put("/system/showDisplayIds/stop", undefined, { query: idQuery() }), { errorBox: iError, success: "Display ids hidden" }));
  return {
    select,
    section: section("Display ids", h("p", { class: "muted" }, "Shows each display's id on its screen, to tell them apart when setting up."), field("Which displays", select), iError, h("div", { class: "row wrap" }, idStart, idStop)),
  };
}

/** Put monitors to sleep or wake them. */
function powerSection() {
  const pError = errorBox();
  const select = h("select", { name: "dpmsDisplay" });
  const sleepBtn = h("button", { type: "button", dataset: { needs: "administer" } }, "☾ Sleep (DPMS off)");
  const wakeBtn = h("button", { type: "button", class: "primary", dataset: { needs: "administer" } }, "☀ Wake (DPMS on)");
  const body = () => (select.value ? { displayID: select.value } : undefined);
  const who = () => (select.value ? live.displayName(Number(select.value)) : "every display");
  sleepBtn.addEventListener("click", () => act(sleepBtn, () => put("/system/dpms/forceoff", body()), { errorBox: pError, success: () => `Sent ${who()} to sleep` }));
  wakeBtn.addEventListener("click", () => act(wakeBtn, () => put("/system/dpms/forceon", body()), { errorBox: pError, success: () => `Woke ${who()}` }));
  return {
    select,
    section: section("Power", h("p", { class: "muted" }, "Puts monitors to sleep or wakes them (DPMS). Playback goes on."), field("Which displays", select), pError, h("div", { class: "row wrap" }, sleepBtn, wakeBtn)),
  };
}
