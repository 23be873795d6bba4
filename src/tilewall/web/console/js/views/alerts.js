// Alerts and power: broadcast an alert, show display ids, DPMS sleep and wake.

import { get, put } from "../api.js";
import * as live from "../live.js";
import { h, fill, act, field, errorBox, showError, pageHeader, section, nextId } from "../ui.js";

const LEVELS = [
  ["GREEN_LEVEL", "Information (green)"],
  ["ORANGE_LEVEL", "Warning (orange)"],
  ["RED_LEVEL", "Emergency (red)"],
];

function describeStatus(body) {
  if (body === null || body === undefined || body === "") return "No status reported.";
  if (typeof body !== "object") return String(body);
  const on = body.displayed ?? body.isDisplayed ?? body.active ?? body.on ?? body.broadcasting;
  const parts = [];
  if (on !== undefined) parts.push(on ? "An alert is showing" : "No alert is showing");
  if (body.message) parts.push(`“${body.message}”`);
  if (body.alertLevel) parts.push(LEVELS.find((l) => l[0] === body.alertLevel)?.[1] || body.alertLevel);
  if (body.remainingMillisec !== undefined) parts.push(`${Math.ceil(body.remainingMillisec / 1000)} s left`);
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
  // broadcast
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
  const startBtn = h("button", { type: "submit", class: "primary" }, "Broadcast alert");
  const stopBtn = h("button", { type: "button" }, "Stop alert");
  const bStatus = h("p", { class: "muted", role: "status" }, "");
  const bForm = h("form", {}, field("Message", message, { wide: true }), levels, field("Show for (seconds)", seconds), bError, h("div", { class: "row wrap" }, startBtn, stopBtn), bStatus);

  async function broadcastStatus() {
    try {
      bStatus.textContent = describeStatus(await get("/system/broadcast"));
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

  // display ids
  const iError = errorBox();
  const idSelect = h("select", { name: "displayId" });
  const idStart = h("button", { type: "button", class: "primary" }, "Show display ids");
  const idStop = h("button", { type: "button" }, "Hide display ids");
  const idQuery = () => (idSelect.value ? { displayId: idSelect.value } : undefined);
  idStart.addEventListener("click", () => act(idStart, () => put("/system/showDisplayIds/start", undefined, { query: idQuery() }), { errorBox: iError, success: "Display ids shown" }));
  idStop.addEventListener("click", () => act(idStop, () => put("/system/showDisplayIds/stop", undefined, { query: idQuery() }), { errorBox: iError, success: "Display ids hidden" }));

  // power
  const pError = errorBox();
  const pSelect = h("select", { name: "dpmsDisplay" });
  const sleepBtn = h("button", { type: "button" }, "☾ Sleep (DPMS off)");
  const wakeBtn = h("button", { type: "button", class: "primary" }, "☀ Wake (DPMS on)");
  const body = () => (pSelect.value ? { displayID: pSelect.value } : undefined);
  const who = () => (pSelect.value ? live.displayName(Number(pSelect.value)) : "every display");
  sleepBtn.addEventListener("click", () => act(sleepBtn, () => put("/system/dpms/forceoff", body()), { errorBox: pError, success: () => `Sent ${who()} to sleep` }));
  wakeBtn.addEventListener("click", () => act(wakeBtn, () => put("/system/dpms/forceon", body()), { errorBox: pError, success: () => `Woke ${who()}` }));

  const unsubscribe = live.subscribe(() => {
    displayOptions(idSelect, "All displays");
    displayOptions(pSelect, "All displays");
  });

  root.append(
    pageHeader("Alerts and power"),
    h(
      "div",
      { class: "two-col" },
      section("Broadcast an alert", h("p", { class: "muted" }, "Shown over what plays on every display, for the time you set."), bForm),
      h(
        "div",
        {},
        section("Display ids", h("p", { class: "muted" }, "Shows each display's id on its screen, to tell them apart when setting up."), field("Which displays", idSelect), iError, h("div", { class: "row wrap" }, idStart, idStop)),
        section("Power", h("p", { class: "muted" }, "Puts monitors to sleep or wakes them (DPMS). Playback goes on."), field("Which displays", pSelect), pError, h("div", { class: "row wrap" }, sleepBtn, wakeBtn)),
      ),
    ),
  );
  broadcastStatus();
  const timer = setInterval(broadcastStatus, 3000);
  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}

