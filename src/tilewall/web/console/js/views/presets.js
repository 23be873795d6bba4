// Presets: save what every display, zone and mirror group plays under a name; recall; delete.

import { get, post, put, del, seg } from "../api.js";
import * as live from "../live.js";
import { h, clear, act, field, errorBox, showError, confirmDialog, pageHeader, section, needs } from "../ui.js";

export function renderPresets(root) {
  const error = errorBox();
  const list = h("ul", { class: "list", "aria-label": "Presets" });
  const name = h("input", { name: "presetName", required: true, placeholder: "e.g. Morning lobby", autocomplete: "off" });
  const saveBtn = h("button", { type: "submit", class: "primary" }, "Save current state");
  const form = h("form", { class: "row wrap" }, field("Preset name", name), saveBtn);

  async function load() {
    try {
      const body = await get("/presets");
      const presets = body.presets || [];
      clear(list);
      if (!presets.length) list.append(h("li", { class: "muted" }, "No presets yet. Save the current state to create one."));
      for (const p of presets) {
        const recall = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "Recall");
        const overwrite = h("button", { type: "button", dataset: { needs: "administer" } }, "Save over");
        const remove = h("button", { type: "button", class: "danger", dataset: { needs: "administer" } }, "Delete");
        recall.setAttribute("aria-label", `Recall preset ${p.name}`);
        overwrite.setAttribute("aria-label", `Save the current state over preset ${p.name}`);
        remove.setAttribute("aria-label", `Delete preset ${p.name}`);
        recall.addEventListener("click", () =>
          act(
            recall,
            async () => {
              const r = await put(`/presets/${seg(p.id)}/switch`);
              await live.refresh();
              return r;
            },
            { errorBox: error, success: (r) => `Recalled ${p.name}${r && r.playing === false ? " (nothing is playing in it)" : ""}` },
          ),
        );
        overwrite.addEventListener("click", async () => {
          if (!(await confirmDialog({ title: `Save over “${p.name}”?`, message: "The preset will hold what plays now.", confirm: "Save over" }))) return;
          act(overwrite, () => post("/presets", { name: p.name }), { errorBox: error, success: `Saved ${p.name}` });
        });
        remove.addEventListener("click", async () => {
          if (!(await confirmDialog({ title: `Delete preset “${p.name}”?`, message: "This cannot be undone.", confirm: "Delete", danger: true }))) return;
          act(remove, async () => { await del(`/presets/${seg(p.id)}`); await load(); }, { errorBox: error, success: `Deleted ${p.name}` });
        });
        list.append(h("li", { dataset: { presetId: p.id } }, h("strong", { class: "preset-name" }, p.name), h("span", { class: "row wrap" }, recall, overwrite, remove)));
      }
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const value = name.value.trim();
    if (!value) {
      showError(error, new Error("Give the preset a name."));
      name.focus();
      return;
    }
    act(
      saveBtn,
      async () => {
        await post("/presets", { name: value });
        name.value = "";
        await load();
      },
      { errorBox: error, success: `Saved preset ${value}` },
    );
  });

  root.append(
    pageHeader("Presets"),
    needs("administer", section("Save the current state", h("p", { class: "muted" }, "A preset remembers what every display, zone and mirror group plays. Saving under an existing name replaces it."), form)),
    section("Saved presets", error, list),
  );
  load();
}
