// Play log: what played on each display, when, and what triggered it; filtered by a
// window (the host's local time) and a display, and downloadable as CSV.

import { get, BASE } from "../api.js";
import { h, fill, field, errorBox, showError, pageHeader, section } from "../ui.js";

const TRIGGERS = {
  api: "Interface",
  console: "Console",
  preset: "Preset",
  schedule: "Schedule",
  failover: "Host start",
};

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "playing";
  const s = Math.round(seconds);
  const pad = (x) => String(x).padStart(2, "0");
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

export function renderPlaylog(root) {
  const error = errorBox();
  const since = h("input", { name: "since", type: "datetime-local", step: 1 });
  const until = h("input", { name: "until", type: "datetime-local", step: 1 });
  const display = h("select", { name: "displayId" }, h("option", { value: "" }, "Every display"));
  const download = h("a", { class: "button", href: `${BASE}/playlog.csv`, download: "playlog.csv" }, "Download CSV");
  const count = h("p", { class: "muted", role: "status" });
  const table = h("div", { class: "table-wrap" });
  const form = h("form", { class: "row wrap filters" }, field("Since", since), field("Until", until), field("Display", display), h("button", { type: "submit", class: "primary" }, "Show"), download);

  function query() {
    /** @type {Record<string, string>} */
    const q = {};
    if (since.value) q.since = since.value;
    if (until.value) q.until = until.value;
    if (display.value) q.displayId = display.value;
    return q;
  }

  async function load() {
    const q = query();
    download.href = `${BASE}/playlog.csv${Object.keys(q).length ? `?${new URLSearchParams(q)}` : ""}`;
    try {
      const body = await get("/playlog", { query: q });
      const entries = (body.entries || []).slice().reverse();
      count.textContent = `${entries.length} play${entries.length === 1 ? "" : "s"}, newest first.`;
      const rows = entries.map((e) =>
        h(
          "tr",
          { dataset: { trigger: e.trigger } },
          h("td", { class: "num" }, String(e.displayId)),
          h("td", {}, e.sourceName || e.sourceId || "—"),
          h("td", {}, new Date(e.start).toLocaleString()),
          h("td", {}, e.end ? new Date(e.end).toLocaleString() : "—"),
          h("td", {}, duration(e.durationSeconds)),
          h("td", {}, TRIGGERS[e.trigger] || e.trigger),
          h("td", {}, e.cause || ""),
        ),
      );
      const head = ["Display", "Source", "Start", "End", "Length", "Trigger", "Cause"].map((c) => h("th", { scope: "col" }, c));
      fill(table, rows.length ? h("table", { "aria-label": "Plays" }, h("thead", {}, h("tr", {}, head)), h("tbody", {}, rows)) : h("p", { class: "muted" }, "No plays in this window."));
      showError(error, null);
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  get("/displays")
    .then((body) => {
      for (const d of body.displays || []) display.append(h("option", { value: String(d.displayId) }, `Display ${d.displayId}`));
    })
    .catch(() => {});
  root.append(pageHeader("Play log"), section("What played", h("p", { class: "muted" }, "Times in the window are the host's local time. A play starts when a display begins to play a source and ends when it stops, changes or is put to sleep."), form, error, count, table));
  load();
}
