// The form that creates or edits a scheduled event. It checks what it can as the host
// does (a name, a local start, an end after the start, a target and a source), and shows
// the host's own 400 message beside the field it names ("timeZone: unknown time zone").

import { get, post, put, seg } from "../../api.js";
import { h, errorBox, showError, modal, toast } from "../../ui.js";
import { eventControls } from "./fields.js";
import { requestBody, refusals, fieldOf } from "./request.js";

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
  const { ctl, f, zoneList } = eventControls(event, defaults, c);
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
    const b = requestBody(ctl);
    const problems = refusals(b, c.zonesAvailable);
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
      const key = err.status === 400 ? fieldOf(err.message, ctl) : null;
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
