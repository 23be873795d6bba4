// The schedule's events: what each does and when, its next run and its last.

import { put, del, seg } from "../../api.js";
import { h, fill, act, confirmDialog } from "../../ui.js";
import { toBody } from "./request.js";

const RULE_TEXT = {
  "FREQ=DAILY": "every day",
  "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR": "every weekday",
  "FREQ=WEEKLY": "every week",
  "FREQ=MONTHLY": "every month",
};

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

/**
 * Draw the events into `list`, each with what it does, when it runs next and how it last
 * ran, and its buttons (edit, enable or disable, delete).
 * @param {HTMLElement} list
 * @param {{events: any[], zone: string, open: (event: any) => void, error: HTMLElement, reload: () => Promise<void>}} shown
 */
export function drawList(list, { events, zone, open, error, reload }) {
  if (!events.length) {
    fill(list, h("p", { class: "muted" }, "No scheduled events yet."));
    return;
  }
  const rows = events.map((e) => {
    const edit = h("button", { type: "button", "aria-label": `Edit ${e.name}`, dataset: { needs: "operate" } }, "Edit");
    const toggle = h("button", { type: "button", "aria-label": `${e.enabled ? "Disable" : "Enable"} ${e.name}`, dataset: { needs: "operate" } }, e.enabled ? "Disable" : "Enable");
    const remove = h("button", { type: "button", class: "danger", "aria-label": `Delete ${e.name}`, dataset: { needs: "operate" } }, "Delete");
    edit.addEventListener("click", () => open(e));
    toggle.addEventListener("click", () => act(toggle, async () => { await put(`/schedule/${seg(e.id)}`, toBody(e, { enabled: !e.enabled })); await reload(); }, { errorBox: error }));
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `Delete “${e.name}”?`, message: "A running occurrence ends, and what played before comes back.", confirm: "Delete", danger: true }))) return;
      act(remove, async () => { await del(`/schedule/${seg(e.id)}`); await reload(); }, { errorBox: error, success: `Deleted ${e.name}` });
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
