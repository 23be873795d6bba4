// The editors of a source type's params, made from its schema (GET /api/sourcetypes):
// text, number, check box, choice, media files and folders in play order, control-room
// layouts. Each is {el, value(), setError(text)}; value() is the param's text as the
// host takes it.

import { h, fill, field, checkbox, nextId, formatMs } from "../../ui.js";

export function paramValue(source, name, fallback) {
  const p = source && (source.params || []).find((x) => x.paramName === name);
  return p ? p.paramValue : fallback;
}

export function parseJsonList(text) {
  try {
    const v = JSON.parse(text || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** An editor for one param; returns {el, value(), setError(text)}. */
export function paramEditor(spec, initial, ctx) {
  const label = spec.label && spec.label !== spec.paramName ? `${spec.paramName} — ${spec.label}` : spec.paramName;
  switch (spec.type) {
    case "CHECKBOX": {
      const box = checkbox(label, initial === "true");
      box.input.name = spec.paramName;
      const err = h("small", { class: "field-error", role: "alert", hidden: true });
      const el = h("div", { class: "field" }, box, err);
      return { el, value: () => (box.input.checked ? "true" : "false"), setError: (t) => { err.hidden = !t; err.textContent = t || ""; } };
    }
    case "NUMBER": {
      const input = h("input", { type: "number", name: spec.paramName, value: initial, step: "any", class: "num" });
      if (spec.minimum !== null && spec.minimum !== undefined) input.min = spec.minimum;
      if (spec.maximum !== null && spec.maximum !== undefined) input.max = spec.maximum;
      if (spec.required) input.required = true;
      const hint = [spec.minimum != null ? `at least ${spec.minimum}` : "", spec.maximum != null ? `at most ${spec.maximum}` : ""].filter(Boolean).join(", ");
      const f = field(label, input, { hint });
      return { el: f, value: () => input.value, setError: f.setError };
    }
    case "RADIO": {
      const name = nextId("radio");
      const err = h("small", { class: "field-error", role: "alert", hidden: true });
      const el = h(
        "fieldset",
        { dataset: { param: spec.paramName } },
        h("legend", {}, label),
        (spec.options || []).map((o) => h("label", { class: "check" }, h("input", { type: "radio", name, value: o, checked: o === initial }), o)),
        err,
      );
      return {
        el,
        value: () => (el.querySelector("input:checked") || {}).value || "",
        setError: (t) => { err.hidden = !t; err.textContent = t || ""; },
      };
    }
    case "FILE_DIR_SELECT":
    case "IMAGE_SELECT":
      return mediaPicker(spec, label, initial, ctx);
    case "LAYOUT_SELECT":
      return layoutPicker(spec, label, initial, ctx);
    case "HELP":
      return null;
    default: {
      // a secret (a VNC password) is read back as "***": sent back so, the host keeps it
      const type = spec.secret ? "password" : "text";
      const input = h("input", { type, name: spec.paramName, value: initial, inputmode: spec.type === "URL" ? "url" : undefined, required: spec.required, autocomplete: spec.secret ? "new-password" : undefined, class: "" });
      input.style.width = "100%";
      const hint = spec.type === "URL" ? "An http(s) address, or /media/<file> for a file of the media library" : spec.secret && initial ? "Kept as it is unless you type another" : "";
      const f = field(label, input, { hint, wide: true });
      return { el: f, value: () => input.value, setError: f.setError };
    }
  }
}

/** Files and folders of the media library, ticked in play order. */
function mediaPicker(spec, label, initial, ctx) {
  const single = spec.type === "IMAGE_SELECT";
  const chosen = single ? (initial ? [{ type: "file", name: initial, value: initial }] : []) : parseJsonList(initial).filter((e) => e && e.value);
  const err = h("small", { class: "field-error", role: "alert", hidden: true });
  const order = h("ol", { class: "order" });
  const list = h("div", { class: "pick-list", role: "group", "aria-label": `${spec.paramName}: media files and folders` });
  const el = h("fieldset", { dataset: { param: spec.paramName } }, h("legend", {}, label), list, single ? null : h("div", { class: "small muted" }, "Play order:"), single ? null : order, err);
  const drawOrder = () => fill(order, ...(chosen.length ? chosen.map((c) => h("li", {}, c.type === "dir" ? `${c.value}/ (folder)` : c.value)) : [h("li", { class: "muted" }, "Nothing chosen")]));
  drawOrder();
  const files = ctx.media || [];
  const dirs = [...new Set(files.map((f) => f.name.split("/").slice(0, -1).join("/")).filter(Boolean))].sort();
  const entries = [
    ...(single ? [] : dirs.map((d) => ({ type: "dir", value: d, label: `${d}/ (whole folder)` }))),
    ...files.filter((f) => !single || f.kind === "image").map((f) => ({ type: "file", value: f.name, label: `${f.name}${f.durationInMilliseconds ? ` (${formatMs(f.durationInMilliseconds)})` : ""}` })),
  ];
  if (!entries.length) list.append(h("p", { class: "muted" }, "The media library is empty. Upload files under Media first."));
  const radioName = nextId("img");
  for (const entry of entries) {
    const isChosen = chosen.some((c) => c.type === entry.type && c.value === entry.value);
    const input = h("input", { type: single ? "radio" : "checkbox", name: single ? radioName : undefined, checked: isChosen, value: entry.value });
    input.addEventListener("change", () => {
      if (single) {
        chosen.splice(0, chosen.length, { type: "file", name: entry.value, value: entry.value });
      } else {
        const i = chosen.findIndex((c) => c.type === entry.type && c.value === entry.value);
        if (input.checked && i < 0) chosen.push({ type: entry.type, name: entry.value.split("/").pop(), value: entry.value });
        if (!input.checked && i >= 0) chosen.splice(i, 1);
      }
      drawOrder();
    });
    list.append(h("label", { class: "check" }, input, entry.label));
  }
  return {
    el,
    value: () => (single ? (chosen[0] ? chosen[0].value : "") : JSON.stringify(chosen.map((c) => ({ type: c.type, name: c.name || c.value, value: c.value })))),
    setError: (t) => { err.hidden = !t; err.textContent = t || ""; },
  };
}

/** Control-room layouts for a Command and Control source. */
function layoutPicker(spec, label, initial, ctx) {
  const chosen = parseJsonList(initial).map(String);
  const err = h("small", { class: "field-error", role: "alert", hidden: true });
  const el = h("fieldset", { dataset: { param: spec.paramName } }, h("legend", {}, label), err);
  let value;
  if (ctx.layouts) {
    const boxes = ctx.layouts.map((l) => {
      const box = checkbox(l.name, chosen.includes(l.id) || chosen.includes(l.name));
      box.input.value = l.id;
      return box;
    });
    if (!boxes.length) el.append(h("p", { class: "muted" }, "No layouts yet. Create them under Layouts."));
    el.append(...boxes);
    // keep layouts this console does not know, so saving does not drop them
    const unknown = chosen.filter((c) => !ctx.layouts.some((l) => l.id === c || l.name === c));
    value = () => JSON.stringify([...boxes.filter((b) => b.input.checked).map((b) => b.input.value), ...unknown]);
  } else {
    const input = h("input", { name: spec.paramName, value: chosen.join(", ") });
    input.style.width = "100%";
    el.append(field("Layout ids or names, separated by commas", input, { hint: "The host does not list control-room layouts yet, so type them." }));
    value = () => JSON.stringify(input.value.split(",").map((s) => s.trim()).filter(Boolean));
  }
  el.append(err);
  return { el, value, setError: (t) => { err.hidden = !t; err.textContent = t || ""; } };
}
