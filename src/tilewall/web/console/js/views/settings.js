// Host settings: the /api/system operations of the interface, plus print profiles and
// failover status. Each card loads on its own; a failure is shown in its card.

import { api, get, put, post, del, seg, BASE } from "../api.js";
import { h, clear, act, field, errorBox, showError, confirmDialog, pageHeader, checkbox, nextId, toast } from "../ui.js";

const DIAG = {
  MISSING_USER_NAMES: "Every account has a user name",
  SUPPORT: "Support contract is valid",
  CLOUD_SUBSCRIPTION: "Cloud subscription is active",
  ONPREM_UCLIENT_GPU_REQUIREMENT: "Graphics meets the requirement for local clients",
  CAPTURE_CARD_FIRMWARE: "Capture card firmware is current",
  LICENSE: "Licence is valid",
  TURN_SERVER: "TURN server is reachable",
  ALL_STATIONS_GBIT_SETTINGS: "All stations link at gigabit speed",
  UNSUPPORTED_DEVICES: "No unsupported devices are attached",
  REDUNDANT_DEFAULT_GATEWAY: "Only one default gateway is configured",
  NETWORK_LATENCY: "Network latency to receivers is low",
  SOURCE_MEMORY_USAGE: "Sources use a healthy amount of memory",
  NOT_REGISTERED_TO_CLOUD: "Host is registered to the cloud",
  NETWORK_DHCP: "DHCP is available on the network",
  ROOT_FREE_DISK_SPACE: "Enough free disk space",
  CPU_CORES: "Enough processor cores",
  NETWORK_BANDWIDTH: "Enough network bandwidth",
  ALL_ZC_DISPLAY: "Every receiver has a display attached",
  SOFTWARE_UPDATE_CONGRUENCY: "Software versions match",
  NETWORK_IP: "Host has a usable IP address",
  TOTAL_RAM: "Enough memory",
  SECUREBOOT_FREE: "Secure Boot does not block drivers",
};

function card(title, ...children) {
  const id = nextId("set");
  return h("section", { class: "card", "aria-labelledby": id }, h("h2", { id }, title), ...children);
}

function facts(obj, labels = {}) {
  return h(
    "dl",
    { class: "facts" },
    Object.entries(obj).flatMap(([k, v]) => [h("dt", {}, labels[k] || k), h("dd", {}, typeof v === "boolean" ? (v ? "yes" : "no") : v === "" || v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v))]),
  );
}

/** A card whose body is (re)loaded by `load(body, reload, error)`. */
function loadingCard(title, load) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const error = errorBox();
  const el = card(title, error, body);
  const reload = async () => {
    showError(error, null);
    try {
      await load(clear(body), reload, error);
    } catch (e) {
      if (e.status === 401) return;
      clear(body);
      showError(error, e);
    }
  };
  reload();
  return el;
}

function hostCard() {
  return loadingCard("Host", async (body, reload, error) => {
    const info = await get("/system");
    body.append(
      facts(
        {
          hostName: info.hostName,
          ipAddress: info.ipAddress,
          productVersion: info.productVersion,
          productBuildData: info.productBuildData,
          linuxDistro: `${info.linuxDistro || ""} ${info.linuxVersion || ""}`.trim(),
          licenseSystemId: info.licenseSystemId,
          stations: `${info.networkStations ?? 0} network, ${info.onboardStations ?? 0} onboard, ${info.usbStations ?? 0} USB, ${info.unknownStations ?? 0} unknown`,
          version: info.version,
        },
        { hostName: "Host name", ipAddress: "Address", productVersion: "Version", productBuildData: "Build", linuxDistro: "Operating system", licenseSystemId: "System id", stations: "Stations", version: "Interface version" },
      ),
    );
    let current = info.hostName || "";
    try {
      const hn = await get("/system/hostname");
      current = typeof hn === "string" ? hn : hn.hostName || hn.hostname || current;
    } catch (e) {
      if (e.status === 401) return;
    }
    const input = h("input", { name: "hostName", value: current, autocomplete: "off", pattern: "[A-Za-z0-9.-]+" });
    const save = h("button", { type: "button", class: "primary" }, "Change host name");
    save.addEventListener("click", () => act(save, async () => { await put("/system/hostname", { hostName: input.value.trim() }); await reload(); }, { errorBox: error, success: "Host name changed" }));
    body.append(h("div", { class: "row wrap" }, field("Host name", input, { hint: "Letters, digits, dots and hyphens" }), save));
  });
}

