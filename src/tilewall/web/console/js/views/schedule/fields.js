// The event form's controls and their labelled fields, filled from the event edited (or
// the defaults of a new one) and the host's choices; which fields show follows the action,
// the end and the repetition chosen.

import { h, fill, field, checkbox, nextId } from "../../ui.js";

const RULES = [
  ["", "Once"],
  ["FREQ=DAILY", "Every day"],
  ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday (Mon–Fri)"],
  ["FREQ=WEEKLY", "Every week on the start's day"],
  ["FREQ=MONTHLY", "Every month on the start's date"],
  ["custom", "Custom rule (RFC 5545 RRULE)…"],
];
const KINDS = [
  ["switch", "Switch a display, zone or mirror group"],
  ["recallPreset", "Recall a preset"],
  ["broadcast", "Broadcast an alert"],
  ["power", "Power displays on or off"],
];
const LEVELS = [
  ["GREEN_LEVEL", "Information (green)"],
  ["ORANGE_LEVEL", "Warning (orange)"],
  ["RED_LEVEL", "Emergency (red)"],
];

const options = (pairs, selected) => pairs.map(([v, label]) => h("option", { value: v, selected: v === selected }, label));
const localValue = (text) => (text ? text.slice(0, 19) : "");

/**
 * The form's controls (`ctl`), each in its field (`f`), and the id of the time zones' list.
 * @param {any} event the event edited, or null
 * @param {{start?: string}} defaults of a new event
 * @param {any} c the host's choices (presets, sources, targets, time zones)
 */
export function eventControls(event, defaults, c) {
  const a = event ? event.action : { kind: "switch" };
  const zoneList = nextId("zones");
  const ctl = {
    name: h("input", { name: "name", required: true, maxlength: 200, value: event ? event.name : "" }),
    start: h("input", { name: "start", type: "datetime-local", step: 1, required: true, value: localValue(event ? event.start : defaults.start) }),
    timeZone: h("input", { name: "timeZone", list: zoneList, placeholder: `the host's (${c.hostZone})`, value: event && !event.followsHostTimeZone ? event.timeZone : "" }),
    ends: h("select", { name: "ends" }, options([["none", "No end: it stays until something else changes it"], ["end", "Ends at"], ["duration", "Lasts"]], event ? (event.end ? "end" : event.durationSeconds ? "duration" : "none") : "none")),
    end: h("input", { name: "end", type: "datetime-local", step: 1, value: localValue(event && event.end) }),
    duration: h("input", { name: "durationMinutes", type: "number", min: 1, step: "any", value: event && event.durationSeconds ? event.durationSeconds / 60 : 60, class: "num" }),
    repeat: h("select", { name: "repeat" }),
    rule: h("input", { name: "recurrence", placeholder: "FREQ=WEEKLY;BYDAY=SA,SU", value: event && event.recurrence ? event.recurrence : "" }),
    exdates: h("input", { name: "exdates", placeholder: "2026-12-25, 2026-12-31T09:00:00", value: event ? event.exdates.join(", ") : "" }),
    priority: h("input", { name: "priority", type: "number", step: 1, value: event ? event.priority : 0, class: "num" }),
    enabled: checkbox("Enabled", event ? event.enabled : true),
    kind: h("select", { name: "kind" }, options(KINDS, a.kind)),
    targetKind: h("select", { name: "targetKind" }, options([["display", "Display"], ["zone", "Zone"], ["mirror", "Mirror group"]], a.zoneId ? "zone" : a.mirrorgroupId ? "mirror" : "display")),
    target: h("select", { name: "target" }),
    source: h("select", { name: "source" }, h("option", { value: "" }, "Choose a source"), options(c.sources, a.sourceId)),
    preset: h("select", { name: "preset" }, h("option", { value: "" }, "Choose a preset"), options(c.presets, a.presetId)),
    message: h("textarea", { name: "message", rows: 2, maxlength: 2000 }, a.message || ""),
    level: h("select", { name: "alertLevel" }, options(LEVELS, a.alertLevel || "ORANGE_LEVEL")),
    seconds: h("input", { name: "alertSeconds", type: "number", min: 1, value: a.lengthMillisec ? a.lengthMillisec / 1000 : "", placeholder: "as long as the event", class: "num" }),
    power: h("select", { name: "powerState" }, options([["off", "Off (sleep)"], ["on", "On (wake)"]], a.state || "off")),
    powerDisplay: h("select", { name: "powerDisplay" }, h("option", { value: "" }, "Every display"), options(c.displays, a.displayId != null ? String(a.displayId) : "")),
  };
  const known = RULES.find(([v]) => v && v === (event && event.recurrence));
  fill(ctl.repeat, options(RULES, event && event.recurrence ? (known ? known[0] : "custom") : ""));
  const f = fieldsOf(ctl);
  const targets = () => {
    const list = { display: c.displays, zone: c.zones, mirror: c.mirrors }[ctl.targetKind.value];
    const chosen = a.zoneId || a.mirrorgroupId || (a.displayId != null ? String(a.displayId) : "");
    fill(ctl.target, h("option", { value: "" }, "Choose one"), options(list, chosen));
  };
  const sync = () => showChosen(ctl, f);
  ctl.targetKind.addEventListener("change", targets);
  for (const el of [ctl.kind, ctl.ends, ctl.repeat]) el.addEventListener("change", sync);
  targets();
  sync();
  return { ctl, f, zoneList };
}

function fieldsOf(ctl) {
  return {
    name: field("Name", ctl.name),
    start: field("Starts (local time)", ctl.start),
    timeZone: field("Time zone", ctl.timeZone, { hint: "Blank: the host's time zone, and it follows when the host's changes." }),
    ends: field("Ends", ctl.ends),
    end: field("Ends at (local time)", ctl.end),
    duration: field("Lasts (minutes)", ctl.duration),
    repeat: field("Repeats", ctl.repeat),
    rule: field("Rule", ctl.rule, { hint: "RFC 5545, e.g. FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T230000Z" }),
    exdates: field("Except on", ctl.exdates, { hint: "Dates (every occurrence that day) or local date-times, comma-separated." }),
    priority: field("Priority", ctl.priority, { hint: "Where events overlap on a target, the higher wins." }),
    kind: field("Action", ctl.kind),
    targetKind: field("Target", ctl.targetKind),
    target: field("Which", ctl.target),
    source: field("Source", ctl.source),
    preset: field("Preset", ctl.preset),
    message: field("Message", ctl.message, { wide: true }),
    level: field("Level", ctl.level),
    seconds: field("Alert shows for (seconds)", ctl.seconds),
    power: field("Power", ctl.power),
    powerDisplay: field("Displays", ctl.powerDisplay),
  };
}

/** Show the fields the chosen action, end and repetition use; hide the others. */
function showChosen(ctl, f) {
  const kind = ctl.kind.value;
  const show = (el, on) => (el.hidden = !on);
  show(f.end, ctl.ends.value === "end");
  show(f.duration, ctl.ends.value === "duration");
  show(f.rule, ctl.repeat.value === "custom");
  show(f.exdates, ctl.repeat.value !== "");
  for (const k of ["targetKind", "target", "source"]) show(f[k], kind === "switch");
  show(f.preset, kind === "recallPreset");
  for (const k of ["message", "level", "seconds"]) show(f[k], kind === "broadcast");
  for (const k of ["power", "powerDisplay"]) show(f[k], kind === "power");
}
