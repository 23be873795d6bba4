// The form that creates or edits a scheduled event. It checks what it can as the host
// does (a name, a local start, an end after the start, a target and a source), and shows
// the host's own 400 message beside the field it names ("timeZone: unknown time zone").

import { get, post, put, seg } from "../api.js";
import { h, fill, field, checkbox, errorBox, showError, modal, nextId, toast } from "../ui.js";

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

async function choices() {
  const [presets, sources, zones, mirrors, displays, tz] = await Promise.all([
    get("/presets"),
    get("/sources"),
    get("/zones"),
    get("/mirrorgroups"),
    get("/displays"),
    get("/system/timezone"),
  ]);
  return {
    presets: (presets.presets || []).map((p) => [p.id, p.name]),
    sources: (sources.sources || []).map((s) => [s.sourceId, s.sourceName]),
    zones: (zones.zones || []).map((z) => [z.zoneId, z.zoneName]),
    mirrors: (mirrors.mirrorgroups || []).map((g) => [g.id, g.name]),
    displays: (displays.displays || []).map((d) => [String(d.displayId), `Display ${d.displayId}`]),
    hostZone: (tz.currentTimeZone && tz.currentTimeZone.timezone) || "",
    zonesAvailable: tz.availableTimeZones || [],
  };
}