function licenceCard() {
  return loadingCard("Licence", async (body, reload, error) => {
    try {
      const l = await get("/system/license");
      body.append(
        facts(
          { resellerName: l.resellerName, numberOfStations: l.numberOfStations, systemId: l.systemId, licenseIssued: l.licenseIssued, licenseExpires: l.licenseExpires, supportExpires: l.supportExpires, videoWallModule: l.videoWallModule, fastVideoFeature: l.fastVideoFeature, sessionManagement: l.sessionManagement },
          { resellerName: "Reseller", numberOfStations: "Licensed displays", systemId: "System id", licenseIssued: "Issued", licenseExpires: "Expires", supportExpires: "Support until", videoWallModule: "Video wall module", fastVideoFeature: "Fast video", sessionManagement: "Session management" },
        ),
        h("p", {}, h("a", { class: "button", href: `${BASE}/system/license/download`, download: "" }, "Download a licence backup")),
      );
    } catch (e) {
      if (e.status !== 404 || e.notOffered) throw e;
      body.append(h("p", { class: "note" }, `No licence: ${e.message} Without one the host is not restricted.`));
    }
    const code = h("input", { name: "activationCode", autocomplete: "off" });
    code.style.width = "100%";
    const count = h("input", { type: "number", name: "numberOfStations", min: 1, value: 1, class: "num" });
    const apply = h("button", { type: "button", class: "primary" }, "Activate");
    apply.addEventListener("click", () => {
      if (!code.value.trim()) return showError(error, new Error("Enter the activation code."));
      act(apply, async () => { await put("/system/license", { activationCode: code.value.trim(), numberOfStations: Number(count.value) }); await reload(); }, { errorBox: error, success: "Licence updated" });
    });
    const remove = h("button", { type: "button", class: "danger" }, "Remove licence");
    remove.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: "Remove the licence?", message: "The host keeps running unrestricted until a licence is claimed again.", confirm: "Remove", danger: true }))) return;
      act(remove, async () => { await del("/system/license"); await reload(); }, { errorBox: error, success: "Licence removed" });
    });
    body.append(
      h("h3", {}, "Enter an activation code"),
      field("Activation code", code, { wide: true }),
      h("div", { class: "row wrap" }, field("Number of displays", count), apply, remove),
    );
  });
}

function timezoneCard() {
  return loadingCard("Time zone", async (body, reload, error) => {
    const tz = await get("/system/timezone");
    const current = (tz.currentTimeZone && tz.currentTimeZone.timezone) || "";
    const select = h("select", { name: "timezone" }, (tz.availableTimeZones || []).map((z) => h("option", { value: z, selected: z === current }, z)));
    const save = h("button", { type: "button", class: "primary" }, "Set time zone");
    save.addEventListener("click", () => act(save, async () => { await put("/system/timezone", { timezone: select.value }); await reload(); }, { errorBox: error, success: `Time zone set to ${select.value}` }));
    body.append(h("p", {}, "Now: ", h("strong", {}, current || "unknown"), tz.currentTimeZone && tz.currentTimeZone.offset !== undefined ? ` (offset ${tz.currentTimeZone.offset})` : ""), h("div", { class: "row wrap" }, field("Time zone", select), save));
  });
}

function networkCard() {
  return loadingCard("Network interfaces", async (body) => {
    const list = await get("/system/networkinterfaces");
    const items = Array.isArray(list) ? list : list.networkInterfaces || list.interfaces || [];
    if (!items.length) body.append(h("p", { class: "muted" }, "No interfaces reported."));
    for (const nic of items) {
      const error = errorBox();
      const dhcp = checkbox("Get the address by DHCP", !!nic.usesDHCP);
      const inputs = {};
      const mk = (key) => (inputs[key] = h("input", { name: key, value: nic[key] || "", inputmode: "decimal", autocomplete: "off" }));
      const dhcpd = checkbox("Run a DHCP server for receivers on this interface", !!nic.runningDhcpd);
      const save = h("button", { type: "button", class: "primary" }, `Apply to ${nic.id}`);
      const staticFields = h(
        "div",
        { class: "grid-form" },
        field("Address", mk("ipAddress")),
        field("Subnet mask", mk("subnetMask")),
        field("Gateway", mk("defaultGateway")),
        field("Preferred DNS", mk("preferredDNSAddress")),
        field("Alternate DNS", mk("alternateDNSAddress")),
      );
      const toggle = () => staticFields.querySelectorAll("input").forEach((i) => (i.disabled = dhcp.input.checked));
      dhcp.input.addEventListener("change", toggle);
      toggle();
      save.addEventListener("click", async () => {
        if (!(await confirmDialog({ title: `Apply settings to ${nic.id}?`, message: "The network restarts; this console may lose the host for a moment, or for good if the address changes.", confirm: "Apply" }))) return;
        const payload = { id: nic.id, usesDHCP: dhcp.input.checked, runningDhcpd: dhcpd.input.checked };
        for (const [k, input] of Object.entries(inputs)) payload[k] = input.value.trim();
        act(save, () => put("/system/networkinterfaces", payload), { errorBox: error, success: "Accepted. The settings may take a moment to be in effect." });
      });
      body.append(
        h(
          "fieldset",
          {},
          h("legend", {}, `${nic.id}${nic.deviceName ? ` — ${nic.deviceName}` : ""}`),
          h("p", { class: "small muted" }, `Link: ${nic.portStatus || "unknown"}${nic.linkSpeed ? `, ${nic.linkSpeed}` : ""}${nic.usesDHCP && nic.leaseDuration ? ` · lease ${nic.leaseDuration}` : ""}${nic.dhcpdStarting ? " · DHCP server starting" : ""}`),
          dhcp,
          staticFields,
          dhcpd,
          error,
          h("div", { class: "row end" }, save),
        ),
      );
    }
  });
}

