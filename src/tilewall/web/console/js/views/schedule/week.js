// The schedule's week: the occurrences of each target, day by day, in the host's zone.

import { h, fill } from "../../ui.js";
import { dateIn, timeIn, addDays, dayLabel } from "./dates.js";

const KIND_LABEL = { preset: "Preset", zone: "Zone", mirrorgroup: "Mirror group" };

function targetLabel(target) {
  const kind = KIND_LABEL[target.kind];
  return kind ? `${kind} ${target.name || "(deleted)"}` : target.name || target.kind;
}

/**
 * Draw the week from `first` (a Monday) into `week`: a row per target, a column per day,
 * a button per occurrence that opens its event.
 * @param {HTMLElement} week
 * @param {HTMLElement} weekTitle
 * @param {{first: string, zone: string, events: any[], occurrences: any[], open: (event: any) => void}} shown
 */
export function drawWeek(week, weekTitle, { first, zone, events, occurrences, open }) {
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
                { type: "button", class: `occurrence ${o.action}`, title: `${o.name}: ${o.localStart} ${o.timeZone}, priority ${o.priority}`, onclick: () => byId.has(o.eventId) && open(byId.get(o.eventId)) },
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
