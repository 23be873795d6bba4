// The console shell: hash routes, the login page, the live connection indicator.

import { api, onUnauthorized } from "./api.js";
import * as live from "./live.js";
import { watchGroup, stopWatchingGroup } from "./group.js";
import { byId, h, clear, errorBox, showError, field, checkbox } from "./ui.js";
import { renderOverview } from "./overview/page.js";
import { renderPresets } from "./views/presets.js";
import { renderAlerts } from "./views/alerts.js";
import { renderReceivers } from "./views/receivers.js";
import { renderSources } from "./views/sources/page.js";
import { renderMedia } from "./views/media/page.js";
import { renderWalls } from "./walls/page.js";
import { renderLayouts } from "./views/layouts/page.js";
import { renderSettings } from "./views/settings.js";
import { renderSchedule } from "./views/schedule/page.js";
import { renderPlaylog } from "./views/playlog.js";
import { renderAudit } from "./views/audit.js";
import { renderUsers } from "./views/users.js";
import { whoami, forget, may } from "./session.js";

const ROUTES = {
  login: { title: "Log in", render: renderLogin, public: true },
  overview: { title: "Overview", render: renderOverview },
  presets: { title: "Presets", render: renderPresets },
  alerts: { title: "Alerts and power", render: renderAlerts },
  schedule: { title: "Schedule", render: renderSchedule },
  playlog: { title: "Play log", render: renderPlaylog },
  audit: { title: "Audit trail", render: renderAudit, needs: "administer" },
  receivers: { title: "Receivers", render: renderReceivers, needs: "administer" },
  sources: { title: "Sources", render: renderSources, needs: "administer" },
  media: { title: "Media library", render: renderMedia, needs: "administer" },
  walls: { title: "Walls, zones and mirror groups", render: renderWalls, needs: "administer" },
  layouts: { title: "Control-room layouts", render: renderLayouts },
  settings: { title: "Host settings", render: renderSettings, needs: "administer" },
  users: { title: "Users", render: renderUsers, needs: "administer" },
};

const main = byId("main");
const topbar = byId("topbar");
let cleanup = null;

export function parseHash(hash = location.hash) {
  const raw = hash.replace(/^#\/?/, "");
  const [name, q = ""] = raw.split("?");
  return { name: name || "overview", params: new URLSearchParams(q) };
}

function goLogin() {
  const current = location.hash || "#/overview";
  if (parseHash(current).name === "login") return;
  live.stop();
  location.hash = `#/login?next=${encodeURIComponent(current)}`;
}

onUnauthorized(goLogin);

function render() {
  const { name, params } = parseHash();
  const route = ROUTES[name] || ROUTES.overview;
  if (cleanup) {
    try {
      cleanup();
    } catch (e) {
      console.error(e);
    }
    cleanup = null;
  }
  clear(main);
  document.title = `${route.title} · tilewall console`;
  topbar.hidden = !!route.public;
  document.body.classList.toggle("public", !!route.public);
  for (const a of document.querySelectorAll("#nav a")) {
    if (!(a instanceof HTMLElement)) continue;
    if (a.dataset.route === name) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  if (route.public) {
    live.stop();
    stopWatchingGroup();
    forget();
    cleanup = route.render(main, params) || null;
    return;
  }
  live.start();
  watchGroup();
  whoami().then(
    (me) => {
      if (parseHash().name !== name) return; // moved on meanwhile
      whoamiLine.textContent = `${me.userName} (${me.role})`;
      if (route.needs && !may(route.needs)) {
        main.append(h("p", { class: "muted notice" }, `The ${route.title.toLowerCase()} screen is for administrators; your role is ${me.role}.`));
        return;
      }
      cleanup = route.render(main, params) || null;
    },
    (e) => {
      if (e.status !== 401) main.append(h("p", { class: "error" }, `Could not ask the host who is logged in: ${e.message}`));
    },
  );
}

window.addEventListener("hashchange", render);
const whoamiLine = byId("whoami");

byId("logout").addEventListener("click", async () => {
  try {
    await api("DELETE", "/session", { auth: false });
  } catch {
    /* logged out either way */
  }
  live.stop();
  forget();
  location.hash = "#/login";
});

byId("skip-link").addEventListener("click", () => main.focus());

// live connection indicator in the top bar
const conn = byId("conn");
live.subscribe((state) => {
  if (state.error && state.error.status !== 401) {
    conn.textContent = "Host not answering";
    conn.className = "conn bad";
    conn.title = state.error.message;
  } else if (!state.following) {
    conn.textContent = "Connecting…";
    conn.className = "conn";
    conn.title = "Opening the host's stream of changes again";
  } else {
    conn.textContent = "Live";
    conn.className = "conn ok";
    conn.title = "Follows the host's changes as they happen";
  }
});

function renderLogin(root, params) {
  const next = params.get("next") || "#/overview";
  const user = h("input", { name: "user", autocomplete: "username", required: true, value: "admin" });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const keep = checkbox("Keep me logged in on this device");
  const error = errorBox();
  const submit = h("button", { type: "submit", class: "primary" }, "Log in");
  const form = h(
    "form",
    { class: "login card", "aria-labelledby": "login-title" },
    h("h1", { id: "login-title" }, h("span", { class: "brand" }, "tile", h("b", {}, "wall")), " console"),
    h("p", { class: "muted" }, "Log in to see and switch every display."),
    field("User name", user),
    field("Password", password),
    keep,
    error,
    h("div", { class: "row end" }, submit),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    submit.disabled = true;
    showError(error, null);
    try {
      await api("POST", "/session", {
        query: { keepLoggedIn: keep.input.checked },
        json: { user: user.value.trim(), password: password.value },
        auth: false,
      });
      const target = next.startsWith("#/") && !next.startsWith("#/login") ? next : "#/overview";
      location.hash = target;
    } catch (err) {
      if (err.status === 401) err.message = "The user name or password is not right.";
      showError(error, err);
      password.select();
    } finally {
      submit.disabled = false;
    }
  });
  root.append(h("div", { class: "login-wrap" }, form));
  (user.value ? password : user).focus();
}

render();
