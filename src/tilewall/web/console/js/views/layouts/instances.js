// The zones that play a control room (a Command and Control source), each with the layout
// it shows and a choice of layout to load on it (interface 1.9 /controlroom).

import { get, put, seg } from "../../api.js";
import * as live from "../../live.js";
import { h, clear, act, field, errorBox } from "../../ui.js";

/** Read the zones playing a control room into `box`, each with its Load button. */
export async function loadInstances(box) {
  clear(box);
  try {
    const body = await get("/controlroom");
    const names = Array.isArray(body) ? body : body.controlroom || body.zones || body.instances || body.names || [];
    if (!names.length) {
      box.append(h("p", { class: "muted" }, "No zone plays a Command and Control source."));
      return;
    }
    for (const entry of names) {
      const zone = typeof entry === "string" ? entry : entry.name || entry.zoneName || entry.videowallZoneName;
      box.append(...(await instance(zone, () => loadInstances(box))));
    }
  } catch (e) {
    if (e.status === 401) return;
    box.append(h("p", { class: "note" }, e.message));
  }
}

/** The row of one zone: its layout now, and the layout to load. */
async function instance(zone, reload) {
  const error = errorBox();
  const [avail, current] = await Promise.all([
    get(`/controlroom/${seg(zone)}/layouts`).catch(() => ({ layouts: [] })),
    get(`/controlroom/${seg(zone)}/currentlayout`).catch(() => null),
  ]);
  const select = h("select", { name: "layout" }, (avail.layouts || []).map((l) => h("option", { value: l.name, selected: current && current.id === l.id }, l.name)));
  const loadButton = h("button", { type: "button", class: "primary", dataset: { needs: "operate" } }, "Load");
  loadButton.addEventListener("click", () =>
    act(loadButton, async () => { await put(`/controlroom/${seg(zone)}/load/${seg(select.value)}`); await reload(); live.refresh(); }, { errorBox: error, success: `Loaded ${select.value} on ${zone}` }),
  );
  return [
    h("div", { class: "row wrap" }, h("strong", {}, zone), h("span", { class: "muted" }, `now: ${current && current.name && current.name !== "None" ? current.name : "—"}`), field(`Layout for ${zone}`, select), loadButton),
    error,
  ];
}