function toggleCard(title, path, fields, describe) {
  return loadingCard(title, async (body, reload, error) => {
    const value = await get(path);
    const boxes = fields.map(([key, label]) => {
      const current = typeof value === "object" && value !== null ? value[key] : value === true || value === "true";
      const box = checkbox(label, !!current);
      box.input.name = key;
      return [key, box];
    });
    const save = h("button", { type: "button", class: "primary" }, "Save");
    save.addEventListener("click", () => act(save, async () => { await put(path, Object.fromEntries(boxes.map(([k, b]) => [k, b.input.checked]))); await reload(); }, { errorBox: error, success: `${title} saved` }));
    body.append(h("p", { class: "muted" }, describe), ...boxes.map(([, b]) => h("div", {}, b)), h("div", { class: "row end" }, save));
  });
}

function diagnosticsCard() {
  return loadingCard("Diagnostics", async (body, reload) => {
    const diag = await get("/system/diag");
    const results = diag.results || [];
    const failed = results.filter((r) => !r.success).length;
    const again = h("button", { type: "button" }, "Run again");
    again.addEventListener("click", reload);
    body.append(
      h("p", { class: failed ? "note" : "ok-box", role: "status" }, failed ? `${failed} of ${results.length} checks need attention.` : `All ${results.length} checks pass.`),
      h(
        "ul",
        { class: "checklist" },
        [...results]
          .sort((a, b) => Number(a.success) - Number(b.success))
          .map((r) =>
            h(
              "li",
              { class: r.success ? "pass" : "fail" },
              h("span", { class: "mark", "aria-hidden": "true" }, r.success ? "✓" : "✗"),
              h("span", {}, h("span", { class: "visually-hidden" }, r.success ? "Passes: " : "Needs attention: "), DIAG[r.id] || r.id.replaceAll("_", " ").toLowerCase(), r.params && r.params.length ? h("small", { class: "muted" }, ` — ${r.params.join(", ")}`) : null),
            ),
          ),
      ),
      h("div", { class: "row end" }, again),
    );
  });
}

const PRINT_PAIRS = [
  ["isGlobal", "global"],
  ["print_dialog", "showDialog"],
  ["release_jobs", "autoReleaseJob"],
  ["show_text_entry", "showTextEntry"],
];

