// Sources: list, create and edit with forms generated from each source type's param
// schema (GET /api/sourcetypes), delete. The host's validation message is shown next to
// the form, and next to the field it names.

import { get, post, put, del, seg } from "../api.js";
import * as live from "../live.js";
import { sourceTest, testable } from "./sourcetest.js";
import { h, clear, fill, act, field, errorBox, showError, confirmDialog, pageHeader, section, checkbox, nextId, formatMs, toast } from "../ui.js";

let typesCache = null;

async function sourceTypes() {
  if (typesCache) return typesCache;
  const body = await get("/sourcetypes");
  // a screen share is made by sharing, never in this form
  typesCache = (body.sourceTypes || []).filter((t) => !t.madeByHost);
  return typesCache;
}

function paramValue(source, name, fallback) {
  const p = source && (source.params || []).find((x) => x.paramName === name);
  return p ? p.paramValue : fallback;
}

function parseJsonList(text) {
  try {
    const v = JSON.parse(text || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** An editor for one param; returns {el, value(), setError(text)}. */
function paramEditor(spec, initial, ctx) {
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
      const input = h("input", { type: spec.type === "URL" ? "text" : "text", name: spec.paramName, value: initial, inputmode: spec.type === "URL" ? "url" : undefined, required: spec.required, class: "" });
      input.style.width = "100%";
      const f = field(label, input, { hint: spec.type === "URL" ? "An http(s) address, or /media/<file> for a file of the media library" : "", wide: true });
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

/** A source form: type, name and the type's params. onSaved(source) after success. */
/**
 * @param {HTMLElement} container
 * @param {{source?: import("../live.js").Source | null, onSaved?: (saved: any) => void, onCancel?: () => void}} options
 */
async function sourceForm(container, { source = null, onSaved, onCancel }) {
  const error = errorBox();
  fill(container, h("p", { class: "muted" }, "Loading the form…"));
  let types;
  const ctx = {};
  try {
    [types, ctx.media] = await Promise.all([sourceTypes(), get("/media").then((b) => b.files || []).catch(() => [])]);
  } catch (e) {
    fill(container, errorBox());
    showError(container.firstChild, e, "The source types could not be read");
    return;
  }
  try {
    const body = await get("/controlroom/layouts");
    ctx.layouts = body.layouts || [];
  } catch {
    ctx.layouts = null;
  }
  const name = h("input", { name: "sourceName", required: true, value: source ? source.sourceName : "", autocomplete: "off" });
  const type = h("select", { name: "sourceType" });
  for (const t of types) type.append(h("option", { value: t.sourceType, disabled: !t.allowed }, `${t.sourceType}${t.allowed ? "" : " (not licensed)"}`));
  if (source) type.value = source.sourceType;
  else type.value = (types.find((t) => t.allowed) || types[0])?.sourceType || "";
  const nameField = field("Name", name, { wide: true });
  const typeField = field("Type", type);
  const description = h("p", { class: "muted" });
  const paramsBox = h("div", { class: "params" });
  let editors = [];

  function drawParams() {
    const t = types.find((x) => x.sourceType === type.value);
    description.textContent = t ? t.description : "";
    clear(paramsBox);
    editors = [];
    if (!t) return;
    for (const spec of t.params) {
      const initial = source && source.sourceType === t.sourceType ? paramValue(source, spec.paramName, spec.default) : spec.default;
      const editor = paramEditor(spec, initial, ctx);
      if (!editor) continue;
      editors.push({ spec, editor });
      paramsBox.append(editor.el);
    }
  }
  type.addEventListener("change", drawParams);
  drawParams();

  const save = h("button", { type: "submit", class: "primary" }, source ? "Save changes" : "Create source");
  const cancel = h("button", { type: "button", class: "ghost" }, "Cancel");
  cancel.addEventListener("click", () => onCancel && onCancel());
  // a saved live source can be tried: what the host says of its stream, and its picture
  const test = source && testable(source.sourceType) ? sourceTest(source) : null;
  const form = h(
    "form",
    { class: "source-form", novalidate: true },
    h("div", { class: "row wrap" }, nameField, typeField),
    description,
    paramsBox,
    error,
    test && test.el,
    h("div", { class: "row end" }, test && test.button, cancel, save),
  );

  function clearErrors() {
    nameField.setError("");
    typeField.setError("");
    for (const { editor } of editors) editor.setError("");
    showError(error, null);
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors();
    if (!name.value.trim()) {
      nameField.setError("A source needs a name.");
      name.focus();
      return;
    }
    const body = {
      sourceName: name.value.trim(),
      sourceType: type.value,
      params: editors.map(({ spec, editor }) => ({ type: spec.type, paramName: spec.paramName, paramValue: editor.value() })),
    };
    save.disabled = true;
    try {
      const saved = source ? await put(`/sources/${seg(source.sourceId)}`, body) : await post("/sources", body);
      typesCache = null;
      onSaved && onSaved(saved);
    } catch (err) {
      if (err.status === 401) return;
      showError(error, err, source ? "Not saved" : "Not created");
      // point at the field the host names: "param 'URL' must be …"
      const m = /param '([^']+)'/.exec(err.message || "");
      const hit = m && editors.find(({ spec }) => spec.paramName.toLowerCase() === m[1].toLowerCase());
      if (hit) hit.editor.setError(err.message);
      else if (/name/i.test(err.message) && /source/i.test(err.message)) nameField.setError(err.message);
      else if (/sourceType|licen/i.test(err.message)) typeField.setError(err.message);
    } finally {
      save.disabled = false;
    }
  });
  fill(container, form);
  name.focus();
}

export function renderSources(root) {
  const error = errorBox();
  const list = h("ul", { class: "list", "aria-label": "Sources" });
  const editor = h("div");
  const editorTitle = h("h2", { id: nextId("src") }, "New source");
  const editorCard = h("section", { class: "card", hidden: true, "aria-labelledby": editorTitle.id }, editorTitle, editor);
  const newBtn = h("button", { type: "button", class: "primary" }, "+ New source");

  function openEditor(source) {
    editorCard.hidden = false;
    editorTitle.textContent = source ? `Edit “${source.sourceName}”` : "New source";
    sourceForm(editor, {
      source,
      onSaved: async (saved) => {
        editorCard.hidden = true;
        toast(source ? `Saved ${saved.sourceName}` : `Created ${saved.sourceName}`, "ok");
        await load();
        live.refresh();
      },
      onCancel: () => (editorCard.hidden = true),
    });
    editorCard.scrollIntoView({ block: "nearest" });
  }
  newBtn.addEventListener("click", () => openEditor(null));

  async function load() {
    try {
      const body = await get("/sources");
      const sources = body.sources || [];
      clear(list);
      if (!sources.length) list.append(h("li", { class: "muted" }, "No sources yet."));
      for (const s of sources) {
        const edit = h("button", { type: "button", "aria-label": `Edit ${s.sourceName}` }, "Edit");
        const remove = h("button", { type: "button", class: "danger", "aria-label": `Delete ${s.sourceName}` }, "Delete");
        edit.addEventListener("click", () => openEditor(s));
        remove.addEventListener("click", async () => {
          if (!(await confirmDialog({ title: `Delete source “${s.sourceName}”?`, message: "Displays playing it stop showing it.", confirm: "Delete", danger: true }))) return;
          act(remove, async () => { await del(`/sources/${seg(s.sourceId)}`); await load(); live.refresh(); }, { errorBox: error, success: `Deleted ${s.sourceName}` });
        });
        const summary = s.params.filter((p) => p.type !== "HELP").map((p) => `${p.paramName}: ${summarise(p)}`).join(" · ");
        list.append(
          h(
            "li",
            { dataset: { sourceId: s.sourceId } },
            h("div", {}, h("strong", {}, s.sourceName), " ", h("span", { class: "muted" }, `(${s.sourceType})`), h("div", { class: "small muted" }, summary)),
            h("span", { class: "row" }, edit, remove),
          ),
        );
      }
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  root.append(pageHeader("Sources", newBtn), editorCard, section("All sources", error, list));
  load();
}

function summarise(p) {
  if (p.type === "FILE_DIR_SELECT") {
    const items = parseJsonList(p.paramValue);
    return items.length ? items.map((i) => i.value).join(", ") : "none";
  }
  if (p.type === "LAYOUT_SELECT") return parseJsonList(p.paramValue).join(", ") || "none";
  return p.paramValue === "" ? "—" : p.paramValue;
}