/** Open the form; `event` is null for a new one. Calls onSaved(event) after a save. */
export async function openEventForm(event, onSaved, defaults = {}) {
  let c;
  try {
    c = await choices();
  } catch (e) {
    toast(`The form needs the host's presets, sources and targets: ${e.message}`, "error");
    return;
  }
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
  const f = {
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

  function targets() {
    const list = { display: c.displays, zone: c.zones, mirror: c.mirrors }[ctl.targetKind.value];
    const chosen = a.zoneId || a.mirrorgroupId || (a.displayId != null ? String(a.displayId) : "");
    fill(ctl.target, h("option", { value: "" }, "Choose one"), options(list, chosen));
  }
  function sync() {
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
  ctl.targetKind.addEventListener("change", targets);
  for (const el of [ctl.kind, ctl.ends, ctl.repeat]) el.addEventListener("change", sync);
  targets();
  sync();

  function body() {
    const kind = ctl.kind.value;
    const action = { kind };
    if (kind === "switch") {
      const key = { display: "displayId", zone: "zoneId", mirror: "mirrorgroupId" }[ctl.targetKind.value];
      if (ctl.target.value) action[key] = key === "displayId" ? Number(ctl.target.value) : ctl.target.value;
      if (ctl.source.value) action.sourceId = ctl.source.value;
    } else if (kind === "recallPreset") {
      if (ctl.preset.value) action.presetId = ctl.preset.value;
    } else if (kind === "broadcast") {
      Object.assign(action, { message: ctl.message.value.trim(), alertLevel: ctl.level.value });
      if (ctl.seconds.value) action.lengthMillisec = Math.round(Number(ctl.seconds.value) * 1000);
    } else {
      action.state = ctl.power.value;
      if (ctl.powerDisplay.value) action.displayId = Number(ctl.powerDisplay.value);
    }
    const out = { name: ctl.name.value.trim(), start: ctl.start.value, priority: Number(ctl.priority.value || 0), enabled: ctl.enabled.input.checked, action };
    if (ctl.timeZone.value.trim()) out.timeZone = ctl.timeZone.value.trim();
    if (ctl.ends.value === "end") out.end = ctl.end.value;
    if (ctl.ends.value === "duration") out.durationSeconds = Math.round(Number(ctl.duration.value) * 60);
    const rule = ctl.repeat.value === "custom" ? ctl.rule.value.trim() : ctl.repeat.value;
    if (rule) out.recurrence = rule;
    if (rule) out.exdates = ctl.exdates.value.split(/[,\s]+/).filter(Boolean);
    return out;
  }

  // what the host would refuse, checked here first; the same words as the host's
  function check(b) {
    const problems = [];
    if (!b.name) problems.push(["name", "name: must not be empty"]);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(b.start)) problems.push(["start", "start: give the local date and time"]);
    if (b.end !== undefined && !(b.end > b.start)) problems.push(["end", "end: must be after start"]);
    if (b.durationSeconds !== undefined && !(b.durationSeconds >= 1)) problems.push(["duration", "durationSeconds: at least a second"]);
    if (b.timeZone && c.zonesAvailable.length && !c.zonesAvailable.includes(b.timeZone)) problems.push(["timeZone", `timeZone: unknown time zone '${b.timeZone}'`]);
    const act = b.action;
    if (act.kind === "switch" && act.displayId === undefined && !act.zoneId && !act.mirrorgroupId) problems.push(["target", "action: choose the display, zone or mirror group"]);
    if (act.kind === "switch" && !act.sourceId) problems.push(["source", "action.sourceId: choose a source"]);
    if (act.kind === "recallPreset" && !act.presetId) problems.push(["preset", "action.presetId: choose a preset"]);
    if (act.kind === "broadcast" && !act.message) problems.push(["message", "action.message: must not be empty"]);
    if (act.kind === "broadcast" && !act.lengthMillisec && !b.end && !b.durationSeconds) problems.push(["seconds", "action.lengthMillisec: required when the event has no end"]);
    return problems;
  }

  // the form field a host message names
  function fieldOf(message) {
    const at = /`\$\.([\w.]+)`/.exec(message);
    const name = at ? at[1] : message.split(":")[0].trim();
    const map = { name: "name", start: "start", timeZone: "timeZone", end: "end", durationSeconds: "duration", recurrence: "rule", priority: "priority", enabled: "name", "action.kind": "kind", "action.sourceName": "source", "action.sourceId": "source", "action.sourceName or action.sourceId": "source", "action.presetName": "preset", "action.presetId": "preset", "action.presetName or action.presetId": "preset", "action.displayId": ctl.kind.value === "power" ? "powerDisplay" : "target", "action.zoneName": "target", "action.zoneId": "target", "action.mirrorgroupName": "target", "action.mirrorgroupId": "target", action: "target", "action.message": "message", "action.alertLevel": "level", "action.lengthMillisec": "seconds", "action.state": "power" };
    if (name.startsWith("exdates")) return "exdates";
    if (name === "recurrence" && ctl.repeat.value !== "custom") return "repeat";
    return map[name] || null;
  }

  const error = errorBox();
  const save = h("button", { type: "submit", class: "primary" }, event ? "Save changes" : "Create event");
  const form = h(
    "form",
    { class: "event-form", novalidate: true },
    h("datalist", { id: zoneList }, c.zonesAvailable.map((z) => h("option", { value: z }))),
    h("div", { class: "grid-form" }, f.name, f.start, f.timeZone, f.ends, f.end, f.duration, f.repeat, f.rule, f.exdates, f.priority),
    ctl.enabled,
    h("div", { class: "grid-form" }, f.kind, f.targetKind, f.target, f.source, f.preset, f.level, f.seconds, f.power, f.powerDisplay),
    f.message,
    error,
    h("div", { class: "row end" }, save),
  );
  const { dialog, close } = modal(event ? `Edit “${event.name}”` : "New scheduled event", form, { wide: true });
  dialog.classList.add("event-dialog");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    for (const one of Object.values(f)) one.setError(null);
    showError(error, null);
    const b = body();
    const problems = check(b);
    if (problems.length) {
      for (const [key, text] of problems) f[key].setError(text);
      f[problems[0][0]].querySelector("input, select, textarea").focus();
      return;
    }
    save.disabled = true;
    try {
      const saved = event ? await put(`/schedule/${seg(event.id)}`, b) : await post("/schedule", b);
      close();
      toast(event ? `Saved ${saved.name}` : `Created ${saved.name}`, "ok");
      onSaved(saved);
    } catch (err) {
      const key = err.status === 400 ? fieldOf(err.message) : null;
      if (key && f[key] && !f[key].hidden) {
        f[key].setError(err.message);
        f[key].querySelector("input, select, textarea").focus();
      } else showError(error, err);
    } finally {
      save.disabled = false;
    }
  });
  ctl.name.focus();
}
