// Schedule: a week of occurrences per target (in the host's time zone), the events with
// what they do and how they last ran, and the form that creates and edits them.

import { get } from "../../api.js";
import * as live from "../../live.js";
import { h, errorBox, showError, pageHeader, section } from "../../ui.js";
import { addDays, dateIn, monday } from "./dates.js";
import { openEventForm } from "./form.js";
import { drawList } from "./list.js";
import { drawWeek } from "./week.js";

export function renderSchedule(root) {
  const error = errorBox();
  const week = h("div", { class: "table-wrap week" });
  const weekTitle = h("h2", { id: "week-title" }, "This week");
  const list = h("div", { class: "table-wrap" });
  let zone = "UTC";
  let first = null; // Monday of the week shown, in the host's zone

  async function load() {
    try {
      if (first === null) {
        const tz = await get("/system/timezone");
        zone = (tz.currentTimeZone && tz.currentTimeZone.timezone) || "UTC";
        first = monday(dateIn(zone, new Date()));
      }
      const body = await get("/schedule", { query: { from: `${first}T00:00:00`, to: `${addDays(first, 7)}T00:00:00` } });
      const events = body.events || [];
      const open = (event) => openEventForm(event, load);
      drawWeek(week, weekTitle, { first, zone, events, occurrences: body.occurrences || [], open });
      drawList(list, { events, zone, open, error, reload: load });
      showError(error, null);
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  const move = (n) => () => {
    first = addDays(first, 7 * n);
    load();
  };
  const newEvent = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "New event");
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
