// What a switch and a stop ask of the host, for each kind of target (zone, mirror group,
// display on its own): the same calls for dragging a source and for the control panel.

import { put, seg } from "../api.js";
import * as live from "../live.js";

/** Switch a target to a source (the same call for drag and drop and the list). */
export async function switchTarget(target, sourceId, { welcome = false } = {}) {
  if (target.kind === "mirror") {
    if (welcome) return stopTarget(target, sourceId);
    // mirror groups have no /switch: play with a source selector switches them
    await put(`${target.path}/play`, { sourceId });
  } else {
    await put(`${target.path}/switch`, undefined, {
      query: { destinationSourceId: sourceId, isShowWelcomeScreen: welcome || undefined },
    });
  }
  await live.refresh();
}

/** Stop: zones have /stop; displays and mirror groups go to the welcome screen by a
 *  switch with isShowWelcomeScreen (a member display's switch acts on its group). */
export async function stopTarget(target, fallbackSourceId = "") {
  if (target.kind === "zone") {
    await put(`${target.path}/stop`);
  } else {
    const sourceId = target.sourceId || fallbackSourceId;
    if (!sourceId) throw new Error("Nothing to stop: no source is assigned here.");
    const displayId = target.displayIds[0];
    await put(`/displays/${seg(displayId)}/switch`, undefined, {
      query: { destinationSourceId: sourceId, isShowWelcomeScreen: true },
    });
  }
  await live.refresh();
}
