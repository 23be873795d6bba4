// The source form: name, type and the type's params; it creates a source or saves one,
// and shows the host's refusal beside the field it names ("param 'URL' must be …").

import { get, post, put, seg } from "../../api.js";
import { h, clear, fill, field, errorBox, showError } from "../../ui.js";
import { paramEditor, paramValue } from "./params.js";
import { sourceTest, testable } from "./test.js";

let typesCache = null;

async function sourceTypes() {
  if (typesCache) return typesCache;
  const body = await get("/sourcetypes");
  // a screen share is made by sharing, never in this form
  typesCache = (body.sourceTypes || []).filter((t) => !t.madeByHost);
  return typesCache;
}

/** What the form offers: the source types, the media library's files, the layouts (null
 *  when the host has none to offer). */
async function formContext() {
  const [types, media] = await Promise.all([sourceTypes(), get("/media").then((b) => b.files || []).catch(() => [])]);
  let layouts = null;
  try {
    layouts = (await get("/controlroom/layouts")).layouts || [];
  } catch {
    /* the layout param is typed in instead */
  }
  return { types, media, layouts };
}

/**
 * A source form in `container`: type, name and the type's params; onSaved(source) after success.
 * @param {HTMLElement} container
 * @param {{source?: import("../../host-state.js").Source | null, onSaved?: (saved: any) => void, onCancel?: () => void}} options
 */
export async function sourceForm(container, { source = null, onSaved, onCancel }) {
  fill(container, h("p", { class: "muted" }, "Loading the form…"));
  let ctx;
  try {
    ctx = await formContext();
  } catch (e) {
    fill(container, errorBox());
    showError(/** @type {HTMLElement} */ (container.firstChild), e, "The source types could not be read");
    return;
  }
  const name = h("input", { name: "sourceName", required: true, value: source ? source.sourceName : "", autocomplete: "off" });
  const nameField = field("Name", name, { wide: true });
  const kind = typeAndParams(ctx, source);
  const error = errorBox();
  const save = h("button", { type: "submit", class: "primary" }, source ? "Save changes" : "Create source");
  const cancel = h("button", { type: "button", class: "ghost" }, "Cancel");
  cancel.addEventListener("click", () => onCancel && onCancel());
  // a saved live source can be tried: what the host says of its stream, and its picture
  const test = source && testable(source.sourceType) ? sourceTest(source) : null;
  const form = h(
    "form",
    { class: "source-form", novalidate: true },
    h("div", { class: "row wrap" }, nameField, kind.typeField),
    kind.description,
    kind.paramsBox,
    error,
    test && test.el,
    h("div", { class: "row end" }, test && test.button, cancel, save),
  );
  const parts = { name, nameField, kind, error, save };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    saveSource(source, parts, onSaved);
  });
  fill(container, form);
  name.focus();
}

/** The type's choice, its description and its params' editors (made again when the type changes). */
function typeAndParams(ctx, source) {
  const { types } = ctx;
  const type = h("select", { name: "sourceType" });
  for (const t of types) type.append(h("option", { value: t.sourceType, disabled: !t.allowed }, `${t.sourceType}${t.allowed ? "" : " (not licensed)"}`));
  if (source) type.value = source.sourceType;
  else type.value = (types.find((t) => t.allowed) || types[0])?.sourceType || "";
  const description = h("p", { class: "muted" });
  const paramsBox = h("div", { class: "params" });
  /** @type {{spec: any, editor: any}[]} */
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
  return { type, typeField: field("Type", type), description, paramsBox, editors: () => editors };
}

/** Create or save the source the form describes; a refusal shows beside the field it names. */
async function saveSource(source, { name, nameField, kind, error, save }, onSaved) {
  const editors = kind.editors();
  nameField.setError("");
  kind.typeField.setError("");
  for (const { editor } of editors) editor.setError("");
  showError(error, null);
  if (!name.value.trim()) {
    nameField.setError("A source needs a name.");
    name.focus();
    return;
  }
  const body = {
    sourceName: name.value.trim(),
    sourceType: kind.type.value,
    params: editors.map(({ spec, editor }) => ({ type: spec.type, paramName: spec.paramName, paramValue: editor.value() })),
  };
  save.disabled = true;
  try {
    const saved = source ? await put(`/sources/${seg(source.sourceId)}`, body) : await post("/sources", body);
    typesCache = null;
    if (onSaved) onSaved(saved);
  } catch (err) {
    if (err.status === 401) return;
    showError(error, err, source ? "Not saved" : "Not created");
    // point at the field the host names: "param 'URL' must be …"
    const m = /param '([^']+)'/.exec(err.message || "");
    const hit = m && editors.find(({ spec }) => spec.paramName.toLowerCase() === m[1].toLowerCase());
    if (hit) hit.editor.setError(err.message);
    else if (/name/i.test(err.message) && /source/i.test(err.message)) nameField.setError(err.message);
    else if (/sourceType|licen/i.test(err.message)) kind.typeField.setError(err.message);
  } finally {
    save.disabled = false;
  }
}
