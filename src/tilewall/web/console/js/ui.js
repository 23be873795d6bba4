// Small DOM helpers shared by every screen: element builder, messages, confirmation,
// labelled fields, formatting.

/**
 * The page's element with this id: the console's page always has it.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

let uid = 0;
export const nextId = (prefix = "f") => `${prefix}-${++uid}`;

/** h("button", {class: "x", onclick: fn, "aria-label": "…"}, child, [children], null) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "value" || key === "checked" || key === "selected" || key === "indeterminate") {
      el[key] = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replace the children of `el` (null, false and arrays allowed, as in h()). */
export function fill(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

/** The readable text of any error: the host's message, never raw JSON. */
export function errorText(error) {
  if (!error) return "Something went wrong.";
  if (typeof error === "string") return error;
  return error.message || "Something went wrong.";
}

/** A short message at the bottom of the screen; errors stay until dismissed. */
export function toast(message, kind = "info") {
  const box = byId("toasts");
  const item = h(
    "div",
    { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" },
    h("span", {}, message),
    h("button", { type: "button", class: "ghost small", "aria-label": "Dismiss message", onclick: () => item.remove() }, "×"),
  );
  box.append(item);
  // keep the stack short: the oldest quiet message goes first
  const quiet = [...box.children].filter((c) => !c.classList.contains("error"));
  if (quiet.length > 2) quiet[0].remove();
  if (kind !== "error") setTimeout(() => item.remove(), 3500);
  else setTimeout(() => item.remove(), 12000);
  return item;
}

export function toastError(error, context = "") {
  return toast(context ? `${context}: ${errorText(error)}` : errorText(error), "error");
}

/**
 * Run an action from a button: disable it meanwhile, report failures readably.
 * @template T
 * @param {HTMLButtonElement | null | undefined} button
 * @param {() => Promise<T>} action
 * @param {{success?: string | ((result: T) => string), context?: string, errorBox?: HTMLElement}} [options]
 * @returns {Promise<T | undefined>}
 */
export async function act(button, action, { success, context, errorBox: box } = {}) {
  if (button) {
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
  }
  if (box) showError(box, null);
  try {
    const result = await action();
    if (success) toast(typeof success === "function" ? success(result) : success, "ok");
    return result;
  } catch (error) {
    if (error && error.status === 401) return undefined;
    if (box) showError(box, error);
    else toastError(error, context);
    return undefined;
  } finally {
    if (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }
}

/** An inline error box (role=alert); pass null to hide it. */
export function errorBox() {
  return h("div", { class: "error-box", role: "alert", hidden: true });
}

export function showError(box, error, context = "") {
  if (!box) return;
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.hidden = false;
  // an operation the host does not offer yet is a calm note, not an alarm
  box.className = error.notOffered ? "note" : "error-box";
  const status = error.status && !error.notOffered ? ` (HTTP ${error.status})` : "";
  box.textContent = `${context ? context + ": " : ""}${errorText(error)}${error.hostShaped ? status : ""}`;
}

/**
 * Ask before something that cannot be undone. Resolves true when confirmed.
 * @param {{title: string, message?: string, confirm?: string, danger?: boolean}} question
 * @returns {Promise<boolean>}
 */
export function confirmDialog({ title, message, confirm = "Confirm", danger = false }) {
  return new Promise((resolve) => {
    const titleId = nextId("dlg");
    const dialog = h(
      "dialog",
      { class: "dialog", "aria-labelledby": titleId },
      h("h2", { id: titleId }, title),
      message ? h("p", {}, message) : null,
      h(
        "div",
        { class: "row end" },
        h("button", { type: "button", class: "ghost", value: "cancel", onclick: () => dialog.close("cancel") }, "Cancel"),
        h(
          "button",
          { type: "button", class: danger ? "danger" : "primary", onclick: () => dialog.close("ok") },
          confirm,
        ),
      ),
    );
    dialog.addEventListener("close", () => {
      resolve(dialog.returnValue === "ok");
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("button.ghost").focus();
  });
}

/** A modal with arbitrary content; returns {dialog, close}. */
export function modal(title, body, { wide = false } = {}) {
  const titleId = nextId("dlg");
  const dialog = h(
    "dialog",
    { class: `dialog${wide ? " wide" : ""}`, "aria-labelledby": titleId },
    h(
      "div",
      { class: "row between" },
      h("h2", { id: titleId }, title),
      h("button", { type: "button", class: "ghost", "aria-label": "Close", onclick: () => dialog.close() }, "×"),
    ),
    body,
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close: () => dialog.close() };
}

/** A labelled form field. `control` is an input/select/textarea (gets an id). */
/**
 * @param {string} label
 * @param {HTMLElement} control
 * @param {{hint?: string, wide?: boolean}} [options]
 */
export function field(label, control, { hint, wide = false } = {}) {
  if (!control.id) control.id = nextId("in");
  const hintEl = hint ? h("small", { class: "hint", id: nextId("hint") }, hint) : null;
  const err = h("small", { class: "field-error", id: nextId("err"), role: "alert", hidden: true });
  const described = [hintEl && hintEl.id, err.id].filter(Boolean).join(" ");
  control.setAttribute("aria-describedby", described);
  const wrap = h("div", { class: `field${wide ? " wide" : ""}` }, h("label", { for: control.id }, label), control, hintEl, err);
  wrap.setError = (text) => {
    err.hidden = !text;
    err.textContent = text || "";
    if (text) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  };
  return wrap;
}

export function checkbox(label, checked = false, attrs = {}) {
  const input = h("input", { type: "checkbox", checked, ...attrs });
  const wrap = h("label", { class: "check" }, input, " ", label);
  wrap.input = input;
  return wrap;
}

/**
 * Mark `el` as offered only to roles with `permission` ("operate" or "administer"): the
 * console's style hides it from the others (body[data-role]).
 * @template {HTMLElement} T
 * @param {string} permission
 * @param {T} el
 * @returns {T}
 */
export function needs(permission, el) {
  el.dataset.needs = permission;
  return el;
}

export function section(title, ...children) {
  const id = nextId("sec");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

export function formatBytes(n) {
  if (n === null || n === undefined) return "";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function formatMs(ms) {
  if (ms === null || ms === undefined || ms < 0) return "";
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  const hh = Math.floor(m / 60);
  const pad = (x) => String(x).padStart(2, "0");
  return hh ? `${hh}:${pad(m % 60)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** "1:30" or "90" → milliseconds; NaN when unreadable. */
export function parseDuration(text) {
  const parts = String(text).trim().split(":").map((p) => p.trim());
  if (!parts.length || parts.some((p) => p === "" || Number.isNaN(Number(p)))) return NaN;
  return parts.reduce((acc, p) => acc * 60 + Number(p), 0) * 1000;
}

export function isImage(name) {
  return /\.(png|jpe?g|gif|webp|bmp|svg)$/i.test(name || "");
}

export function isVideo(name) {
  return /\.(mp4|m4v|webm|mkv|mov|ogv|ogg)$/i.test(name || "");
}

export function mediaUrl(name) {
  return "/media/" + String(name).split("/").filter(Boolean).map(encodeURIComponent).join("/");
}

export function pageHeader(title, ...actions) {
  return h("div", { class: "page-head" }, h("h1", {}, title), h("div", { class: "row" }, ...actions));
}

/** A value the host may answer as a bare string or inside an object. */
export function pick(value, ...keys) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  for (const k of keys) if (k in value) return value[k];
  return "";
}
