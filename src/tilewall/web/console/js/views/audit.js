// Audit trail: who changed what on the host, when, from where, and how it ended; newest
// first, filtered by a window (the host's local time), a user, a target id and an
// operation, a page at a time; downloadable as CSV. Says whether the page verifies (each
// entry holds its content and follows the one before it).

import { get, BASE } from "../api.js";
import { h, fill, field, errorBox, showError, pageHeader, section } from "../ui.js";

const PAGE = 100;
const ACTIONS = ["created", "changed", "deleted"];

/** @param {any} value */
function shown(value) {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** What one entry changed: each document, and the before and after of each field. */
function changesOf(entry) {
  const changes = entry.changes || [];
  if (!changes.length) return h("span", { class: "muted" }, "—");
  const parts = changes.map((change) => {
    const action = ACTIONS.find((a) => a in change) || "changed";
    const fields = change[action] || {};
    const rows = Object.entries(fields).map(([name, diff]) =>
      h("li", {}, h("code", {}, name), ": ", diff && typeof diff === "object" && "before" in diff ? `${shown(diff.before)} → ${shown(diff.after)}` : shown(diff)),
    );
    const label = `${action} ${change.kind} ${change.name || change.id}`;
    return h("details", {}, h("summary", {}, `${label} (${rows.length} field${rows.length === 1 ? "" : "s"})`), h("ul", {}, rows));
  });
  return h("div", {}, parts);
}

function targetOf(entry) {
  const t = entry.target;
  return t ? `${t.kind} ${t.name || t.id}` : "—";
}

function row(entry) {
  return h(
    "tr",
    { dataset: { id: String(entry.id), outcome: entry.outcome === "ok" ? "ok" : "refused" } },
    h("td", { class: "num" }, String(entry.id)),
    h("td", {}, new Date(entry.at).toLocaleString()),
    h("td", {}, entry.user),
    h("td", {}, entry.address || "—"),
    h("td", {}, h("code", {}, entry.operation)),
    h("td", {}, targetOf(entry)),
    h("td", {}, changesOf(entry)),
    h("td", {}, entry.outcome),
  );
}

export function renderAudit(root) {
  const error = errorBox();
  const since = h("input", { name: "since", type: "datetime-local", step: 1 });
  const until = h("input", { name: "until", type: "datetime-local", step: 1 });
  const user = h("input", { name: "user", type: "text", placeholder: "any" });
  const target = h("input", { name: "target", type: "text", placeholder: "any id" });
  const operation = h("input", { name: "operation", type: "text", placeholder: "POST /api/sources" });
  const download = h("a", { class: "button", href: `${BASE}/audit.csv`, download: "audit.csv" }, "Download CSV");
  const status = h("p", { class: "muted", role: "status" });
  const body = h("tbody", {});
  const head = ["Id", "At", "User", "Address", "Operation", "Target", "Changes", "Outcome"].map((c) => h("th", { scope: "col" }, c));
  const table = h("table", { "aria-label": "Audit entries" }, h("thead", {}, h("tr", {}, head)), body);
  const wrap = h("div", { class: "table-wrap" });
  const older = h("button", { type: "button", hidden: true }, "Older entries");
  const form = h("form", { class: "row wrap filters" }, field("Since", since), field("Until", until), field("User", user), field("Target", target), field("Operation", operation), h("button", { type: "submit", class: "primary" }, "Show"), download);
  /** @type {number | null} */
  let next = null;
  let shownCount = 0;
  let verified = true;

  function query() {
    /** @type {Record<string, string>} */
    const q = {};
    if (since.value) q.since = since.value;
    if (until.value) q.until = until.value;
    for (const [name, input] of [["user", user], ["target", target], ["operation", operation]]) {
      const value = /** @type {HTMLInputElement} */ (input).value.trim();
      if (value) q[name] = value;
    }
    return q;
  }

  async function load(more) {
    const q = query();
    download.href = `${BASE}/audit.csv${Object.keys(q).length ? `?${new URLSearchParams(q)}` : ""}`;
    try {
      const page = await get("/audit", { query: { ...q, limit: String(PAGE), ...(more && next !== null ? { before: String(next) } : {}) } });
      const entries = page.entries || [];
      if (!more) {
        fill(body);
        shownCount = 0;
        verified = true;
      }
      body.append(...entries.map(row));
      shownCount += entries.length;
      verified = verified && page.verified;
      next = page.next;
      older.hidden = next === null;
      fill(wrap, shownCount ? table : h("p", { class: "muted" }, "No entries match."));
      status.textContent = `${shownCount} entr${shownCount === 1 ? "y" : "ies"}, newest first. ${verified ? "The chain of these entries verifies." : "These entries do NOT verify: one was edited, removed or inserted (run tilewall audit verify)."}`;
      status.dataset.verified = String(verified);
      showError(error, null);
    } catch (e) {
      if (e.status !== 401) showError(error, e);
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load(false);
  });
  older.addEventListener("click", () => load(true));
  root.append(pageHeader("Audit trail"), section("Who changed what", h("p", { class: "muted" }, "Every change, login, failed login and logout, with who made it and from where. Times in the window are the host's local time."), form, error, status, wrap, older));
  load(false);
}
