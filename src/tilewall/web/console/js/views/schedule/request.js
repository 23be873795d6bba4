// An event as the host takes it: the request body made from the form's controls (or from
// the event as the host answers it), what the host would refuse of it (checked before
// sending), and which field a refusal names.

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

/** The body POST and PUT /schedule take, from the form's controls. */
export function requestBody(ctl) {
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

/**
 * What the host would refuse of `b`, checked here first, in the host's words: [field, message] pairs.
 * @param {any} b
 * @param {string[]} zonesAvailable
 */
export function refusals(b, zonesAvailable) {
  const problems = [];
  if (!b.name) problems.push(["name", "name: must not be empty"]);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(b.start)) problems.push(["start", "start: give the local date and time"]);
  if (b.end !== undefined && !(b.end > b.start)) problems.push(["end", "end: must be after start"]);
  if (b.durationSeconds !== undefined && !(b.durationSeconds >= 1)) problems.push(["duration", "durationSeconds: at least a second"]);
  if (b.timeZone && zonesAvailable.length && !zonesAvailable.includes(b.timeZone)) problems.push(["timeZone", `timeZone: unknown time zone '${b.timeZone}'`]);
  const act = b.action;
  if (act.kind === "switch" && act.displayId === undefined && !act.zoneId && !act.mirrorgroupId) problems.push(["target", "action: choose the display, zone or mirror group"]);
  if (act.kind === "switch" && !act.sourceId) problems.push(["source", "action.sourceId: choose a source"]);
  if (act.kind === "recallPreset" && !act.presetId) problems.push(["preset", "action.presetId: choose a preset"]);
  if (act.kind === "broadcast" && !act.message) problems.push(["message", "action.message: must not be empty"]);
  if (act.kind === "broadcast" && !act.lengthMillisec && !b.end && !b.durationSeconds) problems.push(["seconds", "action.lengthMillisec: required when the event has no end"]);
  return problems;
}

/** The form field a host's message names ("timeZone: ...", "`$.action.sourceId` ..."). */
export function fieldOf(message, ctl) {
  const at = /`\$\.([\w.]+)`/.exec(message);
  const name = at ? at[1] : message.split(":")[0].trim();
  const map = { name: "name", start: "start", timeZone: "timeZone", end: "end", durationSeconds: "duration", recurrence: "rule", priority: "priority", enabled: "name", "action.kind": "kind", "action.sourceName": "source", "action.sourceId": "source", "action.sourceName or action.sourceId": "source", "action.presetName": "preset", "action.presetId": "preset", "action.presetName or action.presetId": "preset", "action.displayId": ctl.kind.value === "power" ? "powerDisplay" : "target", "action.zoneName": "target", "action.zoneId": "target", "action.mirrorgroupName": "target", "action.mirrorgroupId": "target", action: "target", "action.message": "message", "action.alertLevel": "level", "action.lengthMillisec": "seconds", "action.state": "power" };
  if (name.startsWith("exdates")) return "exdates";
  if (name === "recurrence" && ctl.repeat.value !== "custom") return "repeat";
  return map[name] || null;
}
