// What an operator switches, folded from the host as the console last read it
// (host-state.js): "targets" (a zone, a mirror group, a display on its own), each with its
// state and what it shows, and the lookups they are folded with.

import { seg } from "./api.js";
import { live, progress } from "./host-state.js";

export function sourceById(id) {
  return live.sources.find((s) => s.sourceId === id) || null;
}

export function stationOf(displayId) {
  return live.network.find((n) => n.displayId === displayId) || null;
}

export function displayById(displayId) {
  return live.displays.find((d) => d.displayId === displayId) || null;
}

export function displayName(displayId) {
  const station = stationOf(displayId);
  return station && station.name ? `${station.name} (#${displayId})` : `Display ${displayId}`;
}

/** Screen size of a display's receiver, from its DISPLAY device ("1920x1080"). */
export function screenOf(displayId) {
  const station = stationOf(displayId);
  const device = station && (station.devices || []).find((d) => d.type === "DISPLAY");
  const m = device && /^(\d+)\s*x\s*(\d+)$/i.exec(device.model || "");
  return m ? { width: Number(m[1]), height: Number(m[2]) } : { width: 1920, height: 1080 };
}

export function wallOf(displayId) {
  return live.walls.find((w) => (w.monitors || []).some((m) => m.displayId === displayId)) || null;
}

export function zoneOfDisplay(displayId) {
  return live.zones.find((z) => (z.zoneDisplays || []).some((d) => d.displayId === displayId && d.isSelected)) || null;
}

export function mirrorOfDisplay(displayId) {
  return live.mirrors.find((m) => m.displayIds.includes(displayId)) || null;
}

/** The play state a display's receiver is told ("playing", "paused", "stopped", "welcome"),
 *  from its render description; null when there is none (yet) or it shows no content. */
export function renderedState(displayId) {
  const entry = live.renders.get(displayId);
  const content = entry && entry.description && entry.description.content;
  if (!content) return null;
  if (content.welcome) return "welcome";
  if (!content.source) return "stopped";
  return content.timeline.state;
}

function stateOf({ welcome, isPlaying, sourceId, filename, advancing, rendered }) {
  if (rendered) return rendered;
  if (welcome) return "welcome";
  if (isPlaying === true) return "playing";
  if (isPlaying === false) return sourceId || filename ? "paused" : "stopped";
  // displays without a render description: guess from the position moving
  if (!sourceId && !filename) return "stopped";
  if (advancing === false) return "paused";
  return "playing";
}

/** Everything an operator can switch, keyed "zone:<id>", "mirror:<id>", "display:<id>". */
export function targets() {
  const out = [];
  for (const z of live.zones) {
    const ids = (z.zoneDisplays || []).filter((d) => d.isSelected).map((d) => d.displayId);
    out.push(
      makeTarget({
        kind: "zone",
        id: z.zoneId,
        name: z.zoneName,
        path: `/zones/${seg(z.zoneId)}`,
        displayIds: ids,
        sourceId: z.playingSourceId,
        welcome: z.isShowingWelcomeScreen,
        isPlaying: z.isPlaying,
        wallId: z.videowallId,
      }),
    );
  }
  for (const m of live.mirrors) {
    out.push(
      makeTarget({
        kind: "mirror",
        id: m.id,
        name: m.name,
        path: `/mirrorgroups/${seg(m.id)}`,
        displayIds: m.displayIds,
        sourceId: m.playingSourceId,
        welcome: m.isShowingWelcomeScreen,
        isPlaying: m.isPlaying,
      }),
    );
  }
  for (const d of live.displays) {
    if (mirrorOfDisplay(d.displayId) || zoneOfDisplay(d.displayId)) continue;
    const rendered = renderedState(d.displayId);
    out.push(
      makeTarget({
        kind: "display",
        id: String(d.displayId),
        name: displayName(d.displayId),
        path: `/displays/${seg(d.displayId)}`,
        displayIds: [d.displayId],
        sourceId: d.playingSourceId,
        welcome: d.isShowingWelcomeScreen,
        isPlaying: rendered && rendered !== "welcome" ? rendered === "playing" : undefined,
        rendered,
        wallId: (wallOf(d.displayId) || {}).id,
      }),
    );
  }
  return out;
}

function makeTarget(t) {
  const key = `${t.kind}:${t.id}`;
  const media = live.media.get(key) || null;
  const prog = progress.get(key);
  const online = t.displayIds.length > 0 && t.displayIds.every((id) => (displayById(id) || {}).isOnline);
  const someOnline = t.displayIds.some((id) => (displayById(id) || {}).isOnline);
  const source = t.sourceId ? sourceById(t.sourceId) : null;
  const state = stateOf({
    welcome: t.welcome,
    isPlaying: t.isPlaying,
    sourceId: t.sourceId,
    filename: media && media.filename,
    advancing: prog ? prog.advancing : null,
    rendered: t.rendered || null,
  });
  return {
    ...t,
    key,
    media,
    source,
    online,
    someOnline,
    state,
    videolist: !t.sourceId && !!(media && media.filename) && state !== "welcome",
  };
}

export function targetByKey(key) {
  return targets().find((t) => t.key === key) || null;
}

export function targetOfDisplay(displayId) {
  const m = mirrorOfDisplay(displayId);
  if (m) return `mirror:${m.id}`;
  const z = zoneOfDisplay(displayId);
  if (z) return `zone:${z.zoneId}`;
  return `display:${displayId}`;
}

/** Estimated media position now, between polls. */
export function positionNow(target) {
  const m = target && target.media;
  if (!m) return 0;
  if (target.state !== "playing") return m.current;
  const now = m.current + (Date.now() - m.at);
  return m.total > 0 ? Math.min(now, m.total) : now;
}
