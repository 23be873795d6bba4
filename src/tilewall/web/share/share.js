// The /share/ page: log in and choose where to share, or give the code a display shows
// (a guest); share a screen, window or tab, and stop. The capture, encoding and sending
// are in sender.js (docs/share.md).

import { api, get, post, seg } from "/js/api.js";
import { h, fill, field, errorBox, showError } from "/js/ui.js";
import { Sender, missing } from "./sender.js";

const root = /** @type {HTMLElement} */ (document.getElementById("share"));
const params = new URLSearchParams(location.search);
/** @type {Sender | null} the latest share's sender */
let latest = null;
// what became of the latest share's frames, for people and tests to read (pacing.js)
Object.defineProperty(window, "tilewallShare", {
  get: () => (latest ? { frames: latest.frames, codec: latest.codec, ...latest.pace.counts } : null),
});

/** The targets a logged-in user may share to, as <optgroup>s of a <select>. */
async function targetOptions() {
  const [walls, zones, groups, displays] = await Promise.all([
    get("/videowalls"),
    get("/zones"),
    get("/mirrorgroups"),
    get("/displays"),
  ]);
  /** @type {[string, string, {value: string, label: string}[]][]} */
  const groupsOf = [
    ["Video walls", "wall", (walls.videowalls || []).map((w) => ({ value: w.id, label: w.name }))],
    ["Zones", "zone", (zones.zones || []).map((z) => ({ value: z.zoneId, label: z.zoneName }))],
    ["Mirror groups", "mirror", (groups.mirrorgroups || []).map((g) => ({ value: g.id, label: g.name }))],
    ["Displays", "display", (displays.displays || []).map((d) => ({ value: String(d.displayId), label: `Display ${d.displayId}` }))],
  ];
  return groupsOf
    .filter(([, , items]) => items.length)
    .map(([label, kind, items]) => h("optgroup", { label }, ...items.map((i) => h("option", { value: `${kind}:${i.value}` }, i.label))));
}

/**
 * Runs `run` when `form` is submitted, its `button` disabled meanwhile; what it throws
 * shows in `error`, in the words of `refusals` for those statuses.
 * @param {HTMLFormElement} form
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} error
 * @param {() => Promise<void>} run
 * @param {Record<number, string>} [refusals]
 */
function onSubmit(form, button, error, run, refusals = {}) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    button.disabled = true;
    showError(error, null);
    try {
      await run();
    } catch (err) {
      if (refusals[err.status]) err.message = refusals[err.status];
      showError(error, err);
    } finally {
      button.disabled = false;
    }
  });
}

/** The login form; `done()` once logged in. */
function loginForm(done) {
  const user = h("input", { name: "user", autocomplete: "username", required: true });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const error = errorBox();
  const submit = h("button", { type: "submit" }, "Log in");
  const form = h("form", { class: "card", "aria-label": "Log in" }, field("User", user), field("Password", password), error, submit);
  const logIn = async () => {
    await api("POST", "/session", { json: { user: user.value.trim(), password: password.value }, auth: false });
    done();
  };
  onSubmit(form, submit, error, logIn, { 401: "The user name or password is not right." });
  return form;
}

/** The chooser of a target and the Share button. */
async function chooser() {
  const select = h("select", { name: "target" }, ...(await targetOptions()));
  const wanted = params.get("target") && params.get("id") ? `${params.get("target")}:${params.get("id")}` : "";
  if (wanted && [...select.options].some((o) => o.value === wanted)) select.value = wanted;
  const error = errorBox();
  const start = h("button", { type: "submit" }, "Share my screen");
  const form = h("form", { class: "card", "aria-label": "Share" }, field("Share to", select), error, start);
  onSubmit(form, start, error, async () => {
    const [target, id] = select.value.split(/:(.*)/s);
    const label = select.selectedOptions[0] ? select.selectedOptions[0].textContent || "" : "";
    await share({ target, id }, label);
  });
  return form;
}

/** A guest's form: the code the display shows, and a name to show with the share. */
function guestForm() {
  const code = h("input", { name: "code", inputmode: "numeric", autocomplete: "off", required: true, maxlength: "20" });
  const name = h("input", { name: "name", autocomplete: "name", maxlength: "60" });
  const error = errorBox();
  const start = h("button", { type: "submit" }, "Share my screen");
  const form = h(
    "form",
    { class: "card", "aria-label": "Share with a code" },
    h("p", { class: "muted" }, "No account? Enter the code the screen shows."),
    field("Code", code),
    field("Your name (optional)", name),
    error,
    start,
  );
  const shareByCode = async () => {
    /** @type {Record<string, string>} */
    const body = { code: code.value.trim(), name: name.value.trim() };
    if (params.get("target") === "display" && params.get("id")) Object.assign(body, { target: "display", id: params.get("id") });
    await share(body, "the screen showing the code");
  };
  onSubmit(form, start, error, shareByCode, { 403: "That is not the code the screen shows now." });
  return form;
}

/**
 * Capture first (the browser asks which screen, on the click), then start the share.
 * @param {Record<string, string>} body what POST /api/shares is given
 * @param {string} label
 */
async function share(body, label) {
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: 30 }, audio: false });
  let started;
  try {
    started = await post("/shares", body, { auth: false });
  } catch (err) {
    for (const track of stream.getTracks()) track.stop();
    throw err;
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${started.ingest}?token=${seg(started.token)}`;
  const status = h("p", { class: "status live", role: "status" }, `Sharing to ${label}…`);
  const stop = h("button", { type: "button", class: "danger" }, "Stop sharing");
  fill(root, h("div", { class: "card" }, status, stop));
  const sender = new Sender(stream, url, {
    onStats: ({ width, height, bitrate }) => {
      status.textContent = `Sharing to ${label} · ${width}×${height} · ${(bitrate / 1e6).toFixed(1)} Mb/s`;
    },
    onEnd: (reason) => ended(reason),
  });
  latest = sender;
  stop.addEventListener("click", () => sender.stop());
  sender.run().catch((err) => sender.end(err.message || String(err)));
}

/** @param {string} reason */
async function ended(reason) {
  await show();
  root.prepend(h("p", { class: "muted", role: "status" }, reason));
}

async function show() {
  const why = missing();
  if (why) {
    fill(root, h("p", { class: "error", role: "alert" }, why));
    return;
  }
  try {
    await get("/shares", { auth: false });
  } catch (err) {
    if (err.status === 401) {
      fill(root, guestForm(), h("p", { class: "muted" }, "Or log in to share to any screen:"), loginForm(() => show()));
      return;
    }
    fill(root, h("p", { class: "error", role: "alert" }, err.message));
    return;
  }
  fill(root, await chooser());
}

show();