function printCard() {
  return loadingCard("Print profiles", async (body, reload, error) => {
    const data = await get("/printprofiles");
    const profiles = data.printProfiles || [];
    const rows = profiles.map((p) => {
      const remove = h("button", { type: "button", class: "danger small", "aria-label": `Delete print profile ${p.queueName}` }, "Delete");
      remove.addEventListener("click", async () => {
        if (!(await confirmDialog({ title: `Delete print profile “${p.queueName}”?`, confirm: "Delete", danger: true }))) return;
        act(remove, async () => { await del(`/printprofiles/${seg(p.queueName)}`); await reload(); }, { errorBox: error, success: "Print profile deleted" });
      });
      const yes = (a, b) => ((p[a] ?? p[b]) ? "yes" : "no");
      return h("tr", {}, h("th", { scope: "row" }, p.queueName), h("td", {}, yes("isGlobal", "global")), h("td", {}, yes("print_dialog", "showDialog")), h("td", {}, yes("release_jobs", "autoReleaseJob")), h("td", {}, yes("show_text_entry", "showTextEntry")), h("td", {}, remove));
    });
    body.append(
      profiles.length
        ? h("table", { "aria-label": "Print profiles" }, h("thead", {}, h("tr", {}, ["Queue", "Global", "Print dialog", "Release jobs", "Text entry", ""].map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, rows))
        : h("p", { class: "muted" }, "No print profiles."),
    );
    const queue = h("input", { name: "queueName", autocomplete: "off" });
    const boxes = [checkbox("Global", false), checkbox("Show the print dialog", true), checkbox("Release jobs automatically", false), checkbox("Ask for a text entry", false)];
    const save = h("button", { type: "button", class: "primary" }, "Save profile");
    save.addEventListener("click", () => {
      if (!queue.value.trim()) return showError(error, new Error("Give the queue name."));
      const profile = { queueName: queue.value.trim() };
      PRINT_PAIRS.forEach(([snake, camel], i) => {
        profile[snake] = boxes[i].input.checked;
        profile[camel] = boxes[i].input.checked;
      });
      act(save, async () => { await post("/printprofiles", { printProfiles: [profile] }); await reload(); }, { errorBox: error, success: "Print profile saved" });
    });
    body.append(h("h3", {}, "Add or update a profile"), h("div", { class: "row wrap" }, field("Queue name", queue), ...boxes, save));
  });
}

function failoverCard() {
  return loadingCard("Failover group", async (body) => {
    /** @typedef {{ok: boolean, v?: any, e?: any}} Outcome */
    /** @type {(path: string) => Promise<Outcome>} */
    const tryGet = (path) => get(path).then((v) => ({ ok: true, v }), (e) => ({ ok: false, e }));
    const [v2, v1, net] = await Promise.all([tryGet("/failover-group-v2"), tryGet("/failover-group"), tryGet("/failover-group-network-settings")]);
    for (const r of [v2, v1, net]) if (!r.ok && r.e.status === 401) return;
    if (v2.ok) {
      const g = v2.v;
      body.append(h("p", {}, h("strong", {}, g.groupName), ` — this host is the ${g.primary ? "primary" : "secondary"}`), facts({ "Automatic failover": g.autoFailover, "Automatic failback": g.autoFailback, "Failback grace (s)": g.autoFailbackGraceSeconds, "Host name switching": g.useHostNameSwitching, Interface: g.failoverInterface || "system default", Peer: g.peerIP }));
    } else if (v1.ok) {
      const g = v1.v;
      body.append(
        h("p", {}, h("strong", {}, g.groupname)),
        h("ul", {}, (g.systems || []).map((s) => h("li", {}, `${s.hostname} (${s.systemID})${s.isLocalHost ? " — this host" : ""}`))),
        facts({ "Automatic failback": g.autofailback, "Failback grace (s)": g.autofailbackGracePeriodInSeconds, "Host name switching": g.hostnameSwitching }),
      );
    } else {
      const offered = !(v2.e.notOffered && v1.e.notOffered);
      body.append(h("p", { class: offered ? "muted" : "note" }, offered ? "This host is in no failover group." : v2.e.message));
    }
    if (net.ok) body.append(h("h3", {}, "Failover network"), facts({ Interface: net.v.failoverInterface || "system default", "Discover the peer": net.v.autoDiscoverPeer, Peer: net.v.peerIP, Available: (net.v.availableInterfaces || []).join(", ") }));
  });
}

const when = (ms) => (ms ? new Date(ms).toLocaleString() : "—");

function groupCard() {
  return loadingCard("Group of hosts", async (body) => {
    const g = await get("/group");
    if (g.role === "solo") {
      body.append(h("p", { class: "muted" }, "This host keeps its state in its own database: it is in no group. Hosts started on one PostgreSQL database (--database) form a group, one of them active."));
      return;
    }
    const active = (g.members || []).find((m) => m.memberId === g.activeMemberId);
    body.append(
      h("p", {}, "This host is ", h("strong", {}, g.role === "active" ? "the active host" : "a standby"), " of the group on ", h("code", {}, g.database || "its database"), g.connected ? "." : " (not connected to the database just now)."),
      facts(
        { active: active ? `${active.address} (${active.hostName})` : "none", since: when(g.activeSinceMs), takeover: g.lastTakeover ? `${when(g.lastTakeover.atMs)}: ${g.lastTakeover.address}${g.lastTakeover.previousAddress ? ` took over from ${g.lastTakeover.previousAddress}` : " became active"}` : "—", generation: g.generation, revision: g.revision },
        { active: "Active host", since: "Active since", takeover: "Last takeover", generation: "Generation", revision: "Revision" },
      ),
      h(
        "table",
        { class: "table" },
        h("thead", {}, h("tr", {}, ["Address", "Host name", "Role", "Since", "Alive", "Failover group"].map((t) => h("th", { scope: "col" }, t)))),
        h(
          "tbody",
          {},
          (g.members || []).map((m) =>
            h(
              "tr",
              { class: m.local ? "local" : "" },
              h("td", {}, h("a", { href: `${m.address}/` }, m.address), m.local ? " (this host)" : ""),
              h("td", {}, m.hostName),
              h("td", {}, m.role),
              h("td", {}, when(m.sinceMs)),
              h("td", {}, m.alive ? "yes" : `no (last seen ${when(m.seenMs)})`),
              h("td", {}, m.groupName ? `${m.groupName}${m.primary ? " (primary)" : ""}` : "—"),
            ),
          ),
        ),
      ),
    );
  });
}

function softwareCard() {
  return loadingCard("Software", async (body) => {
    const m = await get("/system/manifest");
    const pkgs = m.installedPackages || [];
    body.append(h("details", {}, h("summary", {}, `${pkgs.length} installed packages`), h("ul", { class: "small" }, pkgs.map((p) => h("li", {}, `${p.name} ${p.version}`)))));
  });
}

function remoteCard() {
  return loadingCard("Remote control", async (body, reload, error) => {
    const status = await get("/system/vpn");
    const on = typeof status === "object" && status !== null ? !!(status.running ?? status.enabled ?? status.active ?? status.vpn) : /on|true|running|active/i.test(String(status));
    const start = h("button", { type: "button", class: "primary", disabled: on }, "Start remote control");
    const stop = h("button", { type: "button", disabled: !on }, "Stop remote control");
    start.addEventListener("click", () => act(start, async () => { await put("/system/vpn"); await reload(); }, { errorBox: error, success: "Remote control started" }));
    stop.addEventListener("click", () => act(stop, async () => { await del("/system/vpn"); await reload(); }, { errorBox: error, success: "Remote control stopped" }));
    body.append(h("p", {}, `Remote control is ${on ? "on" : "off"}.`), h("div", { class: "row wrap" }, start, stop));
  });
}

function supportCard() {
  const error = errorBox();
  const power = (label, path, message) => {
    const b = h("button", { type: "button", class: "danger" }, label);
    b.addEventListener("click", async () => {
      if (!(await confirmDialog({ title: `${label}?`, message, confirm: label, danger: true }))) return;
      act(b, () => put(path), { errorBox: error, success: `${label}: the host is on its way` });
    });
    return b;
  };
  const download = h("button", { type: "button" }, "Download troubleshooting report");
  download.addEventListener("click", () =>
    act(download, async () => {
      // check first, so a missing operation is a readable message and not a broken download
      const response = await fetch(`${BASE}/system/downloadtroubleshootingreport`, { credentials: "same-origin" });
      if (!response.ok) {
        await api("GET", "/system/downloadtroubleshootingreport");
        return;
      }
      const blob = await response.blob();
      const a = h("a", { href: URL.createObjectURL(blob), download: "tilewall-troubleshooting-report.tar.bz2" });
      document.body.append(a);
      a.click();
      a.remove();
      toast("Report downloaded", "ok");
    }, { errorBox: error }),
  );
  return card(
    "Support and power",
    h("p", { class: "muted" }, "The report holds the host's logs and settings, for support."),
    h("div", { class: "row wrap" }, download, h("a", { class: "button", href: `${BASE}/system/apilog`, target: "_blank", rel: "noopener" }, "Open the interface log")),
    h("h3", {}, "Power"),
    h("div", { class: "row wrap" }, power("Reboot the host", "/system/reboot", "Every display loses its picture until the host is back."), power("Shut down the host", "/system/shutdown", "Every display goes dark; someone must switch the host back on.")),
    error,
  );
}

export function renderSettings(root) {
  root.append(
    pageHeader("Host settings"),
    h(
      "div",
      { class: "two-col" },
      h("div", {}, hostCard(), licenceCard(), timezoneCard(), toggleCard("Partner access", "/system/partneraccess", [["partnerAccess", "Allow partner access through the cloud"]], "Lets your integration partner reach this host for support."), toggleCard("Receiver assignment", "/system/receiverdeviceassignmentsettings", [["autoAssign", "Assign new receivers automatically"], ["autoInherit", "New receivers inherit the settings of the one they replace"]], "How receivers that appear on the network are handled."), supportCard()),
      h("div", {}, diagnosticsCard(), networkCard(), groupCard(), failoverCard(), printCard(), remoteCard(), softwareCard()),
    ),
  );
}
