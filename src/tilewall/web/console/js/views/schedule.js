// Schedule: a week of occurrences per target (in the host's time zone), the events with
// what they do and how they last ran, and the form that creates and edits them.

import { get, put, del, seg } from "../api.js";
import { h, fill, act, errorBox, showError, confirmDialog, pageHeader, section } from "../ui.js";
import * as live from "../live.js";
import { openEventForm } from "./eventform.js";

const DAY_MS = 24 * 3600 * 1000;
const RULE_TEXT = {
  "FREQ=DAILY": "every day",
  "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR": "every weekday",
  "FREQ=WEEKLY": "every week",
  "FREQ=MONTHLY": "every month",
};

/** "YYYY-MM-DD" of an instant in `zone`. */
function dateIn(zone, instant) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}
function timeIn(zone, instant) {
  return new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" }).format(instant);
}
function addDays(date, n) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d) + n * DAY_MS).toISOString().slice(0, 10);
}
function monday(date) {
  const [y, m, d] = date.split("-").map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}
function dayLabel(date) {
  const [y, m, d] = date.split("-").map(Number);
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}

const KIND_LABEL = { preset: "Preset", zone: "Zone", mirrorgroup: "Mirror group" };

function targetLabel(target) {
  const kind = KIND_LABEL[target.kind];
  return kind ? `${kind} ${target.name || "(deleted)"}` : target.name || target.kind;
}

function when(event) {
  const rule = event.recurrence ? RULE_TEXT[event.recurrence] || event.recurrence : "once";
  const length = event.end ? ` until ${event.end.replace("T", " ")}` : event.durationSeconds ? ` for ${Math.round(event.durationSeconds / 60)} min` : "";
  const zone = event.followsHostTimeZone ? "" : ` (${event.timeZone})`;
  return `${event.start.replace("T", " ")}${zone}${length}, ${rule}`;
}

function what(event) {
  const a = event.action;
  if (a.kind === "recallPreset") return `Recall preset ${a.presetName ?? "(deleted)"}`;
  if (a.kind === "broadcast") return `Broadcast “${a.message}”`;
  if (a.kind === "power") return `Power ${a.state} ${a.displayId != null ? `display ${a.displayId}` : "every display"}`;
  const target = a.zoneId ? `zone ${a.zoneName ?? "(deleted)"}` : a.mirrorgroupId ? `mirror group ${a.mirrorgroupName ?? "(deleted)"}` : `display ${a.displayId}`;
  return `Switch ${target} to ${a.sourceName ?? "(deleted source)"}`;
}

/** The body PUT /schedule/{id} takes, from the event as the host answers it. */
export function toBody(event, changes = {}) {
  const a = { ...event.action };
  for (const k of ["presetName", "sourceName", "zoneName", "mirrorgroupName"]) delete a[k];
  const body = { name: event.name, start: event.start, priority: event.priority, enabled: event.enabled, exdates: event.exdates, action: a };
  if (!event.followsHostTimeZone) body.timeZone = event.timeZone;
  if (event.end) body.end = event.end;
  if (event.durationSeconds) body.durationSeconds = event.durationSeconds;
  if (event.recurrence) body.recurrence = event.recurrence;
  return { ...body, ...changes };
}

