// Receivers: the screens pointed at this host. Lock an available one to give it a
// display, unlock, reset (reload), rename (name and location); re-pair a station to the
// screen that asks for it (a replacement device refused while the station is locked).

import { get, put, seg } from "../api.js";
import * as live from "../live.js";
import { h, fill, act, errorBox, showError, confirmDialog, pageHeader, section, modal, field } from "../ui.js";

const MAX_LENGTH = 256;

/** Ask for a receiver's name and location; resolves with the saved device or null. */
function renameDialog(r) {
  return new Promise((resolve) => {
    const name = h("input", { name: "receiverName", value: r.name || "", "aria-required": "true", maxlength: MAX_LENGTH, autocomplete: "off" });
    const location = h("input", { name: "receiverLocation", value: r.location || "", maxlength: MAX_LENGTH, autocomplete: "off" });
    const nameField = field("Name", name);
    name.addEventListener("input", () => name.value.trim() && nameField.setError(""));
    const error = errorBox();
    const save = h("button", { type: "submit", class: "primary" }, "Save");
    let saved = null;
    const form = h(
      "form",
      {},
      error,
      nameField,
      field("Location", location, { hint: "Where the screen is, e.g. “Lobby, ground floor”" }),
      h("div", { class: "row end" }, h("button", { type: "button", class: "ghost", onclick: () => dlg.close() }, "Cancel"), save),
    );
    const dlg = modal(`Rename ${r.name || r.seatId}`, form);
    dlg.dialog.addEventListener("close", () => resolve(saved));
    name.focus();
    name.select();
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const wanted = name.value.trim();
      nameField.setError(wanted ? "" : "A receiver needs a name");
      if (!wanted) return;
      act(
        save,
        async () => {
          saved = await put(`/network/${seg(r.seatId)}`, { name: wanted, location: location.value.trim() });
          dlg.close();
        },
        { errorBox: error, success: `Renamed to ${wanted}` },
      );
    });
  });
}

/** The newest device refused this station, if one asks for it now. */
function askingCell(asking) {
  if (!asking) return null;
  const since = new Date(asking.sinceMs).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const what = asking.role === "agent" ? "another kiosk agent" : "another screen";
  return h("div", { class: "small asking", role: "status" }, `${what[0].toUpperCase()}${what.slice(1)} asks for this station, since ${since}, from ${asking.ip}`);
}

/** What the station's kiosk agent does: power method, serial port, last power switch. */
function agentCell(r) {
  const a = r.agent;
  if (!a) return h("div", { class: "muted small" }, "No agent");
  const means = [`power: ${a.power}`, a.serialPort ? `serial: ${a.serialPort}` : null, a.browser ? "runs the browser" : null].filter(Boolean).join(" · ");
  const last = a.lastPower;
  const outcome = last
    ? h(
        "div",
        { class: `small agent-power ${last.result}`, dataset: { result: last.result } },
        last.result === "done"
          ? `Screen ${last.state} (${last.method}) at ${new Date(last.atMs).toLocaleTimeString()}`
          : `Screen ${last.state} failed: ${last.message}`,
      )
    : null;
  return h("div", { class: "agent" }, h("div", { class: "small" }, `Agent ${a.version.replace("tilewall-agent/", "")}`), h("div", { class: "muted small" }, means), outcome);
}

/**
 * A receiver's buttons: re-pair (when another device asks for it), unlock and show id or
 * lock, rename, reset; `reload` reads the list and the live view again after a change.
 * @param {any} r @param {any} asks @param {HTMLElement} error @param {() => Promise<void>} reload
 */
