// Sources: list, create and edit with forms generated from each source type's param
// schema (GET /api/sourcetypes), delete. The host's validation message is shown next to
// the form, and next to the field it names.

import { get, del, seg } from "../../api.js";
import * as live from "../../live.js";
import { h, clear, act, errorBox, showError, confirmDialog, pageHeader, section, nextId, toast } from "../../ui.js";
import { sourceForm } from "./form.js";
import { parseJsonList } from "./params.js";

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