export function renderSchedule(root) {
  const error = errorBox();
  const week = h("div", { class: "table-wrap week" });
  const weekTitle = h("h2", { id: "week-title" }, "This week");
  const list = h("div", { class: "table-wrap" });
  let zone = "UTC";
  let first = null; // Monday of the week shown, in the host's zone
  let events = [];

  async function load() {
    try {
      if (first === null) {
        const tz = await get("/system/timezone");
        zone = (tz.currentTimeZone && tz.currentTimeZone.timezone) || "UTC";
        first = monday(dateIn(zone, new Date()));
      }
      const body = await get("/schedule", { query: { from: `${first}T00:00:00`, to: `${addDays(first, 7)}T00:00:00` } });
      events = body.events || [];
      drawWeek(body.occurrences || []);
      drawList();
      showError(error, null);
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  function drawWeek(occurrences) {
    const days = [...Array(7).keys()].map((i) => addDays(first, i));
    weekTitle.textContent = `Week of ${dayLabel(first)} (${zone})`;
    const rows = new Map();
    for (const o of occurrences) {
      const key = `${o.target.kind}:${o.target.id || ""}`;
      if (!rows.has(key)) rows.set(key, { label: targetLabel(o.target), cells: new Map() });
      const start = new Date(o.start);
      const day = days.includes(dateIn(zone, start)) ? dateIn(zone, start) : days[0]; // running since last week
      const cell = rows.get(key).cells;
      if (!cell.has(day)) cell.set(day, []);
      cell.get(day).push(o);
    }
    if (!rows.size) {
      fill(week, h("p", { class: "muted" }, "Nothing is scheduled this week."));
      return;
    }
    const byId = new Map(events.map((e) => [e.id, e]));
    const head = h("tr", {}, h("th", { scope: "col" }, "Target"), days.map((d) => h("th", { scope: "col", class: d === dateIn(zone, new Date()) ? "today" : null }, dayLabel(d))));
    const body = [...rows.entries()]
      .sort((x, y) => x[1].label.localeCompare(y[1].label))
      .map(([key, row]) =>
        h(
          "tr",
          { dataset: { target: key } },
          h("th", { scope: "row" }, row.label),
          days.map((d) =>
            h(
              "td",
              {},
              (row.cells.get(d) || []).map((o) => {
                const from = timeIn(zone, new Date(o.start));
                const to = o.end ? `–${timeIn(zone, new Date(o.end))}` : "";
                return h(
                  "button",
                  { type: "button", class: `occurrence ${o.action}`, title: `${o.name}: ${o.localStart} ${o.timeZone}, priority ${o.priority}`, onclick: () => byId.has(o.eventId) && openEventForm(byId.get(o.eventId), load) },
                  h("b", {}, `${from}${to}`),
                  " ",
                  o.name,
                );
              }),
            ),
          ),
        ),
      );
    fill(week, h("table", { "aria-labelledby": "week-title" }, h("thead", {}, head), h("tbody", {}, body)));
  }

  function drawList() {
    if (!events.length) {
      fill(list, h("p", { class: "muted" }, "No scheduled events yet."));
      return;
    }
    const rows = events.map((e) => {
      const edit = h("button", { type: "button", "aria-label": `Edit ${e.name}` }, "Edit");
      const toggle = h("button", { type: "button", "aria-label": `${e.enabled ? "Disable" : "Enable"} ${e.name}` }, e.enabled ? "Disable" : "Enable");
      const remove = h("button", { type: "button", class: "danger", "aria-label": `Delete ${e.name}` }, "Delete");
      edit.addEventListener("click", () => openEventForm(e, load));
      toggle.addEventListener("click", () => act(toggle, async () => { await put(`/schedule/${seg(e.id)}`, toBody(e, { enabled: !e.enabled })); await load(); }, { errorBox: error }));
      remove.addEventListener("click", async () => {
        if (!(await confirmDialog({ title: `Delete “${e.name}”?`, message: "A running occurrence ends, and what played before comes back.", confirm: "Delete", danger: true }))) return;
        act(remove, async () => { await del(`/schedule/${seg(e.id)}`); await load(); }, { errorBox: error, success: `Deleted ${e.name}` });
      });
      const last = e.lastRun ? `${e.lastRun.result}${e.lastRun.message ? `: ${e.lastRun.message}` : ""}` : "";
      return h(
        "tr",
        { dataset: { eventId: e.id }, class: e.enabled ? null : "disabled" },
        h("th", { scope: "row" }, e.name, e.running ? h("span", { class: "badge playing" }, "running") : null),
        h("td", {}, when(e)),
        h("td", {}, what(e)),
        h("td", { class: "num" }, String(e.priority)),
        h("td", {}, e.next ? new Date(e.next).toLocaleString(undefined, { timeZone: zone }) : "—"),
        h("td", {}, last),
        h("td", {}, h("span", { class: "row" }, edit, toggle, remove)),
      );
    });
    const head = ["Name", "When", "Does", "Priority", "Next", "Last run", ""].map((c) => h("th", { scope: "col" }, c));
    fill(list, h("table", { "aria-label": "Scheduled events" }, h("thead", {}, h("tr", {}, head)), h("tbody", {}, rows)));
  }

  const move = (n) => () => {
    first = addDays(first, 7 * n);
    load();
  };
  const newEvent = h("button", { type: "button", class: "primary" }, "New event");
  newEvent.addEventListener("click", () => openEventForm(null, load, { start: `${dateIn(zone, new Date(Date.now() + 3600e3))}T09:00:00` }));
  const nav = h(
    "div",
    { class: "row" },
    h("button", { type: "button", onclick: move(-1), "aria-label": "Previous week" }, "◀"),
    h("button", { type: "button", onclick: () => { first = monday(dateIn(zone, new Date())); load(); } }, "This week"),
    h("button", { type: "button", onclick: move(1), "aria-label": "Next week" }, "▶"),
  );
  root.append(
    pageHeader("Schedule", newEvent),
    error,
    h("section", { class: "card", "aria-labelledby": "week-title" }, h("div", { class: "row between" }, weekTitle, nav), week),
    section("Events", list),
  );
  load();
  // an occurrence that starts or ends, and what it did, are changes the host tells
  const unfollow = live.onHostChange(load);
  return () => {
    unfollow();
    for (const dialog of document.querySelectorAll("dialog.event-dialog")) if (dialog instanceof HTMLDialogElement) dialog.close();
  };
}