function rowActions(r, asks, error, reload) {
  const name = r.name || r.seatId;
  const actions = h("div", { class: "row" });
  if (asks) {
    const repair = h("button", { type: "button", class: "primary", "aria-label": `Re-pair ${name} to the screen that asks for it` }, "Re-pair");
    repair.addEventListener("click", () =>
      act(repair, async () => { await put(`/network/${seg(r.seatId)}/repair`); await reload(); }, { errorBox: error, success: `${name} is now the screen at ${asks.ip}` }),
    );
    actions.append(repair);
  }
  if (r.status === "CONNECTED") {
    const unlock = h("button", { type: "button", "aria-label": `Unlock ${name}` }, "Unlock");
    unlock.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `Unlock ${name}?`, message: "Its display leaves this host (and any wall, zone or mirror group) until it is locked again.", confirm: "Unlock", danger: true }))) return;
      act(unlock, async () => { await put(`/network/${seg(r.seatId)}/unlock`); await reload(); }, { errorBox: error, success: `Unlocked ${name}` });
    });
    actions.append(unlock);
    if (r.displayId != null) {
      const identify = h("button", { type: "button", "aria-label": `Show the display id on ${name}` }, "Show id");
      identify.addEventListener("click", () =>
        act(identify, () => put("/system/showDisplayIds/start", undefined, { query: { displayId: r.displayId } }), { errorBox: error, success: `Showing #${r.displayId} on ${name}` }),
      );
      actions.append(identify);
    }
  } else {
    const lock = h("button", { type: "button", class: "primary", "aria-label": `Lock ${name}` }, "Lock");
    lock.addEventListener("click", () =>
      act(lock, async () => { await put(`/network/${seg(r.seatId)}/lock`); await reload(); }, { errorBox: error, success: `Locked ${name} to this host` }),
    );
    actions.append(lock);
  }
  const rename = h("button", { type: "button", "aria-label": `Rename ${name}` }, "Rename");
  rename.addEventListener("click", async () => {
    if (await renameDialog(r)) await reload();
  });
  actions.append(rename);
  const reset = h("button", { type: "button", "aria-label": `Reset ${name}` }, "Reset");
  reset.addEventListener("click", () => act(reset, () => put(`/network/${seg(r.seatId)}/reset`), { errorBox: error, success: `Reset ${name}` }));
  actions.append(reset);
  return actions;
}

export function renderReceivers(root) {
  const error = errorBox();
  const available = h("tbody");
  const locked = h("tbody");
  /** @type {Map<string, any>} the newest refused device of each station */
  let asking = new Map();
  const head = () =>
    h("thead", {}, h("tr", {}, ["Name", "Seat", "Address", "Model / firmware", "Screen", "State", "Actions"].map((c) => h("th", { scope: "col" }, c))));

  async function load() {
    try {
      const [body, refusals] = await Promise.all([get("/network"), get("/refusals").catch(() => ({ refused: [] }))]);
      asking = new Map();
      for (const r of refusals.refused || []) if (!asking.has(r.seatId)) asking.set(r.seatId, r);
      draw(body.network || []);
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  function row(r) {
    const name = r.name || r.seatId;
    const screen = (r.devices || []).filter((d) => d.type === "DISPLAY").map((d) => d.model).join(", ");
    const asks = asking.get(r.seatId);
    const actions = rowActions(r, asks, error, async () => { await load(); await live.refresh(); });
    const online = r.isOnline !== false;
    return h(
      "tr",
      { dataset: { seatId: r.seatId } },
      h("th", { scope: "row" }, h("strong", {}, name), r.location ? h("div", { class: "muted small" }, r.location) : null),
      h("td", {}, r.seatId),
      h("td", {}, r.ip, r.mac ? h("div", { class: "muted small" }, r.mac) : null),
      h("td", {}, r.model, h("div", { class: "muted small" }, r.firmware)),
      h("td", {}, screen),
      h("td", {}, h("span", { class: `dot ${online ? "on" : "off"}`, "aria-hidden": "true" }), ` ${online ? "Online" : "Offline"}`, r.status === "CONNECTED" && r.displayId != null ? h("div", { class: "muted small" }, `Display #${r.displayId}`) : null, askingCell(asks), agentCell(r)),
      h("td", {}, actions),
    );
  }

  function draw(list) {
    const free = list.filter((r) => r.status !== "CONNECTED");
    const mine = list.filter((r) => r.status === "CONNECTED");
    fill(available, ...(free.length ? free.map(row) : [h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No receiver is waiting. Point a screen's browser at /receiver/ on this host."))]));
    fill(locked, ...(mine.length ? mine.map(row) : [h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No receiver is locked yet."))]));
  }

  root.append(
    pageHeader("Receivers"),
    error,
    section("Available", h("p", { class: "muted" }, "Screens showing the pairing page. Lock one to make it a display of this host."), h("div", { class: "table-wrap" }, h("table", { "aria-label": "Available receivers" }, head(), available))),
    section("Locked to this host", h("div", { class: "table-wrap" }, h("table", { "aria-label": "Locked receivers" }, head(), locked))),
  );
  load();
  // receivers coming and going, refused and locked are changes the host tells
  return live.onHostChange(load);
}
