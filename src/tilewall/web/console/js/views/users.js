// Users (administrators): who may log in, with which role; an operator's scope (walls,
// zones, mirror groups, displays, sources, by name or id); disable, reset a password,
// delete. The host keeps the last administrator and ends the sessions of a user whose
// role changes or who is disabled.

import { get, post, put, del, seg } from "../api.js";
import { h, clear, act, field, checkbox, errorBox, showError, confirmDialog, pageHeader, section } from "../ui.js";

const ROLES = ["viewer", "operator", "administrator"];
const KINDS = [
  ["walls", "Walls"],
  ["zones", "Zones"],
  ["mirrorGroups", "Mirror groups"],
  ["displays", "Displays"],
  ["sources", "Sources"],
];

/** The scope as the form gives it: each kind a comma-separated list; null when empty. */
function scopeOf(inputs) {
  /** @type {Record<string, (string|number)[]>} */
  const scope = {};
  let any = false;
  for (const [kind] of KINDS) {
    const items = inputs[kind].value.split(",").map((x) => x.trim()).filter(Boolean);
    scope[kind] = kind === "displays" ? items.map(Number) : items;
    any = any || items.length > 0;
  }
  return any ? scope : null;
}

function scopeText(user) {
  if (!user.scope) return user.role === "operator" ? "Everything" : "";
  const parts = KINDS.filter(([kind]) => user.scope[kind].length).map(([kind, label]) => `${label}: ${user.scope[kind].join(", ")}`);
  return parts.join("; ") || "Nothing";
}

function userForm(onDone, error) {
  const name = h("input", { name: "userName", required: true, autocomplete: "off" });
  const password = h("input", { name: "password", type: "password", required: true, autocomplete: "new-password" });
  const role = h("select", { name: "role" }, ROLES.map((r) => h("option", { value: r }, r)));
  /** @type {Record<string, HTMLInputElement>} */
  const inputs = {};
  for (const [kind] of KINDS) inputs[kind] = /** @type {HTMLInputElement} */ (h("input", { name: kind, placeholder: "names or ids, comma-separated" }));
  const reads = checkbox("Lists show only the scope");
  const submit = h("button", { type: "submit", class: "primary" }, "Add user");
  const scoped = h("fieldset", { class: "scope" }, h("legend", {}, "Scope of an operator (empty: everything)"), KINDS.map(([kind, label]) => field(label, inputs[kind])), reads);
  const form = h("form", { class: "row wrap", "aria-label": "Add a user" }, field("User name", name), field("Password", password), field("Role", role), scoped, submit);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const scope = role.value === "operator" ? scopeOf(inputs) : null;
    const body = { userName: name.value.trim(), password: password.value, role: role.value, scope, scopedReads: !!scope && reads.input.checked };
    act(
      submit,
      async () => {
        await post("/users", body);
        form.reset();
        await onDone();
      },
      { errorBox: error, success: `Added ${body.userName}` },
    );
  });
  return form;
}

function userRow(user, reload, error) {
  const role = h("select", { "aria-label": `Role of ${user.userName}` }, ROLES.map((r) => h("option", { value: r, selected: r === user.role }, r)));
  role.addEventListener("change", () =>
    act(role, async () => { await put(`/users/${seg(user.userName)}`, { role: role.value, ...(role.value === "operator" ? {} : { scope: null, scopedReads: false }) }); await reload(); }, { errorBox: error, success: `${user.userName} is now a ${role.value}` }),
  );
  const disable = h("button", { type: "button" }, user.disabled ? "Enable" : "Disable");
  disable.setAttribute("aria-label", `${user.disabled ? "Enable" : "Disable"} ${user.userName}`);
  disable.addEventListener("click", () =>
    act(disable, async () => { await put(`/users/${seg(user.userName)}`, { disabled: !user.disabled }); await reload(); }, { errorBox: error, success: `${user.userName} ${user.disabled ? "enabled" : "disabled"}` }),
  );
  const reset = h("button", { type: "button", "aria-label": `Reset the password of ${user.userName}` }, "Reset password");
  reset.addEventListener("click", () => {
    const password = window.prompt(`New password for ${user.userName} (at least 8 characters)`);
    if (password) act(reset, () => put(`/users/${seg(user.userName)}/password`, { password }), { errorBox: error, success: `Password of ${user.userName} reset` });
  });
  const remove = h("button", { type: "button", class: "danger", "aria-label": `Delete ${user.userName}` }, "Delete");
  remove.addEventListener("click", async () => {
    if (!(await confirmDialog({ title: `Delete ${user.userName}?`, message: "Their sessions end at once.", confirm: "Delete", danger: true }))) return;
    act(remove, async () => { await del(`/users/${seg(user.userName)}`); await reload(); }, { errorBox: error, success: `Deleted ${user.userName}` });
  });
  return h(
    "tr",
    { dataset: { user: user.userName } },
    h("td", {}, user.userName, user.disabled ? h("span", { class: "muted" }, " (disabled)") : null),
    h("td", {}, role),
    h("td", { class: "scope-cell" }, scopeText(user), user.scopedReads ? h("span", { class: "muted" }, " (sees only this)") : null),
    h("td", { class: "row wrap" }, disable, reset, remove),
  );
}

export function renderUsers(root) {
  const error = errorBox();
  const body = h("tbody");
  const table = h("table", { class: "table", "aria-label": "Users" }, h("thead", {}, h("tr", {}, h("th", {}, "User"), h("th", {}, "Role"), h("th", {}, "Scope"), h("th", {}, ""))), body);

  async function load() {
    try {
      const users = (await get("/users")).users || [];
      clear(body);
      for (const user of users) body.append(userRow(user, load, error));
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  root.append(
    pageHeader("Users"),
    section("Add a user", h("p", { class: "muted" }, "Viewers read everything; operators also play, switch, recall presets, show alerts and display ids, and change layouts and the schedule; administrators do everything."), userForm(load, error)),
    section("Users", error, h("div", { class: "table-wrap" }, table)),
  );
  load();
}
